// An operator kernel with one class per tiling key: both define CopyOut,
// and each Process calls its own. The wide variant's CopyOut waits for the
// V_MTE3 set its Process makes; the narrow variant's sets and waits
// nothing there. Silent: an unqualified call runs its own class's method.
#include "kernel_operator.h"

using namespace AscendC;

class WideVariant {
public:
  __aicore__ inline void Process() {
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    CopyOut();
  }
  __aicore__ inline void CopyOut() { WaitFlag<HardEvent::V_MTE3>(EVENT_ID0); }
};

class NarrowVariant {
public:
  __aicore__ inline void Process() { CopyOut(); }
  __aicore__ inline void CopyOut() { PipeBarrier<PIPE_ALL>(); }
};

extern "C" __global__ __aicore__ void expert_counts(GM_ADDR x, GM_ADDR tiling) {
  if (TILING_KEY_IS(1)) {
    WideVariant op;
    op.Process();
  } else if (TILING_KEY_IS(2)) {
    NarrowVariant op;
    op.Process();
  }
}
