// A block's share of the rows, computed from its id: the host sizes the
// launch to the rows (op_host/sized_tiling.cpp), so whether a launched
// block gets none is its arithmetic, which the analysis does not follow.
#include "kernel_operator.h"

struct SizedTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
};

extern "C" __global__ __aicore__ void sized(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ SizedTiling *t = (__gm__ SizedTiling *)tiling;
  uint32_t per = (t->rows + t->usedCoreNum - 1) / t->usedCoreNum;
  uint32_t start = AscendC::GetBlockIdx() * per;
  if (start >= t->rows) {
    return; // want "info: EXT011 .*unless every block the host launches gets a share: it sizes the launch to the work \\(../op_host/sized_tiling.cpp:19\\)"
  }
  AscendC::SyncAll();
  // The twin: a block id against a count the host does not launch.
  if (AscendC::GetBlockIdx() >= t->rows / 2) {
    return; // want "error: EXT011 .*under `if \\(AscendC::GetBlockIdx\\(\\) >= t->rows / 2\\)`"
  }
  AscendC::SyncAll();
}
