// Defines that bridge the families are not the bug, whatever they test.
#include "kernel_operator.h"

#if defined(__DAV_VEC__) && !defined(__DAV_C220_VEC__)
#define __DAV_C220_VEC__ 1
#endif
#ifdef __DAV_CUBE__
// the cube side
#define IS_CUBE 1
#else
#define IS_CUBE 0
#endif

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif
#ifdef __DAV_CUBE__ // want "`__DAV_CUBE__`"
  AscendC::Mmad(c, a, b, params);
#endif
}
