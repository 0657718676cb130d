// A mixed extern that uses the hardware barrier: flags 11-14 are taken.
#include "kernel_operator.h"
#include "flags.h"
#include "phase.h"

constexpr uint16_t kQkReady = 12;
constexpr uint16_t kSoftmaxReady = 3;
static const int kPvReady = 14;
constexpr bool kNoRope = false;
enum CvFlags { CV_A = 5, CV_B, CV_C = 13 };
enum Implicit { IMP_0 = 9, IMP_1, IMP_2, IMP_3 }; // 9, 10, 11, 12
#define FLAG_DONE 11 // the end-of-tile handshake
#define FLAG_OK 4
struct Ids {
  static constexpr uint16_t kMid = 13;
};
constexpr int kRawCfg = 0x1 | (2 << 4) | (11 << 8);
constexpr int kRawOk = 0x1 | (2 << 4) | (6 << 8);

// Helpers that take the id: their callers are checked.
__aicore__ inline void notify_scores(uint16_t id) {
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(id);
}
__aicore__ inline void raw_sync(uint64_t cfg) {
  ffts_cross_core_sync(PIPE_MTE3, cfg);
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::Mmad(c, a, b, params);
  vec_phase();
  AscendC::SyncAll<false>();
  if ASCEND_IS_AIV {
    AscendC::SyncAll(); // the vector-only form: the vector cores wait on 14
  }
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(12); // want "`CrossCoreSetFlag` uses FFTS flag 12, which the hardware `SyncAll` of this extern uses \\(flags 11–14\\)"
  AscendC::CrossCoreWaitFlag(12); // want "`CrossCoreWaitFlag` uses FFTS flag 12"
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kQkReady); // want "flag 12 \\(`kQkReady`\\)"
  CrossCoreWaitFlag<0x2, PIPE_S>(kQkReady); // want "flag 12"
  AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kPvReady); // want "flag 14 \\(`kPvReady`\\)"
  AscendC::CrossCoreSetFlag<2, PIPE_FIX>(CV_C); // want "flag 13 \\(`CV_C`\\)"
  AscendC::CrossCoreSetFlag<2, PIPE_FIX>(IMP_2); // want "flag 11 \\(`IMP_2`\\)"
  AscendC::NotifyEvent<PIPE_MTE3>(FLAG_DONE); // want "`NotifyEvent` uses FFTS flag 11"
  AscendC::WaitEvent(Ids::kMid); // want "`WaitEvent` uses FFTS flag 13"
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(HDR_FLAG); // want "flag 12 \\(`HDR_FLAG`\\)"
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady + 9); // want "flag 12 \\(`kSoftmaxReady \\+ 9`\\)"
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (2 << 4) | (13 << 8)); // want "`ffts_cross_core_sync` config sets FFTS flag 13"
  ffts_cross_core_sync(PIPE_MTE3, kRawCfg); // want "config sets FFTS flag 11"
  ffts_cross_core_sync(PIPE_MTE3, 0xC21); // want "config sets FFTS flag 12"
  ffts_cross_core_sync(PIPE_MTE3, AscendC::GetffstMsg(0x2, FLAG_DONE)); // want "config sets FFTS flag 11"
  wait_flag_dev(14); // want "`wait_flag_dev` uses FFTS flag 14"
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kUseRope ? 12 : 2); // want "can use FFTS flag 12"
  notify_scores(kQkReady); // want "`notify_scores` passes FFTS flag 12 \\(`kQkReady`\\) to `CrossCoreSetFlag`, which the hardware `SyncAll`"
  raw_sync(0x1 | (2 << 4) | (14 << 8)); // want "`raw_sync` passes FFTS flag 14 .* to `ffts_cross_core_sync`"

  // Ids 0-10 are free.
  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(kSoftmaxReady);
  AscendC::CrossCoreWaitFlag(CV_B);
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(IMP_1);
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_OK);
  ffts_cross_core_sync(PIPE_MTE3, kRawOk);
  wait_flag_dev(10);
  notify_scores(9);
  raw_sync(0x1 | (2 << 4) | (9 << 8));
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(flagFromArgs);
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(args[3]);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(12);

  // Not device code, or discarded.
#ifdef __CPU_SIM
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(12);
#endif
  if constexpr (kNoRope) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(13);
  }

  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(12); // NOLINT(ffts-flag-reserved)
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(12); // NOLINT(EXT005)
  // NOLINTNEXTLINE(EXT005)
  wait_flag_dev(12);
  wait_flag_dev(12); // NOLINT(EXT004) want "flag 12"
}
