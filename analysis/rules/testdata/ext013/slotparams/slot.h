// Per-block records a helper fills through its pointer parameter: the
// kernel hands in each block's record.
#pragma once
#include "kernel_operator.h"

struct alignas(32) HalfLine {
  float value;
  int32_t index;
  int32_t pad[6];
};

struct alignas(64) FullLine {
  float value;
  int32_t index;
  int32_t pad[14];
};

__aicore__ inline void PutHalf(__gm__ HalfLine *rec, float v, int32_t i) {
  rec->value = v; // want "EXT013 gm-false-sharing: `rec->value` stores to a GM slot 32 bytes from the next core's \\(`get_block_idx\\(args\\)` steps 1 × 32-byte `HalfLine`, through `PutHalf\\(halves \\+ blk, v, 1\\)`\\)"
  rec->index = i; // want "`rec->index` stores to a GM slot 32 bytes"
  dcci(rec, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

__aicore__ inline void PutFull(__gm__ FullLine *rec, float v, int32_t i) {
  rec->value = v;
  rec->index = i;
  dcci(rec, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// Called by block 0 alone: one writer, whatever the stride.
__aicore__ inline void PutSummary(__gm__ HalfLine *rec, float v) {
  rec->value = v;
  dcci(rec, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// The address a one-statement helper returns, handed straight to the
// storing helper: a 32-byte partial per core, and a full line per core.
__aicore__ inline __gm__ float *PartialOf(__gm__ float *base, int32_t core) { return base + core * 8; }
__aicore__ inline __gm__ float *LineOf(__gm__ float *base, int32_t core) { return base + core * 16; }

__aicore__ inline void PutPartial(__gm__ float *slot, float v) {
  *slot = v; // want "`\\*slot` stores to a GM slot 32 bytes from the next core's \\(`get_block_idx\\(args\\)` steps 8 × 4-byte `float`, through `PutPartial\\(PartialOf\\(partials, blk\\), v\\)`\\)"
  dcci(slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

__aicore__ inline void PutLine(__gm__ float *slot, float v) {
  *slot = v;
  dcci(slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
