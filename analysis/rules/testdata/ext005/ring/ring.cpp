// A mixed kernel's tile ring picks a flag id per slot: ready ids count up
// from 8, free ids from 8 + kStages. With three slots the free ids are
// 11, 12 and 13, which the hardware SyncAll between the two phases uses.
#include "kernel_operator.h"

struct Ring {
  static constexpr uint32_t kStages = 3;
  static constexpr uint16_t kFlagBase = 8;
  static constexpr uint16_t kFreeBase = kFlagBase + kStages;
  __aicore__ static constexpr uint16_t Ready(uint32_t slot) { return kFlagBase + slot; }
  __aicore__ static constexpr uint16_t Free(uint32_t slot) { return static_cast<uint16_t>(kFreeBase + slot); }
};

extern "C" __global__ __aicore__ void ring_gemm(GM_ADDR x, GM_ADDR y, uint32_t tiles) {
  for (uint32_t it = 0; it < tiles; ++it) {
    const uint32_t slot = it % Ring::kStages;
    if ASCEND_IS_AIC {
      if (it >= Ring::kStages) {
        AscendC::CrossCoreWaitFlag(Ring::Free(slot)); // want "EXT005 ffts-flag-reserved: `CrossCoreWaitFlag` can use FFTS flag 11 or 12 or 13 \\(`Ring::Free\\(slot\\)`\\)"
      }
      AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(Ring::Ready(slot));
    }
    if ASCEND_IS_AIV {
      AscendC::CrossCoreWaitFlag(Ring::Ready(slot));
      AscendC::CrossCoreSetFlag<0x2, PIPE_MTE2>(Ring::Free(slot)); // want "FFTS flag 11 or 12 or 13"
    }
  }
  AscendC::SyncAll<false>();
}
