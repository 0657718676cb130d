// A chunked recurrence. The first stage of each chunk copies the chunk's
// decay rows into a workspace by DMA (the epilogue functor of a
// policy-specialized class template, named through a class-scope alias);
// the second stage of a short chunk reads them back one by one, by scalar,
// through a helper that takes the GlobalTensor by value. The stages
// alternate in one loop: a tail read of one chunk caches the line, the
// next chunk's DMA rewrites it, and the next tail read returns the stale
// value. A default build's scalar dcci does not cover this core's own DMA.
#include "kernel_operator.h"

struct SumsPolicy {};
struct RowsPolicy {};

template <class Policy, class T>
class ChunkEpilogue;

// Another specialization, whose operator() takes other arguments.
template <class T>
class ChunkEpilogue<SumsPolicy, T> {
public:
  __aicore__ inline explicit ChunkEpilogue(AscendC::LocalTensor<T> buf) : ub(buf) {}
  __aicore__ inline void operator()(AscendC::GlobalTensor<T> sums, uint32_t cols) { AscendC::DataCopy(sums, ub, cols); }
  AscendC::LocalTensor<T> ub;
};

template <class T>
class ChunkEpilogue<RowsPolicy, T> {
public:
  __aicore__ inline explicit ChunkEpilogue(AscendC::LocalTensor<T> buf) : ub(buf) {}
  __aicore__ inline void operator()(AscendC::GlobalTensor<T> rows, AscendC::GlobalTensor<T> src, uint32_t row,
                                    uint32_t cols) {
    AscendC::GlobalTensor<T> mine = rows[row * cols];
    AscendC::DataCopy(ub, src, cols);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID1);
    AscendC::DataCopy(mine, ub, cols);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID1);
  }
  AscendC::LocalTensor<T> ub;
};

constexpr uint32_t kCols = 64;

template <class T>
class ChunkKernel {
public:
  using RowsEpilogue = ChunkEpilogue<RowsPolicy, T>;

  __aicore__ inline void Init(GM_ADDR src, GM_ADDR work) {
    srcGm.SetGlobalBuffer((__gm__ T *)src);
    decayGm.SetGlobalBuffer((__gm__ T *)work);
  }

  __aicore__ inline float LoadWeight(AscendC::GlobalTensor<T> rows, uint32_t off) const {
    return static_cast<float>(rows.GetValue(off)); // want "warning: EXT001 .*own DMA write `AscendC::DataCopy\\(mine, ub, cols\\)` \\(tailrows.cpp:36\\) in a loop of `Process` around the call"
  }

  __aicore__ inline void TailSum(uint32_t chunk, uint32_t rowsInChunk) {
    for (uint32_t r = 0; r < rowsInChunk; ++r) {
      total += LoadWeight(decayGm, chunk * kCols + r);
    }
  }

  __aicore__ inline void Process(AscendC::LocalTensor<T> ub, uint32_t chunks, uint32_t rowsInChunk) {
    RowsEpilogue epilogue(ub);
    uint32_t stage = 0;
    uint32_t chunk = 0;
    while (chunk < chunks) {
      if (stage == 0) {
        epilogue(decayGm[chunk * kCols], srcGm[chunk * kCols], 0, kCols);
      } else {
        if (rowsInChunk < 16) {
          TailSum(chunk, rowsInChunk);
        }
        ++chunk;
      }
      stage ^= 1;
    }
  }

  AscendC::GlobalTensor<T> srcGm;
  AscendC::GlobalTensor<T> decayGm;
  float total = 0.0f;
};

// The fixed shape: the tail stages the row through UB (DataCopy, wait
// MTE2 -> S, LocalTensor::GetValue), which the DMA keeps coherent.
template <class T>
class StagedChunkKernel {
public:
  using RowsEpilogue = ChunkEpilogue<RowsPolicy, T>;

  __aicore__ inline void Init(GM_ADDR src, GM_ADDR work) {
    srcGm.SetGlobalBuffer((__gm__ T *)src);
    decayGm.SetGlobalBuffer((__gm__ T *)work);
  }

  __aicore__ inline void StagedTailSum(AscendC::LocalTensor<T> rowUb, uint32_t chunk, uint32_t rowsInChunk) {
    AscendC::DataCopy(rowUb, decayGm[chunk * kCols], kCols);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID2);
    for (uint32_t r = 0; r < rowsInChunk; ++r) {
      total += static_cast<float>(rowUb.GetValue(r));
    }
  }

  __aicore__ inline void StagedProcess(AscendC::LocalTensor<T> ub, AscendC::LocalTensor<T> rowUb, uint32_t chunks,
                                       uint32_t rowsInChunk) {
    RowsEpilogue epilogue(ub);
    uint32_t stage = 0;
    uint32_t chunk = 0;
    while (chunk < chunks) {
      if (stage == 0) {
        epilogue(decayGm[chunk * kCols], srcGm[chunk * kCols], 0, kCols);
      } else {
        StagedTailSum(rowUb, chunk, rowsInChunk);
        ++chunk;
      }
      stage ^= 1;
    }
  }

  AscendC::GlobalTensor<T> srcGm;
  AscendC::GlobalTensor<T> decayGm;
  float total = 0.0f;
};

extern "C" __global__ __aicore__ void chunk_decay(GM_ADDR src, GM_ADDR work, uint32_t chunks, uint32_t rows) {
  AscendC::LocalTensor<float> ub;
  ChunkKernel<float> op;
  op.Init(src, work);
  op.Process(ub, chunks, rows);
}

extern "C" __global__ __aicore__ void chunk_decay_staged(GM_ADDR src, GM_ADDR work, uint32_t chunks, uint32_t rows) {
  AscendC::LocalTensor<float> ub;
  AscendC::LocalTensor<float> rowUb;
  StagedChunkKernel<float> op;
  op.Init(src, work);
  op.StagedProcess(ub, rowUb, chunks, rows);
}

// A stride set once: unit strides copy rows out by DMA, others add element
// by element. No pass of the loop takes both, so the read never follows
// the copy.
class StrideKernel {
public:
  __aicore__ inline void Init(GM_ADDR y, int32_t inc) {
    yGm.SetGlobalBuffer((__gm__ float *)y);
    unitStride = inc == 1;
  }
  __aicore__ inline void StoreRow(AscendC::LocalTensor<float> ub, uint32_t row) {
    if (unitStride) {
      AscendC::DataCopy(yGm[row * kCols], ub, kCols);
    }
  }
  __aicore__ inline void AddRow(AscendC::LocalTensor<float> ub, uint32_t row) {
    if (!unitStride) {
      yGm.SetValue(row, yGm.GetValue(row) + ub.GetValue(0));
    }
  }
  __aicore__ inline void Rows(AscendC::LocalTensor<float> ub, uint32_t rows) {
    for (uint32_t r = 0; r < rows; ++r) {
      StoreRow(ub, r);
      AddRow(ub, r);
    }
  }
  AscendC::GlobalTensor<float> yGm;
  bool unitStride;
};

extern "C" __global__ __aicore__ void stride_rows(GM_ADDR y, int32_t inc, uint32_t rows) {
  AscendC::LocalTensor<float> ub;
  StrideKernel op;
  op.Init(y, inc);
  op.Rows(ub, rows);
}
