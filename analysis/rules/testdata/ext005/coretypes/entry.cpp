// A mixed kernel with the mixed hardware barrier and a cube/vector group
// handshake next to it. Each core has its own flag counters: SyncAll<false>
// has the cube wait on 11 and 12 and the vector cores on 13, and nothing
// waits on 14. A handshake whose counter is another core type's does not
// meet the barrier's; one on the same counter whose waits take every count
// its sets give before the next barrier (hand_tile's 11, hand_rows' 13:
// one set, one wait, in one function) leaves the barrier's counts alone.
// Neither collides with the barrier as written (a warning, not an error),
// but the ids 11-14 are the barrier's whatever the mode.
#include "kernel_operator.h"

constexpr uint16_t kTileReady = 12; // cube -> its vector cores
constexpr uint16_t kTileFree = 11;  // vector cores -> their cube
constexpr uint16_t kRowsDone = 13;

__aicore__ inline void hand_tile() {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kTileReady); // the vector cores' 12: the barrier's 12 is the cube's: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
    AscendC::CrossCoreWaitFlag(kTileFree); // the cube's 11, taken each time its vector cores set it: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(kTileReady); // a vector core's own 12: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kTileFree); // matched by the cube's wait above: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
    AscendC::CrossCoreWaitFlag(14); // nothing waits on 14 in SyncAll<false>: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
  }
}

__aicore__ inline void hand_rows() {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kRowsDone); // the vector cores' 13, matched by their wait: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(kRowsDone); // silent: no collision, still reserved: want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
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
