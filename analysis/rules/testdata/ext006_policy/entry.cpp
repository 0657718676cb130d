// Checked under each core-macro-family policy by the test (no wants here:
// the test counts findings per policy).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#ifdef __DAV_CUBE__
  AscendC::Mmad(c, a, b, params);
#endif
#ifdef __DAV_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif
}
