// A routing helper called by two kernels: the fused one waits for the core
// that wrote the table and invalidates it first; the standalone one gets
// the table as a task input and waits for no one. Neither call reads a stale
// line. A third kernel waits and does not invalidate: that one does.
#include "meta_util.h"

__aicore__ inline int32_t route_cols(__gm__ int32_t *table, int32_t g) {
  return table[g + 2]; // want "info: EXT001 .*`table\\[g \\+ 2\\]`"
}

__aicore__ inline int32_t route_rows(__gm__ int32_t *table, int32_t g) {
  return table[g] + table[g + 1]; // want "warning: EXT001 .*`table\\[g\\]`.*waits for another core"
}

extern "C" __global__ __aicore__ void fused_route(__gm__ int64_t *args) {
  __gm__ int32_t *table = input_data<int32_t>(args, 0);
  if (get_block_idx(args) == 0) {
    table[0] = 4;
    dcci(table, ENTIRE_DATA_CACHE, CACHELINE_OUT);
    dsb(DSB_DDR);
  }
  AscendC::SyncAll<false>();
  dcci(table, SINGLE_CACHE_LINE);
  int32_t rows = route_rows(table, 0) + route_cols(table, 0);
  (void)rows;
}

extern "C" __global__ __aicore__ void direct_route(__gm__ int64_t *args) {
  __gm__ int32_t *table = input_data<int32_t>(args, 0);
  int32_t rows = route_rows(table, 1) + route_cols(table, 1);
  (void)rows;
}

extern "C" __global__ __aicore__ void stale_route(__gm__ int64_t *args) {
  __gm__ int32_t *table = input_data<int32_t>(args, 0);
  int32_t before = table[2]; // want "info: EXT001 .*`table\\[2\\]`"
  if (get_block_idx(args) == 0) {
    table[0] = 4;
    dcci(table, ENTIRE_DATA_CACHE, CACHELINE_OUT);
    dsb(DSB_DDR);
  }
  AscendC::SyncAll<false>();
  int32_t rows = route_rows(table, 0) + before;
  (void)rows;
}
