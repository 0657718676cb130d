// Ordinary standalone kernels (default build) that publish a per-core count
// with the asc C API (c_api/asc_simd.h): `asc_dcci_single(p)` writes p's
// line out, `asc_dcci_entire_out()` every line, and
// `asc_sync_data_barrier(DSB_DDR)` is the dsb that waits for them to reach
// GM before the barrier hands the counts to the other cores.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void publish_single(__gm__ int32_t *counts) {
  uint32_t blk = GetBlockIdx();
  counts[blk * 16] = 1;
  asc_dcci_single((__gm__ void *)(counts + blk * 16));
  asc_sync_data_barrier(mem_dsb_t::DSB_DDR);
  SyncAll();
}

extern "C" __global__ __aicore__ void publish_entire(__gm__ int32_t *counts) {
  uint32_t blk = GetBlockIdx();
  counts[blk * 16] = 1;
  asc_dcci_entire_out();
  asc_sync_data_barrier(mem_dsb_t::DSB_DDR);
  SyncAll();
}

// No dsb: the barrier can release the readers before the line lands.
extern "C" __global__ __aicore__ void publish_entire_nodsb(__gm__ int32_t *counts) {
  uint32_t blk = GetBlockIdx();
  counts[blk * 16] = 1;
  asc_dcci_entire_out(); // want "warning: EXT009 .*`counts\\[blk \\* 16\\] = 1`.*written out by `asc_dcci_entire_out\\(\\)` but no `dsb\\(DSB_DDR\\)`"
  SyncAll();
}

extern "C" __global__ __aicore__ void publish_single_nodsb(__gm__ int32_t *counts) {
  uint32_t blk = GetBlockIdx();
  counts[blk * 16] = 1;
  asc_dcci_single((__gm__ void *)(counts + blk * 16)); // want "warning: EXT009 .*`counts\\[blk \\* 16\\] = 1`.*written out by `asc_dcci_single\\(\\(__gm__ void \\*\\)\\(counts \\+ blk \\* 16\\)\\)` but no `dsb\\(DSB_DDR\\)`"
  SyncAll();
}
