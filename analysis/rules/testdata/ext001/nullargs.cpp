// Constant arguments flow into the callee: a call passing nullptr skips
// what the callee guards with that pointer, for that call.
#include "meta_util.h"

// With a barrier slot, polls it and then meets every core.
__aicore__ inline void maybe_sync(__gm__ int32_t *barrier) {
  if (barrier != nullptr) {
    while (barrier[0] == 0) { // want "warning: EXT001 .*barrier\\[0\\].*polling loop"
    }
    AscendC::SyncAll<false>();
  }
}

// Every call passes nullptr (or leaves the null default): never polls.
__aicore__ inline void never_synced(__gm__ int32_t *barrier = nullptr) {
  if (barrier) {
    while (barrier[1] == 0) {
    }
  }
}

extern "C" __global__ __aicore__ void solo(__gm__ int64_t *args) {
  __gm__ int32_t *counts = input_data<int32_t>(args, 0);
  counts[0] = 1;
  dcci(counts, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  maybe_sync(nullptr);
  never_synced(nullptr);
  never_synced();
  // No barrier runs for these calls: only this core wrote counts.
  int32_t c = counts[1];
}

extern "C" __global__ __aicore__ void team(__gm__ int64_t *args) {
  __gm__ int32_t *counts = input_data<int32_t>(args, 0);
  __gm__ int32_t *barrier = input_data<int32_t>(args, 1);
  counts[0] = 1;
  dcci(counts, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  // Caches counts' line again before the barrier.
  int32_t mine = counts[0];
  maybe_sync(barrier);
  int32_t c = counts[1]; // want "warning: EXT001 .*counts\\[1\\].*read after `AscendC::SyncAll<false>\\(\\)` \\(in `maybe_sync\\(barrier\\)`"
}
