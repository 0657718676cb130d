// An operator whose host tilings (op_host) launch windows * share blocks
// or the rows: no launched block's id reaches them. The older chip's
// tiling (op_host/arch22) launches every core, but only for the kernel
// under op_kernel/arch22.
#include "kernel_operator.h"

struct TiledTiling {
  int64_t windows;
  int64_t share;
  int64_t rows;
};

extern "C" __global__ __aicore__ void tiled(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  __gm__ TiledTiling *t = (__gm__ TiledTiling *)tiling;
  int64_t idx = AscendC::GetBlockIdx();
  int64_t share = t->share;
  if (idx >= t->windows * share) {
    return;
  }
  AscendC::SyncAll();
  if (idx >= t->rows) {
    return;
  }
  AscendC::SyncAll();
}
