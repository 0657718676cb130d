// Standalone kernels with the compiler's default flags. A polling loop
// that invalidates its word leaves that word's coherence to its author:
// its first read comes before the first dcci, and the loop ends on a read
// that leaves the line cached, so a second run of the loop starts on it.
#include "kernel_operator.h"

__aicore__ inline int32_t AwaitValue(__gm__ int32_t *word, int32_t v) {
  int32_t seen;
  while ((seen = *word) != v) { // want "warning: EXT001 .*`\\*word`.*first read of a polling loop whose `dcci` comes after it"
    dcci((__gm__ uint8_t *)word, SINGLE_CACHE_LINE);
  }
  return seen;
}

// Two rounds: the first wait's last read cached the word.
extern "C" __global__ __aicore__ void two_rounds(GM_ADDR flag) {
  __gm__ int32_t *word = (__gm__ int32_t *)flag;
  AwaitValue(word, 1);
  AwaitValue(word, 2);
}

__aicore__ inline int32_t AwaitStep(__gm__ int32_t *step, int32_t v) {
  int32_t seen;
  while ((seen = *step) < v) { // want "warning: EXT001 .*`\\*step`.*first read of a polling loop whose `dcci` comes after it"
    dcci((__gm__ uint8_t *)step, SINGLE_CACHE_LINE);
  }
  return seen;
}

// One call, in a loop: each turn starts on the line the last one cached.
extern "C" __global__ __aicore__ void step_rounds(GM_ADDR flag, int32_t rounds) {
  for (int32_t r = 1; r <= rounds; ++r) {
    AwaitStep((__gm__ int32_t *)flag, r);
  }
}

// The dcci before every read: fresh each time.
__aicore__ inline int32_t AwaitFresh(__gm__ int32_t *word, int32_t v) {
  int32_t seen;
  do {
    dcci((__gm__ uint8_t *)word, SINGLE_CACHE_LINE);
    seen = *word;
  } while (seen != v);
  return seen;
}

extern "C" __global__ __aicore__ void two_rounds_fresh(GM_ADDR flag) {
  __gm__ int32_t *word = (__gm__ int32_t *)flag;
  AwaitFresh(word, 1);
  AwaitFresh(word, 2);
}

// Once per launch, nothing read the word before: the first read misses.
__aicore__ inline int32_t AwaitOnce(__gm__ int32_t *word, int32_t v) {
  int32_t seen;
  while ((seen = *word) != v) {
    dcci((__gm__ uint8_t *)word, SINGLE_CACHE_LINE);
  }
  return seen;
}

extern "C" __global__ __aicore__ void one_round(GM_ADDR flag) {
  AwaitOnce((__gm__ int32_t *)flag, 1);
}

// No dcci in the loop: the build's own scalar dcci insertion is trusted.
__aicore__ inline void AwaitPlain(__gm__ int32_t *word, int32_t v) {
  while (*word != v) {
  }
}

extern "C" __global__ __aicore__ void plain_rounds(GM_ADDR flag) {
  __gm__ int32_t *word = (__gm__ int32_t *)flag;
  AwaitPlain(word, 1);
  AwaitPlain(word, 2);
}
