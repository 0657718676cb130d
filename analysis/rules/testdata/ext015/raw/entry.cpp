// Generated-style vector kernel with raw set_flag / wait_flag.
#define EV_STAGE EVENT_ID2

static __aicore__ void body(__gm__ float *out, int n) {
  set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  for (int i = 0; i < n; ++i) {
    wait_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
    copy_gm_to_ubuf(ub, out + i, 0, 1, 8, 0, 0);
    set_flag(PIPE_MTE2, PIPE_V, EV_STAGE);
    wait_flag(PIPE_MTE2, PIPE_V, EV_STAGE);
    vmuls(ub, ub, 2.0f, 1, 1, 1, 8, 8);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm(out + i, ub, 0, 1, 8, 0, 0);
    set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);
  }
  if (n > 4) {
    set_flag(PIPE_MTE3, PIPE_S, EVENT_ID1);
  }
  pipe_barrier(PIPE_ALL);
}

extern "C" __global__ __aicore__ void raw_entry(__gm__ int64_t *args) {
  __gm__ float *out = reinterpret_cast<__gm__ float *>(args[0]);
  int n = static_cast<int>(args[1]);
  body(out, n); // want "`body\\(out, n\\)` reaches `set_flag\\(PIPE_MTE3, PIPE_MTE2, EVENT_ID0\\)`"
  if (n < 0) {
    return;
  }
  set_flag(PIPE_S, PIPE_MTE3, EVENT_ID3);
  wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID3);
}
