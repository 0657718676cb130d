// Ordinary standalone kernels (default build) that copy a row out through a
// GlobalTensor view kept in a variable (`auto row = g[off];`): taking the
// view loads nothing through the scalar cache, so a read after the copy
// misses the cache and loads GM. A scalar read before the copy does cache
// the line.
#include "kernel_operator.h"

using namespace AscendC;

__aicore__ inline void CopyRow(const GlobalTensor<int32_t> &rows, uint32_t at, LocalTensor<int32_t> ub) {
  auto row = rows[at];
  DataCopy(row, ub, 16);
}

extern "C" __global__ __aicore__ void copy_rows(GM_ADDR counts, uint32_t n) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    CopyRow(countGm, i * 16, ub);
    PipeBarrier<PIPE_ALL>();
    int32_t head = countGm.GetValue(i * 16);
    ub.SetValue(0, head);
    // The next row's view and copy find no line of this one cached.
    dcci((__gm__ int32_t *)counts, ENTIRE_DATA_CACHE);
  }
}

extern "C" __global__ __aicore__ void copy_rows_read_first(GM_ADDR counts, uint32_t n) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    int32_t old = countGm.GetValue(i * 16); // want "warning: EXT001 .*`countGm.GetValue\\(i \\* 16\\)`.*own DMA write"
    CopyRow(countGm, i * 16, ub);
    PipeBarrier<PIPE_ALL>();
    int32_t head = countGm.GetValue(i * 16); // want "warning: EXT001 .*`countGm.GetValue\\(i \\* 16\\)`.*own DMA write"
    ub.SetValue(0, head + old);
  }
}
