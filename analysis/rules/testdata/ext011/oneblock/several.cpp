// The twin: one launch of several_kernel (host.cpp) starts four blocks.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void several_kernel(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  uint32_t used = ((__gm__ uint32_t *)tiling)[0];
  if (AscendC::GetBlockIdx() >= used) {
    return; // want "error: EXT011 .*under `if \\(AscendC::GetBlockIdx\\(\\) >= used\\)`"
  }
  AscendC::SyncAll();
}
