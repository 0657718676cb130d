// The same barrier and handshake, but the cube skips its first wait (it
// waits one item less than its vector cores set): one vector count is
// still on the cube's counter 11 when the barrier waits on it, so the
// barrier releases before every cube arrived.
#include "kernel_operator.h"

constexpr uint64_t kItemReady = 11; // vector cores -> their cube, per item

__aicore__ inline void AllCubes() {
#if defined(__DAV_C220_CUBE__)
  ffts_cross_core_sync(PIPE_FIX, 1 | (0 << 4) | (11 << 8));
  wait_flag_dev(11);
#endif
}

__aicore__ inline void Stage(int64_t items) {
#if defined(__DAV_C220_VEC__)
  for (int64_t i = 0; i < items; ++i) {
    pipe_barrier(PIPE_V); // the item's vector work
    ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (kItemReady << 8)); // want "EXT014.*flag 11 for a mode-2 vector→cube handshake, but the mode-0 barrier of all cube cores"
  }
#endif
#if defined(__DAV_C220_CUBE__)
  for (int64_t i = 1; i < items; ++i) {
    wait_flag_dev(kItemReady);
  }
#endif
}

extern "C" __global__ __aicore__ void balance_short_entry(GM_ADDR x, int64_t items) {
  Stage(items);
  AllCubes();
}
