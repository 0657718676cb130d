// A second mixed entry that spells the type unqualified.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void mm() { Mmad(c, a, b, params); PipeBarrier<PIPE_V>(); }

extern "C" __global__ __aicore__ void using_entry(__gm__ int64_t *args) {
  TPipe pipe; // want `.AscendC::TPipe. .pipe. is created where the cube core`
  pipe.InitBuffer(inQueue, 2, 2048);
  mm();
}

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
