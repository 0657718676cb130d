// A test kernel for a chip whose AI core has both units: the vector guard
// sets what the cube guard waits, which pairs up only because both guards
// compile into one core. Not judged.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void insert_tile(__gm__ float *out, __gm__ float *src) {
#if defined(__DAV_VEC__)
  copy_ubuf_to_cbuf(mat, ub, 0, 1, 8, 0, 0);
  set_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID2);
#endif
#if defined(__DAV_CUBE__)
  wait_flag(PIPE_MTE3, PIPE_MTE1, EVENT_ID2);
  load_cbuf_to_ca(a, mat, 0, 1, 0, 0, 0);
  set_flag(PIPE_MTE1, PIPE_V, EVENT_ID3);
#endif
#if defined(__DAV_VEC__)
  wait_flag(PIPE_MTE1, PIPE_V, EVENT_ID3);
  copy_ubuf_to_gm(out, ub, 0, 1, 8, 0, 0);
#endif
}
