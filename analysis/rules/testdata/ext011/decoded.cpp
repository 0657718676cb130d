// A kernel decodes its launch into one struct, the block id beside the
// tiling's counts: a test of a count is the same on every core, a test
// of the block id is not.
#include "kernel_operator.h"

struct Launch {
  uint32_t rows;
  uint32_t used;
  uint32_t blk;
};

__aicore__ inline Launch Decode(GM_ADDR tiling) {
  Launch l;
  l.rows = reinterpret_cast<__gm__ uint32_t *>(tiling)[0];
  l.used = reinterpret_cast<__gm__ uint32_t *>(tiling)[1];
  l.blk = AscendC::GetBlockIdx();
  return l;
}

extern "C" __global__ __aicore__ void decoded_sum(GM_ADDR x, GM_ADDR tiling) {
  Launch l = Decode(tiling);
  if (!(l.rows > 0)) {
    return;
  }
  if (l.blk >= l.used) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(l.blk >= l.used\\)` can leave before the hardware barrier"
  }
  AscendC::SyncAll();
}
