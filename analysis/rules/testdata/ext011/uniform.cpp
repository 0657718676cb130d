// Conditions that are the same on every core: the tiling every core reads,
// a core count passed down, a member holding the tiling. Silent.
#include "kernel_operator.h"

struct Tiling {
  uint32_t coreNum;
  uint32_t rows;
};

class Phase {
public:
  __aicore__ inline void Run(__gm__ Tiling *tiling, uint32_t usedCores) {
    if (tiling->coreNum == 1) {
      return;
    }
    if (usedCores == 0 || rows_ == 0) {
      return;
    }
    AscendC::SyncAll<false>();
  }

  // The twin: a member holding this core's block id differs per core.
  __aicore__ inline void RunSplit(uint32_t used) {
    if (blockIdx_ >= used) {
      return; // want "EXT011.*`return` under `if \\(blockIdx_ >= used\\)` can leave before the hardware barrier"
    }
    AscendC::SyncAll<false>();
  }

private:
  uint32_t rows_;
  uint32_t blockIdx_;
};

extern "C" __global__ __aicore__ void uniform_entry(__gm__ int64_t *args) {
  Phase p;
  p.Run(reinterpret_cast<__gm__ Tiling *>(args[0]), static_cast<uint32_t>(args[1]));
  p.RunSplit(static_cast<uint32_t>(args[1]));
}
