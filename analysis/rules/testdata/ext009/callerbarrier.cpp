// A phase writes its per-block sums out without a dsb and returns; the
// caller meets the other cores at a barrier and then reads the sums back.
// The barrier in the caller hands them over before the write-back landed.
// Where nothing reads them after the caller's barrier, or only a loop
// polling the word until it changes (a late write-back delays it), it is
// a note.
#include "kernel_operator.h"

using namespace AscendC;

class BlockSums {
public:
  __aicore__ inline void Init(GM_ADDR sums, GM_ADDR totals) {
    sumsGm_.SetGlobalBuffer((__gm__ float *)sums);
    totalsGm_.SetGlobalBuffer((__gm__ float *)totals);
    flagGm_.SetGlobalBuffer((__gm__ int32_t *)totals + 64);
  }
  __aicore__ inline void Compute(int32_t blocks) {
    Partial();
    SyncAll();
    Combine(blocks);
  }
  __aicore__ inline void ComputeAlone() {
    PartialTotal();
    SyncAll();
  }
  // The sum after the barrier reads another tensor through a parameter
  // that shares the member's name: not the counts.
  __aicore__ inline void ComputeOther(GlobalTensor<float> &other) {
    PartialCount();
    SyncAll();
    SumOf(other);
  }
  __aicore__ inline void Handshake() {
    Raise();
    SyncAll();
    Await();
  }

private:
  __aicore__ inline void Partial() {
    sumsGm_(GetBlockIdx() * 16) = 1.0f;
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(sumsGm_[GetBlockIdx() * 16]); // want "warning: EXT009 .*`sumsGm_\\(GetBlockIdx\\(\\) \\* 16\\) = 1.0f`.*`SyncAll\\(\\)` \\(line 20\\) in `Compute` after the call to `Partial` tells another core to read \\(`sumsGm_\\(b \\* 16\\)`, line 71, reads it\\) before any `dsb`"
  }
  __aicore__ inline void PartialTotal() {
    totalsGm_(GetBlockIdx() * 16) = 1.0f;
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(totalsGm_[GetBlockIdx() * 16]); // want "info: EXT009 .*`totalsGm_\\(GetBlockIdx\\(\\) \\* 16\\) = 1.0f`.*nothing signals another core or stores a flag after it"
  }
  __aicore__ inline void PartialCount() {
    countsGm_(GetBlockIdx() * 16) = 2.0f;
    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(countsGm_[GetBlockIdx() * 16]); // want "info: EXT009 .*`countsGm_\\(GetBlockIdx\\(\\) \\* 16\\) = 2.0f`.*nothing signals another core or stores a flag after it"
  }
  __aicore__ inline float SumOf(GlobalTensor<float> &countsGm_) {
    return countsGm_(0) + countsGm_(16);
  }
  __aicore__ inline void Raise() {
    flagGm_(0) = 1;
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm_); // want "info: EXT009 .*`flagGm_\\(0\\) = 1`.*nothing signals another core or stores a flag after it"
  }
  __aicore__ inline void Await() {
    while (true) {
      DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flagGm_);
      if (flagGm_(0) == 1) {
        break;
      }
    }
  }
  __aicore__ inline void Combine(int32_t blocks) {
    float total = 0.0f;
    for (int32_t b = 0; b < blocks; b++) {
      total += sumsGm_(b * 16);
    }
    (void)total;
  }

  GlobalTensor<float> sumsGm_;
  GlobalTensor<float> totalsGm_;
  GlobalTensor<int32_t> flagGm_;
  GlobalTensor<float> countsGm_;
};

extern "C" __global__ __aicore__ void block_sums(GM_ADDR sums, GM_ADDR totals, int32_t blocks) {
  GlobalTensor<float> other;
  other.SetGlobalBuffer((__gm__ float *)sums + 1024);
  BlockSums op;
  op.Init(sums, totals);
  op.Compute(blocks);
  op.ComputeAlone();
  op.Handshake();
  op.ComputeOther(other);
}
