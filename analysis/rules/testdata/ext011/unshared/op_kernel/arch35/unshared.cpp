// Its own tiling says nothing of the launch: a block past the used-core
// count may be launched and leave.
#include "kernel_operator.h"

struct SimtTiling {
  int64_t usedCoreNum;
};

extern "C" __global__ __aicore__ void unshared(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ SimtTiling *t = (__gm__ SimtTiling *)tiling;
  if (AscendC::GetBlockIdx() >= t->usedCoreNum) {
    return; // want "EXT011.*`return` under `if \\(AscendC::GetBlockIdx\\(\\) >= t->usedCoreNum\\)`"
  }
  AscendC::SyncAll();
}
