// The older chip's kernel: its tiling (op_host/arch22) launches every
// core, so the cores past the rows leave before the others' barrier.
#include "kernel_operator.h"

struct Arch22Tiling {
  int64_t rows;
};

extern "C" __global__ __aicore__ void tiled_arch22(GM_ADDR x, GM_ADDR tiling) {
  __gm__ Arch22Tiling *t = (__gm__ Arch22Tiling *)tiling;
  if (AscendC::GetBlockIdx() >= t->rows) {
    return; // want "EXT011.*`return` under `if \\(AscendC::GetBlockIdx\\(\\) >= t->rows\\)`.*the host stores `rows` but launches another block count \\(../../op_host/arch22/tiled_tiling_arch22.cpp:6\\)"
  }
  AscendC::SyncAll();
}
