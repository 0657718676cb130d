// A mixed kernel: its vector cores count to twice the block number, so a
// vector core's id can reach GetBlockNum(); a cube core's cannot.
#include "kernel_operator.h"

// Helpers guarded by their callers: the cube's runs on cube cores only.
__aicore__ inline void CubeStage(GM_ADDR a, GM_ADDR c) {
  if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum()) {
    return;
  }
  AscendC::SyncAll<false>();
}

__aicore__ inline void VectorStage() {
  if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum()) {
    return; // want "EXT011.*`return` under `if \\(AscendC::GetBlockIdx\\(\\) >= AscendC::GetBlockNum\\(\\)\\)`"
  }
  AscendC::SyncAll<false>();
}

// Vector ids stay below twice the block number.
__aicore__ inline void VectorPairs() {
  if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum() * 2) {
    return;
  }
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void mixed_stages(GM_ADDR a, GM_ADDR c) {
  if ASCEND_IS_AIC {
    CubeStage(a, c);
  }
  if ASCEND_IS_AIV {
    VectorStage();
    VectorPairs();
  }
}

extern "C" __global__ __aicore__ void mixed_count(GM_ADDR a, GM_ADDR c) {
  if ASCEND_IS_AIC {
    if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum()) {
      return;
    }
    AscendC::Mmad(c, a, a, params);
    AscendC::SyncAll<false>();
  }
  if ASCEND_IS_AIV {
    if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum()) {
      return; // want "EXT011.*`return` under `if \\(AscendC::GetBlockIdx\\(\\) >= AscendC::GetBlockNum\\(\\)\\)`"
    }
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SyncAll<false>();
  }
}
