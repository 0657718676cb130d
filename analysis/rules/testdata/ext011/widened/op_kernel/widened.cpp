// The twin: the host launches the larger of the stored count and every
// vector core (op_host/widened_tiling.cpp): blocks past it are launched.
#include "kernel_operator.h"

struct WidenedTiling {
  uint32_t coreNum;
};

extern "C" __global__ __aicore__ void widened_branch(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ WidenedTiling *t = (__gm__ WidenedTiling *)tiling;
  int64_t idx = AscendC::GetBlockIdx();
  int64_t coreNum = t->coreNum;
  if (idx < coreNum) {
    AscendC::SyncAll(); // want "error: EXT011 .*only the cores for which .*; the host stores `coreNum` but launches another block count \\(../op_host/widened_tiling.cpp:7\\)"
  }
}

extern "C" __global__ __aicore__ void widened_return(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ WidenedTiling *t = (__gm__ WidenedTiling *)tiling;
  int64_t idx = AscendC::GetBlockIdx();
  int64_t coreNum = t->coreNum;
  if (idx >= coreNum) {
    return; // want "error: EXT011 .*`return` under `if \\(idx >= coreNum\\)`.*the kernel hangs; skip the work.*the host stores `coreNum` but launches another block count"
  }
  AscendC::SyncAll();
}
