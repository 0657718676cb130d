// Nothing names the chip: no `arch` setting and no #if that only one chip
// compiles. Mode 4 with ids 16-26 is right on Ascend 950 and wrong on
// A2/A3, so it is not judged; what is wrong on both chips still is.
#include "kernel_operator.h"

constexpr uint8_t kIntraMode = 4;

template <uint32_t SyncMode>
__aicore__ inline void notify_both_vectors() {
  if constexpr (SyncMode == 4U) {
    AscendC::CrossCoreSetFlag<SyncMode, PIPE_MTE1>(2);
    AscendC::CrossCoreSetFlag<SyncMode, PIPE_MTE1>(18);
  }
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(4);
    AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(20);
    notify_both_vectors<kIntraMode>();
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag<kIntraMode, PIPE_V>(4);
    AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(21); // want "EXT005 ffts-flag-reserved: `CrossCoreSetFlag` uses FFTS flag 21, but FFTS flag ids are 0–15"
  }
}
