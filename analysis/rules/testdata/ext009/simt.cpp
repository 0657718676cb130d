// SIMT vector threads of an A5 kernel store through the vector unit's
// SIMT path, not the scalar data cache; the scalar unit's store after them
// still needs its write-back.
#include "gm_util.h"

__simt_vf__ __aicore__ LAUNCH_BOUND(256) inline void scatter_rows(__gm__ float *out, __gm__ int32_t *done, uint32_t n) {
  for (uint32_t i = threadIdx.x; i < n; i += blockDim.x) {
    out[i] = 1.0f;
  }
}

extern "C" __global__ __aicore__ void simt_rows(__gm__ int64_t *args) {
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);
  __gm__ int32_t *done = reinterpret_cast<__gm__ int32_t *>(args[1]);
  scatter_rows(out, done, 1024);
  done[0] = 1; // want "EXT009 .*`done\\[0\\] = 1`"
}
