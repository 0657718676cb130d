// A kernel-exit drain shared by cube and vector entries: one branch per
// core, and a hard error for any other compile.
#pragma once

static __aicore__ inline void exit_drain() {
#if defined(__DAV_VEC__)
  set_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
  wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
#elif defined(__DAV_CUBE__)
  set_flag(PIPE_FIX, PIPE_S, EVENT_ID7);
  wait_flag(PIPE_FIX, PIPE_S, EVENT_ID7);
#else
#error "exit_drain needs a device compile"
#endif
}

// Drains the vector core only: a cube compile returns with FIX in flight.
static __aicore__ inline void vec_only_drain() {
#if defined(__DAV_VEC__)
  wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID7);
#endif
}
