// A mixed extern without the hardware barrier: 11-14 are the user's, but
// ids above 15 never fit.
#include "kernel_operator.h"

constexpr uint16_t kTooBig = 17;
constexpr bool kUseBarrier = false;
#define RAW_FLAG 16

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::Mmad(c, a, b, params);
  AscendC::SyncAll(gmWorkspace, ubWorkspace, 8);
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(12);
  AscendC::CrossCoreWaitFlag(12);
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (2 << 4) | (13 << 8));
  wait_flag_dev(14);
#ifdef __CPU_SIM
  AscendC::SyncAll();
#endif
  if constexpr (kUseBarrier) {
    AscendC::SyncAll<false>();
  }
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(16); // want "EXT005 ffts-flag-reserved: `CrossCoreSetFlag` uses FFTS flag 16, but FFTS flag ids are 0–15"
  AscendC::CrossCoreWaitFlag(kTooBig); // want "flag 17 \\(`kTooBig`\\), but FFTS flag ids are 0–15"
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (2 << 4) | (RAW_FLAG << 8)); // want "config sets FFTS flag 16 \\(`RAW_FLAG`\\)"
}
