// Per-block records reached through helpers: the block index is a
// parameter, handed in by the kernel class.
#pragma once
#include "kernel_operator.h"

constexpr uint32_t kRecFloats = 8;  // 32 bytes: two blocks per line
constexpr uint32_t kWideFloats = 16; // 64 bytes: a line per block

__aicore__ inline __gm__ float *RecOf(__gm__ float *base, int64_t block) {
  return base + block * kRecFloats;
}

__aicore__ inline __gm__ float *WideOf(__gm__ float *base, int64_t block) {
  return base + block * kWideFloats;
}

__aicore__ inline void PutRecord(__gm__ float *base, int64_t block, float v) {
  __gm__ float *rec = RecOf(base, block);
  rec[0] = v; // want "EXT013 gm-false-sharing: `rec\\[0\\]` stores to a GM slot 32 bytes from the next core's \\(`block_` steps 8 × 4-byte `float`, through `RecOf\\(base, block\\)`\\)"
  dcci(rec, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

__aicore__ inline void PutWide(__gm__ float *base, int64_t block, float v) {
  __gm__ float *rec = WideOf(base, block);
  rec[0] = v;
  dcci(rec, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// Ready words after a table of kTable floats: the constant base moves
// every block's word alike, the stride is the granule's.
constexpr uint32_t kTable = 1024;
constexpr uint32_t kWordFloats = 32 / sizeof(float);

__aicore__ inline __gm__ float *WordOf(__gm__ float *base, int64_t block) {
  return base + kTable + block * kWordFloats;
}

__aicore__ inline void PutWord(__gm__ float *base, int64_t block, float v) {
  __gm__ float *w = WordOf(base, block);
  *reinterpret_cast<volatile __gm__ float *>(w) = v; // want "EXT013 gm-false-sharing: .* stores to a GM slot 32 bytes from the next core's \\(`block_` steps 8 × 4-byte `float`, through `WordOf\\(base, block\\)`\\)"
  dcci(w, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// Read back by any block: the index is not a core id.
__aicore__ inline float GetRecord(__gm__ float *base, int64_t i) {
  __gm__ float *rec = RecOf(base, i);
  dcci(rec, SINGLE_CACHE_LINE);
  return rec[0];
}
