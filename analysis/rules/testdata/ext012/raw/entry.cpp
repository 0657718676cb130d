// A raw CCE extern (no AscendC): the fix uses the intrinsic spelling.
extern "C" __global__ __aicore__ void raw_entry(__gm__ int64_t *args) {
  __gm__ half *dst = reinterpret_cast<__gm__ half *>(args[1]);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  copy_ubuf_to_gm(dst, src_ub, 0, 1, 16, 0, 0); // want "leaves its store in flight"
}

extern "C" __global__ __aicore__ void raw_drained(__gm__ int64_t *args) {
  __gm__ half *dst = reinterpret_cast<__gm__ half *>(args[1]);
  copy_ubuf_to_gm(dst, src_ub, 0, 1, 16, 0, 0);
  set_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);
  wait_flag(PIPE_MTE3, PIPE_S, EVENT_ID0);
}
