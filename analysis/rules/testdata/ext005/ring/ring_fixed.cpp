// The fixed twin: two slots from 6, so ready is 6 or 7 and free 8 or 9,
// clear of the ids the hardware SyncAll uses.
#include "kernel_operator.h"

struct Ring2 {
  static constexpr uint32_t kStages = 2;
  static constexpr uint16_t kFlagBase = 6;
  __aicore__ static constexpr uint16_t Ready(uint32_t slot) { return kFlagBase + slot; }
  __aicore__ static constexpr uint16_t Free(uint32_t slot) { return kFlagBase + kStages + slot; }
};

extern "C" __global__ __aicore__ void ring_gemm_fixed(GM_ADDR x, GM_ADDR y, uint32_t tiles) {
  for (uint32_t it = 0; it < tiles; ++it) {
    const uint32_t slot = it % Ring2::kStages;
    if ASCEND_IS_AIC {
      if (it >= Ring2::kStages) {
        AscendC::CrossCoreWaitFlag(Ring2::Free(slot));
      }
      AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(Ring2::Ready(slot));
    }
    if ASCEND_IS_AIV {
      AscendC::CrossCoreWaitFlag(Ring2::Ready(slot));
      AscendC::CrossCoreSetFlag<0x2, PIPE_MTE2>(Ring2::Free(slot));
    }
  }
  AscendC::SyncAll<false>();
}
