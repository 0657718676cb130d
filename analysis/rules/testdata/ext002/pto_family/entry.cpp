// A mixed extern keyed on pto's macro family: the fix uses __DAV_VEC__.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void pto_family_entry(__gm__ int64_t *args) {
#ifdef __DAV_CUBE__
  AscendC::Mmad(c, a, b, params);
#endif
#ifdef __DAV_VEC__
  AscendC::PipeBarrier<PIPE_V>();
#endif
  AscendC::TPipe pipe; // want `.pipe. is created`
  pipe.InitBuffer(buf, 1024); pipe.InitBuffer(buf2, 1024);
  int32_t n = 4;
}

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
