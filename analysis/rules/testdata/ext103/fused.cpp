// One kernel two stubs link: its reads belong to both, so a reorder of one
// stub cannot renumber them.
#include <cstdint>

extern "C" __global__ __aicore__ void fused(__gm__ int64_t *args) {
  __gm__ uint16_t *q = reinterpret_cast<__gm__ uint16_t *>(args[0]);
  __gm__ uint16_t *o = reinterpret_cast<__gm__ uint16_t *>(args[2]);
  (void)q; (void)o;
}
