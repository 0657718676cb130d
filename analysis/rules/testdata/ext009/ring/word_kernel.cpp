// 64-bit words stored through a helper's `__gm__ int64_t *` parameter: data,
// not the runtime's args pointer, so the helper's own write-back is seen.
#include "kernel_operator.h"

__aicore__ inline void PutWord(__gm__ int64_t *word, int64_t v) {
  *word = v;
  dcci(word, SINGLE_CACHE_LINE);
  dsb(DSB_DDR);
}

__aicore__ inline void PutWordNoWait(__gm__ int64_t *word, int64_t v) {
  *word = v;
  dcci(word, SINGLE_CACHE_LINE); // want "info: EXT009 .*`\\*word = v`.*is written out by `dcci\\(word, SINGLE_CACHE_LINE\\)` but no `dsb\\(DSB_DDR\\)`"
}

__aicore__ inline void PutWordLost(__gm__ int64_t *word, int64_t v) {
  *word = v; // want "warning: EXT009 .*`\\*word = v`.*stays in this core's data cache"
}

extern "C" __global__ __aicore__ void word_kernel(GM_ADDR words) {
  __gm__ int64_t *w = (__gm__ int64_t *)words;
  PutWord(w, 1);
  PutWordNoWait(w + 8, 2);
  PutWordLost(w + 16, 3);
}
