// Mixed entries whose cube side returns before the vector phase.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void early_aic(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
    return;
  }
  AscendC::TPipe pipe;
  pipe.InitBuffer(inQueue, 2, 2048);
  AscendC::PipeBarrier<PIPE_V>();
}

extern "C" __global__ __aicore__ void early_pp(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
  return;
#endif
  {
    AscendC::TPipe pipe;
    pipe.InitBuffer(inQueue, 2, 2048);
  }
}

extern "C" __global__ __aicore__ void early_data(__gm__ int64_t *args) {
  if (args[3] == 0) {
    return;
  }
  if ASCEND_IS_AIV {
    if (args[4] > 0) return;
  }
  AscendC::TPipe pipe; // want `.pipe. is created where the cube core`
  pipe.InitBuffer(inQueue, 2, 2048);
}

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
