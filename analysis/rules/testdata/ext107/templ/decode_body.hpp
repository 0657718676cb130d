// One body, two ABIs: each slot constant is chosen by the flag the entry
// binds. key_cache_arg is right in both; value_cache_arg reads `cos` in the rope one.
#pragma once
#include <cstdint>

template <typename T>
__aicore__ inline __gm__ T *slot_at(__gm__ int64_t *args, int32_t i) {
  return reinterpret_cast<__gm__ T *>(args[i]);
}

template <bool WithRope>
__aicore__ inline void decode_body(__gm__ int64_t *args) {
  constexpr int32_t key_cache_arg = WithRope ? 2 : 1;
  constexpr int32_t value_cache_arg = WithRope ? 4 : 2; // want "EXT107 .*index constant `value_cache_arg` \\(4 where extern `decode_rope` instantiates it\\) is named after `value_cache`, but args\\[4\\] of extern `decode_rope` is `cos` and `value_cache` is args\\[3\\]"
  __gm__ half *k = slot_at<half>(args, key_cache_arg);
  __gm__ half *v = slot_at<half>(args, value_cache_arg);
  (void)k; (void)v;
}
