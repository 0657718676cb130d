// Guards written with a header's core-valued macros select the core like
// the macros they were made from.
#include "core_select.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void derived_guards(__gm__ int64_t *args) {
#if ON_VEC
  AscendC::TPipe vecPipe;
  vecPipe.InitBuffer(inQueue, 2, 2048);
  AscendC::PipeBarrier<PIPE_V>();
#endif
#ifdef VEC_ONLY
  AscendC::TPipe flagPipe;
  flagPipe.InitBuffer(inQueue, 2, 2048);
#endif
#if !ON_VEC
  AscendC::Mmad(c, a, b, params);
  AscendC::TPipe cubePipe; // want `.cubePipe. is created where the cube core`
  cubePipe.InitBuffer(inQueue, 2, 2048);
#endif
}

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
