// Intrinsics called through macros that forward their arguments count as
// the calls they expand to: `INTRINSIC(dcci, p, ...)` is `dcci(p, ...)`.
#include "kernel_operator.h"
#include "trace_debug.h"

extern "C" __global__ __aicore__ void forwarded(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1;
  INTRINSIC(dcci, slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  INTRINSIC(dsb, DSB_DDR);
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void forwarded_twice(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1;
  CALL_NAMED(dcci, slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  CALL_NAMED(dsb, DSB_DDR);
  BARRIER_ALL();
}

extern "C" __global__ __aicore__ void forwarded_no_dsb(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1;
  INTRINSIC(dcci, slot, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "EXT009 .*is written out by `INTRINSIC\\(dcci, slot, SINGLE_CACHE_LINE, CACHELINE_OUT\\)` but no `dsb\\(DSB_DDR\\)` waits for it"
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void forwarded_elsewhere(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1; // want "EXT009 .*stays in this core's data cache"
  INTRINSIC(pipe_barrier, PIPE_ALL);
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void refreshed_through(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  AscendC::SyncAll<false>();
  INTRINSIC(dcci, slot, SINGLE_CACHE_LINE);
  int32_t v = slot[1];
  (void)v;
}

extern "C" __global__ __aicore__ void stale_through(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  INTRINSIC(dcci, slot, SINGLE_CACHE_LINE);
  int32_t seen = slot[1]; // caches the line before the barrier
  AscendC::SyncAll<false>();
  INTRINSIC(pipe_barrier, PIPE_ALL);
  int32_t v = slot[1]; // want "EXT001 .*read after `AscendC::SyncAll<false>\\(\\)`"
  (void)v; (void)seen;
}


extern "C" __global__ __aicore__ void traced_either_way(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1; // want "EXT009 .*stays in this core's data cache"
  TRACED(dcci, slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  TRACED(dsb, DSB_DDR);
  AscendC::SyncAll<false>();
}
