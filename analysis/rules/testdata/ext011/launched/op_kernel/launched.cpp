// An operator whose host tiling launches exactly the used-core count it
// stores in the tiling (op_host/launched_tiling.cpp): no launched block
// has an id at or past it, so the returns below never run.
#include "kernel_operator.h"

struct LaunchedTiling {
  uint32_t usedCoreNum;
  uint32_t rows;
  uint32_t perCore;
};

class KernelLaunched {
public:
  __aicore__ inline void Init(GM_ADDR tiling) {
    tiling_ = (__gm__ LaunchedTiling *)tiling;
    blockIdx_ = AscendC::GetBlockIdx();
    usedCoreNum_ = tiling_->usedCoreNum;
  }

  __aicore__ inline void Process() {
    if (blockIdx_ >= usedCoreNum_) {
      return;
    }
    Work();
    AscendC::SyncAll();
  }

  __aicore__ inline void Reduce() {
    if (AscendC::GetBlockIdx() > tiling_->usedCoreNum) {
      return;
    }
    AscendC::SyncAll();
  }

  // A block's first row: below the rows on every launched block when the
  // host launches at most the rows' shares.
  __aicore__ inline void Share() {
    if (blockIdx_ * tiling_->perCore >= tiling_->rows) {
      return;
    }
    AscendC::SyncAll();
  }

private:
  __gm__ LaunchedTiling *tiling_;
  uint32_t blockIdx_;
  uint32_t usedCoreNum_;
};

extern "C" __global__ __aicore__ void launched(GM_ADDR x, GM_ADDR tiling) {
  KernelLaunched op;
  op.Init(tiling);
  op.Process();
  op.Reduce();
  op.Share();
}
