// Ordinary standalone kernels that give each core a row of a statistics
// table and fill it by scalar stores. Rows of 4 int32 (16 bytes) put four
// cores in one cache line; rows padded to 16 int32 (64 bytes) do not.
#include "kernel_operator.h"

constexpr uint32_t kColumns = 4;
constexpr uint32_t kPaddedColumns = 16;

extern "C" __global__ __aicore__ void row_stats(GM_ADDR x, GM_ADDR stats) {
  uint32_t idx = AscendC::GetBlockIdx();
  __gm__ int32_t *base = (__gm__ int32_t *)stats;
  __gm__ int32_t *row = base + idx * kColumns;
  row[0] = 1; // want "EXT013 gm-false-sharing: `row\\[0\\]` stores to a GM slot 16 bytes from the next core's \\(`AscendC::GetBlockIdx\\(\\)` steps 4 × 4-byte `int32_t`, through `row = base \\+ idx \\* kColumns`\\): 4 cores' slots share a 64-byte cache line"
  row[1] = 2; // want "EXT013 gm-false-sharing: `row\\[1\\]`"
  dcci(row, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  (void)x;
}

// The same row as a GlobalTensor view.
extern "C" __global__ __aicore__ void row_stats_tensor(GM_ADDR stats) {
  AscendC::GlobalTensor<int32_t> statsGm;
  statsGm.SetGlobalBuffer((__gm__ int32_t *)stats);
  AscendC::GlobalTensor<int32_t> rowGm = statsGm[AscendC::GetBlockIdx() * kColumns];
  rowGm.SetValue(0, 1); // want "EXT013 gm-false-sharing: `rowGm.SetValue\\(0, 1\\)` stores to a GM slot 16 bytes"
  AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(rowGm);
  dsb(DSB_DDR);
  statsGm.SetValue(AscendC::GetBlockIdx() * 2, 1); // want "EXT013 gm-false-sharing: `statsGm.SetValue\\(AscendC::GetBlockIdx\\(\\) \\* 2, 1\\)` stores to a GM slot 8 bytes from the next core's \\(`AscendC::GetBlockIdx\\(\\)` steps 2 × 4-byte `int32_t`\\)"
  AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE, AscendC::DcciDst::CACHELINE_OUT>(statsGm);
  dsb(DSB_DDR);
}

// Fixed: each row is a cache line.
extern "C" __global__ __aicore__ void row_stats_padded(GM_ADDR stats) {
  uint32_t idx = AscendC::GetBlockIdx();
  __gm__ int32_t *row = reinterpret_cast<__gm__ int32_t *>(stats) + idx * kPaddedColumns;
  row[0] = 1;
  row[1] = 2;
  dcci(row, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// One core writes the table: no sharing between cores.
extern "C" __global__ __aicore__ void row_stats_single(GM_ADDR stats) {
  uint32_t idx = AscendC::GetBlockIdx();
  if (idx != 0) {
    return;
  }
  __gm__ int32_t *row = (__gm__ int32_t *)stats + idx * kColumns;
  row[0] = 1;
  dcci(row, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// The row carved straight from the kernel's byte pointer: the cast says
// the offset counts 4-byte elements.
extern "C" __global__ __aicore__ void row_stats_cast(GM_ADDR stats) {
  uint32_t idx = AscendC::GetBlockIdx();
  __gm__ int32_t *row = (__gm__ int32_t *)stats + idx * kColumns;
  row[3] = 1; // want "EXT013 gm-false-sharing: `row\\[3\\]` stores to a GM slot 16 bytes from the next core's \\(`AscendC::GetBlockIdx\\(\\)` steps 4 × 4-byte `int32_t`, through `row = \\(__gm__ int32_t \\*\\)stats \\+ idx \\* kColumns`\\)"
  dcci(row, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// Fixed: the same cast, a cache line per row.
extern "C" __global__ __aicore__ void row_stats_cast_padded(GM_ADDR stats) {
  uint32_t idx = AscendC::GetBlockIdx();
  __gm__ int32_t *row = (__gm__ int32_t *)stats + idx * kPaddedColumns;
  row[3] = 1;
  dcci(row, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// The row bound to a GlobalTensor member in Init and stored in Process.
class RowStats {
public:
  __aicore__ inline void Init(GM_ADDR stats, GM_ADDR padded) {
    uint32_t idx = AscendC::GetBlockIdx();
    rowGm.SetGlobalBuffer((__gm__ int32_t *)stats + idx * kColumns, kColumns);
    // Fixed: a cache line per row.
    paddedGm.SetGlobalBuffer((__gm__ int32_t *)padded + idx * kPaddedColumns, kPaddedColumns);
  }
  __aicore__ inline void Process() {
    rowGm.SetValue(1, 5); // want "EXT013 gm-false-sharing: `rowGm.SetValue\\(1, 5\\)` stores to a GM slot 16 bytes from the next core's \\(`AscendC::GetBlockIdx\\(\\)` steps 4 × 4-byte `int32_t`, through `rowGm.SetGlobalBuffer\\("
    paddedGm.SetValue(1, 5);
  }

private:
  AscendC::GlobalTensor<int32_t> rowGm, paddedGm;
};

extern "C" __global__ __aicore__ void row_stats_member(GM_ADDR stats, GM_ADDR padded) {
  RowStats op;
  op.Init(stats, padded);
  op.Process();
}

// Rows dealt out grid-stride, each stored whole by scalar: the rows are
// far apart for a large `cols`, but where one row ends the next core's
// starts, in one line, unless `cols` floats fill whole lines.
extern "C" __global__ __aicore__ void row_runs(GM_ADDR y, uint32_t rows, uint32_t cols) {
  AscendC::GlobalTensor<float> yGm;
  yGm.SetGlobalBuffer((__gm__ float *)y);
  for (uint32_t r = AscendC::GetBlockIdx(); r < rows; r += AscendC::GetBlockNum()) {
    const uint32_t base = r * cols;
    for (uint32_t i = 0; i < cols; ++i) {
      yGm.SetValue(base + i, 0.0f); // want "EXT013 .*while `cols` is below 16.*each core also stores a run of slots \\(over `i`\\): where a run reaches the end of its core's `cols` elements"
    }
  }
}
