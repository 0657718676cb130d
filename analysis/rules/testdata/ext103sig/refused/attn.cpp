// Walks the tensor slots in a loop: which read is which parameter depends
// on i, so a reorder cannot be followed here.
#include <cstdint>

extern "C" __global__ __aicore__ void attn_loop(__gm__ int64_t *args) {
  int32_t n = static_cast<int32_t>(args[2]);
  for (int32_t i = 0; i < n; ++i) {
    __gm__ float *t = reinterpret_cast<__gm__ float *>(args[i]);
    (void)t;
  }
}
