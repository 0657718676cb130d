// A kernel that gates on the chip with the C220 macros and splits its cores
// on pto-isa's: the gate is true on both cores, so it is no core split.
#include "kernel_operator.h"

#if defined(__DAV_C220_CUBE__) || defined(__DAV_C220_VEC__)
constexpr int kFlagBase = 4;
#endif

extern "C" __global__ __aicore__ void gated(__gm__ int64_t *args) {
#ifdef __DAV_CUBE__
  AscendC::Mmad(c, a, b, params);
#endif
#ifdef __DAV_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif
#if defined(__DAV_C220_CUBE__) || defined(__DAV_C220_VEC__)
  wait_flag_dev(kFlagBase);
#endif
}
