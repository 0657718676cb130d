// An Ascend 950 (A5) mixed extern: its A5-only branch names the chip. The
// cube and each of its two vector cores hand off on their own in mode 4,
// and the cube reaches the second vector core at ids 16-26. On A5 none of
// these is a bug.
#include "kernel_operator.h"

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#define SCORE_PIPE PIPE_FIX
#endif

constexpr uint8_t kIntraMode = 4;
constexpr uint16_t kScoresReady = 2;
constexpr uint16_t kSoftmaxDone = 3;
constexpr uint16_t kSecondVector = 16;

template <uint8_t Mode>
__aicore__ inline void hand_off(uint16_t id) {
  AscendC::CrossCoreSetFlag<Mode, PIPE_MTE1>(id);
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(kScoresReady);
    AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(kScoresReady + kSecondVector);
    AscendC::CrossCoreWaitFlag<kIntraMode, PIPE_MTE1>(kSoftmaxDone);
    AscendC::CrossCoreWaitFlag<kIntraMode, PIPE_MTE1>(kSoftmaxDone + kSecondVector);
    hand_off<kIntraMode>(20);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag<kIntraMode, PIPE_V>(kScoresReady);
    AscendC::CrossCoreSetFlag<kIntraMode, PIPE_MTE3>(kSoftmaxDone);
  }
  // Modes 0-2 still go through the FFTS config, whose id field is 4 bits,
  // on A5 too.
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(18); // want "EXT005 ffts-flag-reserved: `CrossCoreSetFlag` uses FFTS flag 18, but FFTS flag ids are 0–15"
  // Past 26 no mode-4 flag exists.
  AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(kSecondVector + 12); // want "uses intra-block flag 28 \\(`kSecondVector \\+ 12`\\), but Ascend 950's mode-4 flag ids are 0–10, and 16–26"
}
