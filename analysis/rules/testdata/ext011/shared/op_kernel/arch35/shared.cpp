// The shared tiling (common/op_host) launches the used-core count this
// kernel compares with: no launched block returns.
#include "kernel_operator.h"

struct SimtTiling {
  int64_t usedCoreNum;
};

extern "C" __global__ __aicore__ void shared(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ SimtTiling *t = (__gm__ SimtTiling *)tiling;
  if (AscendC::GetBlockIdx() >= t->usedCoreNum) {
    return;
  }
  AscendC::SyncAll();
}
