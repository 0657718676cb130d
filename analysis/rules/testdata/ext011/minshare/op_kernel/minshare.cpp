// A block's share of the rows, rounded up over the launched count, from a
// host that launches min(cores, rows) blocks (op_host/minshare_tiling.cpp):
// for 5 rows on 4 cores the shares are 2 rows and block 3 starts at row 6,
// returns, and the other blocks wait in the barrier for it. The twin,
// ../sized, launches the shares rounded up instead: every block gets rows.
#include "kernel_operator.h"

struct MinShareTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
};

extern "C" __global__ __aicore__ void minshare(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ MinShareTiling *t = (__gm__ MinShareTiling *)tiling;
  uint32_t per = (t->rows + t->usedCoreNum - 1) / t->usedCoreNum;
  uint32_t start = AscendC::GetBlockIdx() * per;
  if (start >= t->rows) {
    return; // want "error: EXT011 .*under `if \\(start >= t->rows\\)`.*; the host launches the smaller of two counts \\(../op_host/minshare_tiling.cpp:12\\) and each block starts at its id times the work over that count rounded up: the last blocks can start past the work"
  }
  AscendC::SyncAll();
}
