// A project helper whose header did not resolve sits between the barrier
// and the read: it may invalidate the line, so the finding says less.
#include "meta_util.h"
#include "team_cache.h" // not in the tree: refresh_window is unseen

extern "C" __global__ __aicore__ void refreshed_by_helper(__gm__ int64_t *args) {
  __gm__ int32_t *counts = input_data<int32_t>(args, 0);
  uint32_t blk = get_block_idx(args);
  int32_t mine = counts[blk]; // want "info: EXT001"
  counts[blk] = mine + 1; // this core's store caches the line
  AscendC::SyncAll<false>();
  refresh_window(counts);
  int32_t left = counts[blk ^ 1]; // want "info: EXT001 .*read after `AscendC::SyncAll<false>\\(\\)`.*; unless `refresh_window\\(counts\\)` invalidates it: its definition is not in the files the analysis found"
  (void)left;
}

extern "C" __global__ __aicore__ void not_refreshed(__gm__ int64_t *args) {
  __gm__ int32_t *counts = input_data<int32_t>(args, 0);
  uint32_t blk = get_block_idx(args);
  int32_t mine = counts[blk]; // want "info: EXT001"
  counts[blk] = mine + 1;
  AscendC::SyncAll<false>();
  int32_t left = counts[blk ^ 1]; // want "warning: EXT001 .*read after `AscendC::SyncAll<false>\\(\\)`"
  (void)left;
}

// A `dcci_` name is the project's line-flush helper, not the intrinsic: in
// the header that did not resolve, it may invalidate the polled line.
extern "C" __global__ __aicore__ void poll_flushed(__gm__ int64_t *args) {
  __gm__ int32_t *flag = input_data<int32_t>(args, 1);
  while (flag[0] == 0) { // want "info: EXT001 .*read in a polling loop.*; unless `dcci_lines\\(flag, 4\\)` invalidates it"
    dcci_lines(flag, 4);
  }
}

// The same, through a helper of this file with a back-off: what it calls
// is as unseen as a direct call.
__aicore__ inline void poll_backoff(__gm__ int32_t *flag, uint32_t spins) {
  if ((spins & 7u) == 0u) {
    dcci_lines(flag, 4);
  }
}

extern "C" __global__ __aicore__ void poll_via_helper(__gm__ int64_t *args) {
  __gm__ int32_t *flag = input_data<int32_t>(args, 1);
  uint32_t spins = 0;
  while (flag[0] == 0 && spins < 4096u) { // want "info: EXT001 .*read in a polling loop.*; unless `dcci_lines\\(flag, 4\\)` invalidates it"
    poll_backoff(flag, spins);
    ++spins;
  }
}

extern "C" __global__ __aicore__ void poll_unflushed(__gm__ int64_t *args) {
  __gm__ int32_t *flag = input_data<int32_t>(args, 1);
  while (flag[0] == 0) { // want "warning: EXT001 .*read in a polling loop"
    dsb(DSB_DDR);
  }
}

// A read in the arguments of a macro-like name no file defines (its
// header did not resolve): a debug print switched off never evaluates it.
extern "C" __global__ __aicore__ void traced_count(__gm__ int64_t *args) {
  __gm__ int32_t *counts = input_data<int32_t>(args, 0);
  uint32_t blk = get_block_idx(args);
  counts[blk] = 1;
  AscendC::SyncAll<false>();
  TEAM_TRACE("left %d\n", counts[blk ^ 1]); // want "info: EXT001 .*read after `AscendC::SyncAll<false>\\(\\)`.*; unless `TEAM_TRACE\\(.*\\)` expands without evaluating its arguments"
}
