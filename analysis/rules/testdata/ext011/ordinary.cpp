// An ordinary class-style operator kernel: the cores past the tiling's
// used-core count return before the barrier the others wait in.
#include "kernel_operator.h"

struct SumTiling {
  uint32_t usedCores;
  uint32_t rows;
};

class KernelSum {
public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR tiling) {
    usedCores = ((__gm__ SumTiling *)tiling)->usedCores;
    blockIdx = AscendC::GetBlockIdx();
  }
  __aicore__ inline void Process() {
    if (blockIdx >= usedCores) {
      return; // want "EXT011 barrier-early-return: `return` under `if \\(blockIdx >= usedCores\\)` can leave before the hardware barrier `AscendC::SyncAll\\(\\)`"
    }
    Reduce();
    AscendC::SyncAll();
    Merge();
  }
  // Fixed: the unused cores skip the work, not the barrier.
  __aicore__ inline void ProcessFixed() {
    if (blockIdx < usedCores) {
      Reduce();
    }
    AscendC::SyncAll();
    if (blockIdx < usedCores) {
      Merge();
    }
  }

private:
  __aicore__ inline void Reduce() {}
  __aicore__ inline void Merge() {}
  uint32_t usedCores;
  uint32_t blockIdx;
};

extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR tiling) {
  KernelSum op;
  op.Init(x, tiling);
  op.Process();
}

extern "C" __global__ __aicore__ void row_sum_fixed(GM_ADDR x, GM_ADDR tiling) {
  KernelSum op;
  op.Init(x, tiling);
  op.ProcessFixed();
}
