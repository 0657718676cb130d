// A block's share of the rows, computed from its id, where the host
// launches every vector core (op_host/allcores_tiling.cpp): the blocks
// past the rows leave before the barrier the others wait at.
#include "kernel_operator.h"

struct AllTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
};

extern "C" __global__ __aicore__ void allcores(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ AllTiling *t = (__gm__ AllTiling *)tiling;
  uint32_t per = (t->rows + t->usedCoreNum - 1) / t->usedCoreNum;
  uint32_t start = AscendC::GetBlockIdx() * per;
  if (start >= t->rows) {
    return; // want "error: EXT011 .*under `if \\(start >= t->rows\\)`"
  }
  AscendC::SyncAll();
  // The twin: a block id against a count the host does not launch.
  if (AscendC::GetBlockIdx() >= t->rows / 2) {
    return; // want "error: EXT011 .*under `if \\(AscendC::GetBlockIdx\\(\\) >= t->rows / 2\\)`"
  }
  AscendC::SyncAll();
}
