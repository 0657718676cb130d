// A mixed kernel whose vector cores hand their cube work on flag 11, the
// id on which SyncAll<false> has the cube wait for every other cube. Safe
// when, between two barriers, the cube's own waits take every count its
// vector cores' sets give it: no count is left for the barrier's wait.
// No collision, so a warning, not an error: the id is the barrier's all
// the same.
#include "kernel_operator.h"

constexpr int kReady = 11; // vector cores -> their cube

__aicore__ inline int SyncConf(int mode, int flag) { return 1 | (mode << 4) | (flag << 8); }

// One set, one wait, nothing around them but the core-type guards.
__aicore__ inline void hand_once() {
  const int mode = 2;
  if ASCEND_IS_AIV {
    ffts_cross_core_sync(PIPE_MTE3, SyncConf(mode, kReady)); // want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
  }
  if ASCEND_IS_AIC {
    wait_flag_dev(kReady); // want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
  }
}

// The same loop on both sides: one wait per set, every pass.
__aicore__ inline void hand_tiles(int32_t tiles) {
  if ASCEND_IS_AIV {
    for (int32_t t = 0; t < tiles; ++t) {
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kReady); // want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
    }
  }
  if ASCEND_IS_AIC {
    for (int32_t t = 0; t < tiles; ++t) {
      AscendC::CrossCoreWaitFlag(kReady); // want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
    }
  }
}

// The cube waits one tile less than its vector cores set: the last count
// is still there when the cube's SyncAll<false> waits on 11.
__aicore__ inline void hand_short(int32_t tiles) {
  if ASCEND_IS_AIV {
    for (int32_t t = 0; t < tiles; ++t) {
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kReady); // want "EXT005.*flag 11 \\(`kReady`\\), which the hardware `SyncAll`"
    }
  }
  if ASCEND_IS_AIC {
    for (int32_t t = 1; t < tiles; ++t) {
      AscendC::CrossCoreWaitFlag(kReady); // want "EXT005.*flag 11 \\(`kReady`\\)"
    }
  }
}

// Only the first vector core of each cluster sets: the cube's wait
// counts the two lanes' sets as one and may never see it.
__aicore__ inline void hand_lane() {
  if ASCEND_IS_AIV {
    if (AscendC::GetSubBlockIdx() == 0) {
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kReady); // want "EXT005.*flag 11 \\(`kReady`\\)"
    }
  }
  if ASCEND_IS_AIC {
    AscendC::CrossCoreWaitFlag(kReady); // want "EXT005.*flag 11 \\(`kReady`\\)"
  }
}

// The cube takes its count only after a barrier: the vector cores' set
// is pending when the cube waits in it.
__aicore__ inline void hand_across() {
  if ASCEND_IS_AIV {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kReady); // want "EXT005.*flag 11 \\(`kReady`\\)"
  }
  AscendC::SyncAll<false>();
  if ASCEND_IS_AIC {
    AscendC::CrossCoreWaitFlag(kReady); // want "EXT005.*flag 11 \\(`kReady`\\)"
  }
}

// A set no wait of the cube takes.
__aicore__ inline void hand_unwaited() {
  if ASCEND_IS_AIV {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kReady); // want "EXT005.*flag 11 \\(`kReady`\\)"
  }
}

extern "C" __global__ __aicore__ void balance_entry(GM_ADDR x, int32_t tiles) {
  hand_once();
  AscendC::SyncAll<false>();
  hand_tiles(tiles);
  AscendC::SyncAll<false>();
  hand_short(tiles);
  AscendC::SyncAll<false>();
  hand_lane();
  hand_across();
  hand_unwaited();
  AscendC::SyncAll<false>();
}
