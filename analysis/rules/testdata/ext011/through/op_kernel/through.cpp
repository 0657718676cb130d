// A block id compared with a count the host launches through a call the
// analysis cannot see into (op_host/through_tiling.cpp): whether blocks
// reach past it is that call's answer, so it says less.
#include "kernel_operator.h"

struct ThroughTiling {
  uint32_t coreNum;
};

extern "C" __global__ __aicore__ void through_branch(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ ThroughTiling *t = (__gm__ ThroughTiling *)tiling;
  int64_t idx = AscendC::GetBlockIdx();
  int64_t coreNum = t->coreNum;
  if (idx < coreNum) {
    AscendC::SyncAll(); // want "info: EXT011 .*only the cores for which .*unless the blocks the host launches stay within `coreNum`: it launches a count `CalcTschBlockDim` computes from it \\(../op_host/through_tiling.cpp:7\\)"
  }
}

extern "C" __global__ __aicore__ void through_return(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ ThroughTiling *t = (__gm__ ThroughTiling *)tiling;
  int64_t idx = AscendC::GetBlockIdx();
  int64_t coreNum = t->coreNum;
  if (idx >= coreNum) {
    return; // want "info: EXT011 .*`return` under `if \\(idx >= coreNum\\)`.*unless the blocks the host launches stay within `coreNum`"
  }
  AscendC::SyncAll();
}
