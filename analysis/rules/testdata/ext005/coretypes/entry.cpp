// A mixed kernel with the mixed hardware barrier and a cube/vector group
// handshake next to it. Each core has its own flag counters: SyncAll<false>
// has the cube wait on 11 and 12 and the vector cores on 13, and nothing
// waits on 14. A handshake whose counter is another core type's does not
// meet the barrier's.
#include "kernel_operator.h"

constexpr uint16_t kTileReady = 12; // cube -> its vector cores
constexpr uint16_t kTileFree = 11;  // vector cores -> their cube
constexpr uint16_t kRowsDone = 13;

__aicore__ inline void hand_tile() {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kTileReady); // the vector cores' 12: the barrier's 12 is the cube's
    AscendC::CrossCoreWaitFlag(kTileFree); // want "`CrossCoreWaitFlag` uses FFTS flag 11 \\(`kTileFree`\\), which the hardware `SyncAll`"
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(kTileReady); // a vector core's own 12: silent
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kTileFree); // want "flag 11 \\(`kTileFree`\\)"
    AscendC::CrossCoreWaitFlag(14); // nothing waits on 14 in SyncAll<false>
  }
}

__aicore__ inline void hand_rows() {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kRowsDone); // want "flag 13 \\(`kRowsDone`\\)"
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(kRowsDone); // want "flag 13 \\(`kRowsDone`\\)"
  }
  // No core-type guard: both cores run it, the cube's counter included.
  AscendC::CrossCoreWaitFlag(kTileReady); // want "flag 12 \\(`kTileReady`\\)"
}

extern "C" __global__ __aicore__ void mixed_entry(GM_ADDR x, GM_ADDR y) {
  hand_tile();
  AscendC::SyncAll<false>();
  hand_tile();
  hand_rows();
}
