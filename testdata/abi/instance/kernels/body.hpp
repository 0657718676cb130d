// The body both externs compile: the slots of key_cache and value_cache
// differ between the two ABIs, chosen by the template flag each entry binds.
#pragma once
#include <cstdint>

template <typename T>
__aicore__ inline __gm__ T *slot_ptr(__gm__ int64_t *args, int32_t i) {
  return reinterpret_cast<__gm__ T *>(args[i]);
}

template <bool Flip>
__aicore__ inline void side(__gm__ int64_t *args) {
  constexpr int32_t side_arg = Flip ? 1 : 0;
  __gm__ half *s = slot_ptr<half>(args, side_arg);
  (void)s;
}

template <bool WithRope>
__aicore__ inline void run_body(__gm__ int64_t *args) {
  constexpr int32_t key_arg = WithRope ? 2 : 1;
  constexpr int32_t value_arg = WithRope ? 3 : 2;
  __gm__ half *k = slot_ptr<half>(args, key_arg);
  __gm__ half *v = slot_ptr<half>(args, value_arg);
  side<FLIP_FROM_BUILD>(args);
  (void)k; (void)v;
}
