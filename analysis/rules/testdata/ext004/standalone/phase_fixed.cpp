// The fixed fence: SyncAll<false> orders the cube's write before the
// vectors' read.
#include "kernel_operator.h"

__aicore__ inline void CrossFence() {
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void mm_scale(GM_ADDR a, GM_ADDR ws, GM_ADDR ffts) {
  AscendC::SetSyncBaseAddr(reinterpret_cast<uint64_t>(ffts));
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, l0a, l0b, params);
    AscendC::Fixpipe(wsGm, c, fixParams);
    CrossFence();
  }
  if ASCEND_IS_AIV {
    CrossFence();
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ;
    pipe.InitBuffer(inQ, 2, 4096);
  }
}
