// A hand-written all-core barrier (the cubes' mode-0 flag 11, each cube
// waiting for every other) next to a vector -> cube handshake on the same
// id. The barrier's count reaches a cube only once every cube has set 11
// in the barrier, and between two barriers the cube's own waits take each
// count its vector cores' sets give it (the same loop on both sides): the
// counter holds nothing when a barrier waits, so neither takes the other's
// count.
#include "kernel_operator.h"

constexpr uint64_t kItemReady = 11; // vector cores -> their cube, per item

__aicore__ inline void AllCubes() {
#if defined(__DAV_C220_CUBE__)
  ffts_cross_core_sync(PIPE_FIX, 1 | (0 << 4) | (11 << 8));
  wait_flag_dev(11);
#endif
}

__aicore__ inline void Stage(int64_t items, int64_t cid, int64_t blocks) {
#if defined(__DAV_C220_VEC__)
  for (int64_t i = 0; i < items; ++i) {
    pipe_barrier(PIPE_V); // the item's vector work
    if (i % blocks == cid) {
      ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (kItemReady << 8));
    }
  }
#endif
#if defined(__DAV_C220_CUBE__)
  for (int64_t i = 0; i < items; ++i) {
    if (i % blocks == cid) {
      wait_flag_dev(kItemReady);
    }
  }
#endif
}

extern "C" __global__ __aicore__ void balance_entry(GM_ADDR x, int64_t items) {
  int64_t cid = get_block_idx();
  int64_t blocks = get_block_num();
  Stage(items, cid, blocks);
  AllCubes();
  Stage(items, cid, blocks);
  AllCubes();
}
