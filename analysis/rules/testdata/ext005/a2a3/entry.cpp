// The same hand-off written for A2/A3: the core split on the dav-c220
// macros says the chip. Mode 4 does not exist there: the FFTS config
// keeps two mode bits and sends it as mode 0, a barrier of every core of
// the type.
#include "kernel_operator.h"

constexpr uint8_t kIntraMode = 4;
constexpr uint16_t kScoresReady = 2;
constexpr uint16_t kSecondVector = 16;

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(kScoresReady); // want "`CrossCoreSetFlag` uses cross-core mode 4, which only Ascend 950 \\(A5\\) has, but this extern targets A2/A3 \\(`#ifdef __DAV_C220_CUBE__` at entry.cpp:12\\)"
  AscendC::CrossCoreSetFlag<kIntraMode, PIPE_FIX>(kScoresReady + kSecondVector); // want "uses cross-core mode 4"
#endif
#ifdef __DAV_C220_VEC__
  // A2/A3's wait ignores the mode: a plain wait on flag 2.
  AscendC::CrossCoreWaitFlag<kIntraMode, PIPE_V>(kScoresReady);
  AscendC::CrossCoreWaitFlag<kIntraMode, PIPE_V>(kScoresReady + kSecondVector); // want "`CrossCoreWaitFlag` uses FFTS flag 18 \\(`kScoresReady \\+ kSecondVector`\\), but FFTS flag ids are 0–15"
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(5);
  AscendC::CrossCoreWaitFlag(5);
#endif
}
