// Ordinary standalone kernel (default build): each block copies its rows
// out by DMA and writes the unaligned tail with scalar stores, then hands
// over to the next block through the inter-block flags. The next block's
// DMA lands next to the tail in the same cache line; this block's dirty
// line, written back later (at the latest as the kernel ends), drops it.
// The compiler's scalar coherence does not cover a buffer DMA also writes.
#include "kernel_operator.h"

using namespace AscendC;

class KernelRows {
public:
  __aicore__ inline void Init(GM_ADDR out, GM_ADDR sync, uint32_t rows) {
    outGm_.SetGlobalBuffer((__gm__ int32_t *)out);
    syncGm_.SetGlobalBuffer((__gm__ int32_t *)sync);
    pipe_.InitBuffer(buf_, 1024);
    rows_ = rows;
    blk_ = GetBlockIdx();
  }

  __aicore__ inline void CopyOut() {
    LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    uint32_t aligned = rows_ / 8 * 8;
    DataCopy(outGm_[blk_ * rows_], ub, aligned);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
    for (uint32_t i = aligned; i < rows_; ++i) {
      outGm_(blk_ * rows_ + i) = ub.GetValue(i); // want "warning: EXT009 .*`outGm_\\(blk_ \\* rows_ \\+ i\\) = ub.GetValue\\(i\\)`.*stays in this core's data cache"
    }
  }

  // Fixed: the tail's lines are written out (and waited for) before the
  // next block is let go.
  __aicore__ inline void CopyOutFixed() {
    LocalTensor<int32_t> ub = buf_.Get<int32_t>();
    uint32_t aligned = rows_ / 8 * 8;
    DataCopy(outGm_[blk_ * rows_], ub, aligned);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
    for (uint32_t i = aligned; i < rows_; ++i) {
      outGm_(blk_ * rows_ + i) = ub.GetValue(i);
    }
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(outGm_);
    dsb(DSB_DDR);
  }

  __aicore__ inline void HandOver(bool fixed) {
    LocalTensor<int32_t> flag = buf_.Get<int32_t>();
    if (blk_ > 0) {
      IBWait(syncGm_, flag, blk_ - 1, 0);
    }
    if (fixed) {
      CopyOutFixed();
    } else {
      CopyOut();
    }
    IBSet(syncGm_, flag, blk_, 0);
  }

  // A count only scalar code touches: the compiler's coherence covers it.
  __aicore__ inline void Count() {
    syncGm_.SetValue(64 * 16 + blk_ * 16, 1);
    SyncAll();
  }

private:
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<int32_t> outGm_;
  GlobalTensor<int32_t> syncGm_;
  uint32_t rows_;
  uint32_t blk_;
};

extern "C" __global__ __aicore__ void rows_in_order(GM_ADDR out, GM_ADDR sync, uint32_t rows, uint32_t fixed) {
  KernelRows op;
  op.Init(out, sync, rows);
  op.HandOver(fixed != 0);
  op.Count();
}
