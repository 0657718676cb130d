// A kernel keyed on the C220 macros whose conditionals also name Ascend 950:
// another chip builds it, so renaming a pto guard is not safe there.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void split(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif
#if defined(__DAV_C310__)
  wait_flag_dev(3);
#endif
#ifdef __DAV_CUBE__ // want "`__DAV_CUBE__` is pto-isa's core macro, but this extern keys its core split on `__DAV_C220_CUBE__`.*\\(the rename is unsafe here: its conditionals name both A2/A3 and A5\\)"
  wait_flag_dev(6);
#endif
}
