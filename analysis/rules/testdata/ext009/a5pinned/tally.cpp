// The header words are written by the scalar unit. The write-back was
// kept for dav-c220 only: this build compiles for A5, where the branch is
// left out and the kernel's end drops the dirty line.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void tally(__gm__ int32_t *head, int32_t n) {
  head[0] = n; // want "warning: EXT009 gm-scalar-write: scalar store `head\\[0\\] = n` through `__gm__` pointer `head` is lost when the kernel ends: .*; `dcci\\(head, SINGLE_CACHE_LINE, CACHELINE_OUT\\)` \\(line 9\\) is in a branch this unit's build compiles out: it targets A5 \\(Ascend 950, dav-c310\\), by the build's SOC_VERSION Ascend950PR_9599 \\(CMakeLists.txt:3\\)"
#if !defined(__DAV_C310__)
  dcci(head, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
#endif
}

// Written out on every chip: silent.
extern "C" __global__ __aicore__ void tally_fixed(__gm__ int32_t *head, int32_t n) {
  head[0] = n;
  dcci(head, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
