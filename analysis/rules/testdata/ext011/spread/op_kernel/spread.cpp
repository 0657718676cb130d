// The twin: the host launches every core (op_host/spread_tiling.cpp)
// while the tiling's used-core count can be smaller: the blocks past it
// return before the barrier the others wait at.
#include "kernel_operator.h"

struct SpreadTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
  uint32_t perCore;
};

class KernelSpread {
public:
  __aicore__ inline void Init(GM_ADDR tiling) {
    tiling_ = (__gm__ SpreadTiling *)tiling;
    blockIdx_ = AscendC::GetBlockIdx();
    usedCoreNum_ = tiling_->usedCoreNum;
  }

  __aicore__ inline void Process() {
    if (blockIdx_ >= usedCoreNum_) {
      return; // want "under `if \\(blockIdx_ >= usedCoreNum_\\)`"
    }
    Work();
    AscendC::SyncAll();
  }

  __aicore__ inline void Reduce() {
    if (AscendC::GetBlockIdx() > tiling_->usedCoreNum) {
      return; // want "under `if \\(AscendC::GetBlockIdx\\(\\) > tiling_->usedCoreNum\\)`"
    }
    AscendC::SyncAll();
  }

  // A block's first row: below the rows on every launched block when the
  // host launches at most the rows' shares.
  __aicore__ inline void Share() {
    if (blockIdx_ * tiling_->perCore >= tiling_->rows) {
      return; // want "under `if \\(blockIdx_ \\* tiling_->perCore >= tiling_->rows\\)`"
    }
    AscendC::SyncAll();
  }

private:
  __gm__ SpreadTiling *tiling_;
  uint32_t blockIdx_;
  uint32_t usedCoreNum_;
};

extern "C" __global__ __aicore__ void spread(GM_ADDR x, GM_ADDR tiling) {
  KernelSpread op;
  op.Init(tiling);
  op.Process();
  op.Reduce();
  op.Share();
}
