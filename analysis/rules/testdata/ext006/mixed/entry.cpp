// A mixed extern keyed on the C220 macros, with a hand-ported pto barrier.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif

  // The hand-ported pto barrier, in every spelling.
#ifdef __DAV_VEC__ // want "EXT006 pto-core-macro: `__DAV_VEC__` is pto-isa's core macro, but this extern keys its core split on `__DAV_C220_VEC__`"
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (6 << 8));
#endif
#ifndef __DAV_CUBE__ // want "`__DAV_CUBE__` is pto-isa's core macro, but this extern keys its core split on `__DAV_C220_CUBE__`"
  wait_flag_dev(6);
#endif
#if defined(__DAV_CUBE__) // want "`__DAV_CUBE__`"
  wait_flag_dev(6);
#elif defined(__DAV_VEC__) && !defined(__CPU_SIM) // want "`__DAV_VEC__`"
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (6 << 8));
#else
  wait_flag_dev(7);
#endif
#if !defined(__DAV_VEC__) || defined(__DAV_CUBE__) // want "`__DAV_VEC__`" "`__DAV_CUBE__`"
  wait_flag_dev(8);
#endif
#if __DAV_VEC__ // NOLINT(pto-core-macro)
  wait_flag_dev(9);
#endif

  // Silent: both families for the same core in one condition.
#if defined(__DAV_VEC__) || defined(__DAV_C220_VEC__)
  wait_flag_dev(10);
#endif
  // Silent: nested inside a C220 guard for the same core.
#ifdef __DAV_C220_VEC__
#ifdef __DAV_VEC__
  wait_flag_dev(10);
#endif
#else
#ifdef __DAV_CUBE__
  wait_flag_dev(10);
#endif
#endif
  // Flagged: nested inside a C220 guard for the other core.
#ifdef __DAV_C220_CUBE__
#ifdef __DAV_VEC__ // want "`__DAV_VEC__`"
  wait_flag_dev(10);
#endif
#endif
  // Not core guards.
#ifdef __CPU_SIM
  wait_flag_dev(1);
#endif
}
