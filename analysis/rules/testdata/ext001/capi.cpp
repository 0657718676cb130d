// Ordinary standalone kernels (default build) that maintain the scalar
// cache with the asc C API (c_api/asc_simd.h): `asc_dcci_entire_out()` is
// the whole-cache dcci (every GM line written back and invalidated) and
// `asc_dcci_single(p)` the two-argument dcci of p's line. Each row's first
// value is read by scalar after this core copied the row out by DMA; the
// read on the previous row cached the line.
#include "kernel_operator.h"
#include "c_api/asc_simd.h"

using namespace AscendC;

class KernelRowMax {
public:
  __aicore__ inline void Init(GM_ADDR rows, uint32_t n, uint32_t len) {
    rowsGm.SetGlobalBuffer((__gm__ float *)rows);
    pipe.InitBuffer(buf, 1024);
    rowNum = n;
    rowLen = len;
  }
  __aicore__ inline void SortRow(uint32_t row) {
    LocalTensor<float> ub = buf.Get<float>();
    DataCopy(rowsGm[row * rowLen], ub, rowLen);
    PipeBarrier<PIPE_ALL>();
  }
  __aicore__ inline void Process() {
    for (uint32_t row = 0; row < rowNum; ++row) {
      SortRow(row);
      float top = rowsGm.GetValue(row * rowLen); // want "warning: EXT001 .*`rowsGm.GetValue\\(row \\* rowLen\\)`.*own DMA write"
      (void)top;
    }
  }
  __aicore__ inline void ProcessEntire() {
    for (uint32_t row = 0; row < rowNum; ++row) {
      asc_dcci_entire_out();
      SortRow(row);
      float top = rowsGm.GetValue(row * rowLen);
      (void)top;
    }
  }
  __aicore__ inline void ProcessSingle() {
    for (uint32_t row = 0; row < rowNum; ++row) {
      SortRow(row);
      asc_dcci_single((__gm__ void *)rowsGm[row * rowLen].GetPhyAddr());
      float top = rowsGm.GetValue(row * rowLen);
      (void)top;
    }
  }

  // Each row's first value is read, then the row rewritten by DMA: the
  // next row's read can hit the line the previous read cached.
  __aicore__ inline void ProcessRows() {
    for (uint32_t row = 0; row < rowNum; ++row) {
      float top = rowsGm.GetValue(row * rowLen); // want "warning: EXT001 .*`rowsGm.GetValue\\(row \\* rowLen\\)`.*own DMA write"
      (void)top;
      SortRow(row);
    }
  }
  // Fixed: every row starts by writing back and invalidating the cache.
  __aicore__ inline void ProcessRowsEntire() {
    for (uint32_t row = 0; row < rowNum; ++row) {
      asc_dcci_entire_out();
      float top = rowsGm.GetValue(row * rowLen);
      (void)top;
      SortRow(row);
    }
  }
  // Fixed for A5 alone, as A5 builds need it (`#if __NPU_ARCH__ == 3510`):
  // this file's conditionals name A5 alone, so it is judged as A5's
  // compile, where the dcci runs.
  __aicore__ inline void ProcessRowsA5() {
    for (uint32_t row = 0; row < rowNum; ++row) {
#if __NPU_ARCH__ == 3510
      asc_dcci_entire_out();
#endif
      float top = rowsGm.GetValue(row * rowLen);
      (void)top;
      SortRow(row);
    }
  }

private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  GlobalTensor<float> rowsGm;
  uint32_t rowNum;
  uint32_t rowLen;
};

extern "C" __global__ __aicore__ void row_max(GM_ADDR rows, uint32_t n, uint32_t len) {
  KernelRowMax op;
  op.Init(rows, n, len);
  op.Process();
}

extern "C" __global__ __aicore__ void row_max_entire(GM_ADDR rows, uint32_t n, uint32_t len) {
  KernelRowMax op;
  op.Init(rows, n, len);
  op.ProcessEntire();
}

extern "C" __global__ __aicore__ void row_max_rows(GM_ADDR rows, uint32_t n, uint32_t len) {
  KernelRowMax op;
  op.Init(rows, n, len);
  op.ProcessRows();
  op.ProcessRowsEntire();
  op.ProcessRowsA5();
}

extern "C" __global__ __aicore__ void row_max_single(GM_ADDR rows, uint32_t n, uint32_t len) {
  KernelRowMax op;
  op.Init(rows, n, len);
  op.ProcessSingle();
}
