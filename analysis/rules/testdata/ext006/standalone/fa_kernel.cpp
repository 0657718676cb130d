// A standalone pto-style kernel: its core split is on pto's own family,
// and the C220 macros gate an A2/A3-only handshake, both halves alike.
// The extern flow's one-family convention is not this kernel's.
#include "kernel_operator.h"

#ifdef __DAV_CUBE__
constexpr bool kCube = true;
#else
constexpr bool kCube = false;
#endif

extern "C" __global__ __aicore__ void fa_kernel(__gm__ float *q, __gm__ float *out) {
  if constexpr (kCube) {
#ifdef __DAV_C220_CUBE__
    wait_flag_dev(5);
#endif
  } else {
#ifdef __DAV_C220_VEC__
    ffts_cross_core_sync(PIPE_MTE2, 0x521);
#endif
  }
}
