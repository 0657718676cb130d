// An extern that keys on pto's family throughout: consistent, silent.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#ifdef __DAV_CUBE__
  AscendC::Mmad(c, a, b, params);
#endif
#if defined(__DAV_VEC__)
  AscendC::PipeBarrier<PIPE_V>();
#endif
}
