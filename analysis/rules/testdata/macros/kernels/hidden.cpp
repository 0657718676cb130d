// Synchronisation and cache maintenance the project hides in its own
// macros count where the macro is used, like a helper function's.
#include "kernel_operator.h"

#define DRAIN_ALL() AscendC::PipeBarrier<PIPE_ALL>()
#define PUBLISH(p) do { dcci((__gm__ void *)(p), SINGLE_CACHE_LINE, CACHELINE_OUT); dsb(DSB_DDR); } while (0)
#define WRITE_BACK(p) dcci((__gm__ void *)(p), SINGLE_CACHE_LINE, CACHELINE_OUT)
#define REFRESH(p) dcci((__gm__ void *)(p), SINGLE_CACHE_LINE)
#define ALL_CORES_BARRIER() AscendC::SyncAll<false>()

extern "C" __global__ __aicore__ void drained(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> yGm;
  AscendC::LocalTensor<float> yUb;
  AscendC::DataCopy(yGm, yUb, 64);
  DRAIN_ALL();
}

extern "C" __global__ __aicore__ void not_drained(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> yGm;
  AscendC::LocalTensor<float> yUb;
  AscendC::DataCopy(yGm, yUb, 64); // want "EXT012 .*leaves its store in flight"
}

extern "C" __global__ __aicore__ void published(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1;
  PUBLISH(slot);
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void written_back_no_dsb(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  slot[0] = 1;
  WRITE_BACK(slot); // want "EXT009 .*is written out by `WRITE_BACK\\(slot\\)` but no `dsb\\(DSB_DDR\\)` waits for it"
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void refreshed(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  REFRESH(slot);
  int32_t seen = slot[1]; // caches the line before the barrier
  AscendC::SyncAll<false>();
  REFRESH(slot);
  int32_t v = slot[1];
  (void)v;
}

extern "C" __global__ __aicore__ void stale(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  REFRESH(slot);
  int32_t seen = slot[1]; // caches the line before the barrier
  AscendC::SyncAll<false>();
  int32_t v = slot[1]; // want "EXT001 .*read after `AscendC::SyncAll<false>\\(\\)`"
  (void)v;
}

extern "C" __global__ __aicore__ void skip_before_barrier(__gm__ int64_t *args) {
  if (get_block_idx(args) >= 20) {
    return; // want "EXT011 .*can leave before `ALL_CORES_BARRIER\\(\\)` \\(line 61\\), which reaches the hardware barrier `AscendC::SyncAll<false>\\(\\)` \\(hidden.cpp:9\\)"
  }
  ALL_CORES_BARRIER();
}

extern "C" __global__ __aicore__ void all_reach_barrier(__gm__ int64_t *args) {
  ALL_CORES_BARRIER();
  if (get_block_idx(args) >= 20) {
    return;
  }
}
