// Each core publishes its share's sum by DMA, then after the barrier reads
// every core's sum: through a load that leaves the invalidation to a
// template default of false, the line cached before can be stale; a load
// whose default invalidates first reads memory.
#include "gm_load.h"

class SeqOffsets {
public:
  __aicore__ inline void Init(__gm__ int32_t *ws, uint32_t cores) {
    cores_ = cores;
    blk_ = AscendC::GetBlockIdx();
    sums_.SetGlobalBuffer(ws, cores * 16);
  }
  __aicore__ inline int32_t Process() {
    AscendC::DataCopy(sums_[blk_ * 16], slot_, 16);
    AscendC::SyncAll();
    int32_t total = 0;
    for (uint32_t c = 0; c < cores_; ++c) {
      total += LoadWord(sums_, c * 16);
      total += FreshWord(sums_, c * 16);
    }
    return total;
  }

private:
  AscendC::GlobalTensor<int32_t> sums_;
  AscendC::LocalTensor<int32_t> slot_;
  uint32_t cores_ = 0;
  uint32_t blk_ = 0;
};

extern "C" __global__ __aicore__ void seq_offsets(__gm__ int32_t *ws, uint32_t cores) {
  SeqOffsets op;
  op.Init(ws, cores);
  (void)op.Process();
}
