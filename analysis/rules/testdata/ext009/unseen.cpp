// A project helper whose header did not resolve follows the store: it may
// write the line back and wait with a dsb, so the finding says less.
#include "gm_util.h"
#include "team_cache.h" // not in the tree: publish_slot is unseen

extern "C" __global__ __aicore__ void published_by_helper(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1; // want "info: EXT009 .*stays in this core's data cache.*; unless `publish_slot\\(slot\\)` writes it back with a `dsb`: its definition is not in the files the analysis found"
  publish_slot(slot);
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void not_published(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1; // want "warning: EXT009 .*stays in this core's data cache"
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void flushed_then_helper(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1;
  dcci((__gm__ void *)slot, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "info: EXT009 .*no `dsb\\(DSB_DDR\\)`.*; unless `fence_all\\(\\)` waits for it with a `dsb`"
  fence_all();
  AscendC::SyncAll<false>();
}

// A cast after the store converts a value; it calls nothing that could
// write the line back, so the finding stays a warning.
extern "C" __global__ __aicore__ void cast_after(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1; // want "warning: EXT009 .*stays in this core's data cache"
  int32_t n = static_cast<int32_t>(args[1]);
  AscendC::SyncAll<false>();
  (void)n;
}

// Stores through a GlobalTensor's operator(): the next element store is an
// access, not a call that could write the line back.
extern "C" __global__ __aicore__ void tensor_elements(__gm__ int64_t *args) {
  AscendC::GlobalTensor<int32_t> rowsGm;
  rowsGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(args[0]));
  rowsGm(0) = 1; // want "warning: EXT009 .*`rowsGm\\(0\\) = 1`.*stays in this core's data cache"
  rowsGm(1) = 2; // want "warning: EXT009 .*`rowsGm\\(1\\) = 2`.*stays in this core's data cache"
  AscendC::SyncAll<false>();
}

// A helper fills an entry its callers hand on: the helper the caller runs
// after the call is unseen (it may write the entry back), so the store says
// less; a caller that only signals leaves it a warning.
__aicore__ inline void fill_entry(__gm__ int32_t *entry, int32_t v) {
  entry[1] = v; // want "info: EXT009 .*`entry\\[1\\] = v`.*; unless `publish_slot\\(entry\\)` writes it back with a `dsb`"
}

__aicore__ inline void fill_entry_late(__gm__ int32_t *entry, int32_t v) {
  entry[1] = v; // want "warning: EXT009 .*`entry\\[1\\] = v`.*stays in this core's data cache"
}

__aicore__ inline void fill_entry_bare(__gm__ int32_t *entry, int32_t v) {
  entry[1] = v; // want "warning: EXT009 .*`entry\\[1\\] = v`.*stays in this core's data cache"
}

extern "C" __global__ __aicore__ void entry_published(__gm__ int64_t *args) {
  __gm__ int32_t *entry = reinterpret_cast<__gm__ int32_t *>(args[0]);
  fill_entry(entry, 3);
  publish_slot(entry);
  AscendC::SyncAll<false>();
}

// The unseen helper runs after the barrier has handed the entry on.
extern "C" __global__ __aicore__ void entry_published_late(__gm__ int64_t *args) {
  __gm__ int32_t *entry = reinterpret_cast<__gm__ int32_t *>(args[0]);
  fill_entry_late(entry, 3);
  AscendC::SyncAll<false>();
  publish_slot(entry);
}

extern "C" __global__ __aicore__ void entry_signalled(__gm__ int64_t *args) {
  __gm__ int32_t *entry = reinterpret_cast<__gm__ int32_t *>(args[0]);
  fill_entry_bare(entry, 3);
  AscendC::SyncAll<false>();
}

// A store in the arguments of a macro-like name no file defines: a check
// macro switched off never makes it.
extern "C" __global__ __aicore__ void checked_store(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  TEAM_CHECK(slot[0] = 1); // want "info: EXT009 .*stays in this core's data cache.*; unless `TEAM_CHECK\\(slot\\[0\\] = 1\\)` expands without evaluating its arguments"
  AscendC::SyncAll<false>();
}
