// A pto barrier ported by hand into a header of a C220 extern.
#pragma once

__aicore__ inline void ported_barrier() {
#ifdef __DAV_CUBE__ // want "`__DAV_CUBE__` is pto-isa's core macro, but this extern keys its core split on `__DAV_C220_CUBE__`"
  ffts_cross_core_sync(PIPE_FIX, 0x1 | (0 << 4) | (7 << 8));
  wait_flag_dev(7);
#endif
#ifdef __DAV_VEC__ // want "`__DAV_VEC__`"
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (8 << 8));
  wait_flag_dev(8);
#endif
}
