// A reader that polls another rank's flag word through a one-line load
// helper, and loops that take the word into a local their test checks.
#include "kernel_operator.h"

template <typename T>
__aicore__ inline T ReadWord(__gm__ T *at) {
  return *((__gm__ T *)at);
}

template <typename T>
__aicore__ inline void Refresh(__gm__ T *at) {
  dcci((__gm__ uint8_t *)at, SINGLE_CACHE_LINE);
}

extern "C" __global__ __aicore__ void flag_reader(GM_ADDR peer, GM_ADDR out) {
  __gm__ uint32_t *words = (__gm__ uint32_t *)peer;
  uint32_t ready;
  do {
    ready = ReadWord<uint32_t>(words + 16); // want "warning: EXT001 .*`ReadWord<uint32_t>\\(words \\+ 16\\)`.*polling loop"
  } while (ready != 7u);
  ((__gm__ uint32_t *)out)[0] = ready;
}

extern "C" __global__ __aicore__ void flag_reader_fresh(GM_ADDR peer, GM_ADDR out) {
  __gm__ uint32_t *words = (__gm__ uint32_t *)peer;
  uint32_t ready;
  do {
    Refresh<uint32_t>(words + 16);
    ready = ReadWord<uint32_t>(words + 16);
  } while (ready != 7u);
  ((__gm__ uint32_t *)out)[0] = ready;
}

// A line helper over a GlobalTensor, handed the word's address cast to
// bytes: the same line the loop reads.
__aicore__ inline void FlushLine(__gm__ uint8_t *addr) {
  AscendC::GlobalTensor<uint8_t> line;
  line.SetGlobalBuffer(addr);
  AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(line);
}

extern "C" __global__ __aicore__ void flag_reader_line(GM_ADDR peer, GM_ADDR out) {
  __gm__ uint32_t *words = (__gm__ uint32_t *)peer;
  uint32_t ready;
  do {
    FlushLine((__gm__ uint8_t *)(words + 16));
    ready = *(words + 16);
  } while (ready != 7u);
  ((__gm__ uint32_t *)out)[0] = ready;
}

// The word is read straight into the tested local.
extern "C" __global__ __aicore__ void count_reader(GM_ADDR peer, uint32_t want) {
  __gm__ uint32_t *count = (__gm__ uint32_t *)peer;
  uint32_t seen = 0;
  while (seen < want) {
    seen = *count; // want "warning: EXT001 .*`\\*count`.*polling loop"
  }
}

// A walk: the local is the next index, the address changes each pass.
extern "C" __global__ __aicore__ void chain_walk(GM_ADDR next, uint32_t start) {
  __gm__ uint32_t *links = (__gm__ uint32_t *)next;
  uint32_t at = start;
  while (at != 0u) {
    at = links[at];
  }
}

// Sums until a budget is spent: an accumulation, not the word itself.
extern "C" __global__ __aicore__ void budget_walk(GM_ADDR lens, int32_t budget) {
  __gm__ int32_t *p = (__gm__ int32_t *)lens;
  int32_t left = budget;
  while (left > 0) {
    left -= *p;
    p += 16;
  }
}

// The loop moves the pointer: a new word each pass.
extern "C" __global__ __aicore__ void first_zero(GM_ADDR words) {
  __gm__ uint32_t *w = (__gm__ uint32_t *)words;
  uint32_t v = 1u;
  while (v != 0u) {
    v = *w;
    ++w;
  }
}
