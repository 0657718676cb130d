// Ordinary standalone kernels (default build) whose cube cores fill a small
// index table in the workspace with scalar stores before the barrier, next
// to a scratch region the matmul writes by DMA. Where the table's only
// readers are the same cores' scalar loads after the store, each core reads
// its own cached line: no DMA and no other core reads what the store left
// in the cache.
#include "kernel_operator.h"

using namespace AscendC;

// Reads its table by scalar only, writes its result by DMA.
__aicore__ inline void BlockGather(GlobalTensor<float> dst, GlobalTensor<int32_t> table, uint32_t n,
                                   LocalTensor<float> ub) {
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t row = table.GetValue(i);
    ub.SetValue(i, static_cast<float>(row));
  }
  DataCopy(dst, ub, n);
}

// An overload the calls below do not take: it stages the table by DMA.
__aicore__ inline void BlockGather(GlobalTensor<int32_t> table, LocalTensor<int32_t> ub, uint32_t n) {
  DataCopy(ub, table, n);
}

// Marks its own row in the table: a store through the parameter.
__aicore__ inline void MarkRow(GlobalTensor<int32_t> table, uint32_t row) {
  table(row) = 1;
}

// Reads its table by DMA.
__aicore__ inline void BlockStage(GlobalTensor<float> dst, GlobalTensor<int32_t> table, uint32_t n,
                                  LocalTensor<int32_t> ub, LocalTensor<float> out) {
  DataCopy(ub, table, n);
  DataCopy(dst, out, n);
}

extern "C" __global__ __aicore__ void gather_rows(GM_ADDR ws, uint32_t n, uint32_t rows) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  LocalTensor<float> ub = buf.Get<float>();
  GlobalTensor<int32_t> table;
  table.SetGlobalBuffer((__gm__ int32_t *)(ws + rows));
  uint64_t tableBytes = n * sizeof(int32_t);
  GlobalTensor<float> scratch;
  scratch.SetGlobalBuffer((__gm__ float *)(ws + tableBytes));
#ifdef __DAV_C220_CUBE__
  table.SetValue(0, 0);
  for (uint32_t i = 1; i < n; ++i) {
    table.SetValue(i, 0);
  }
#endif
  SyncAll<false>();
#ifdef __DAV_C220_CUBE__
  BlockGather(scratch[GetBlockIdx() * rows], table, n, ub);
#endif
}

// The table is read back by DMA: the DMA reads GM, not the dirty line.
extern "C" __global__ __aicore__ void stage_rows(GM_ADDR ws, uint32_t n, uint32_t rows) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  LocalTensor<float> ub = buf.Get<float>();
  LocalTensor<int32_t> idx = buf.Get<int32_t>();
  GlobalTensor<int32_t> table;
  table.SetGlobalBuffer((__gm__ int32_t *)(ws + rows));
  uint64_t tableBytes = n * sizeof(int32_t);
  GlobalTensor<float> scratch;
  scratch.SetGlobalBuffer((__gm__ float *)(ws + tableBytes));
#ifdef __DAV_C220_CUBE__
  for (uint32_t i = 0; i < n; ++i) {
    table.SetValue(i, 0); // want "warning: EXT009 .*`table.SetValue\\(i, 0\\)`.*stays in this core's data cache"
  }
#endif
  SyncAll<false>();
#ifdef __DAV_C220_CUBE__
  BlockStage(scratch[GetBlockIdx() * rows], table, n, idx, ub);
#endif
}

// Only the first core fills the table the others read after the barrier.
extern "C" __global__ __aicore__ void gather_rows_first(GM_ADDR ws, uint32_t n, uint32_t rows) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  LocalTensor<float> ub = buf.Get<float>();
  GlobalTensor<int32_t> table;
  table.SetGlobalBuffer((__gm__ int32_t *)(ws + rows));
  uint64_t tableBytes = n * sizeof(int32_t);
  GlobalTensor<float> scratch;
  scratch.SetGlobalBuffer((__gm__ float *)(ws + tableBytes));
#ifdef __DAV_C220_CUBE__
  if (GetBlockIdx() == 0) {
    for (uint32_t i = 0; i < n; ++i) {
      table.SetValue(i, i); // want "warning: EXT009 .*`table.SetValue\\(i, i\\)`.*stays in this core's data cache"
    }
  }
#endif
  SyncAll<false>();
#ifdef __DAV_C220_CUBE__
  BlockGather(scratch[GetBlockIdx() * rows], table, n, ub);
#endif
}

// A helper stores this core's mark into the table the others read.
extern "C" __global__ __aicore__ void gather_rows_marked(GM_ADDR ws, uint32_t n, uint32_t rows) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  LocalTensor<float> ub = buf.Get<float>();
  GlobalTensor<int32_t> table;
  table.SetGlobalBuffer((__gm__ int32_t *)(ws + rows));
  uint64_t tableBytes = n * sizeof(int32_t);
  GlobalTensor<float> scratch;
  scratch.SetGlobalBuffer((__gm__ float *)(ws + tableBytes));
#ifdef __DAV_C220_CUBE__
  for (uint32_t i = 0; i < n; ++i) {
    table.SetValue(i, 0); // want "warning: EXT009 .*`table.SetValue\\(i, 0\\)`.*stays in this core's data cache"
  }
  MarkRow(table, GetBlockIdx());
#endif
  SyncAll<false>();
#ifdef __DAV_C220_CUBE__
  BlockGather(scratch[GetBlockIdx() * rows], table, n, ub);
#endif
}
