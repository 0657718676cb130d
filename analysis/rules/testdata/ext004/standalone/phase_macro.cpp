// The same fence written as a macro both branches use: the cube's use is
// where the cube runs a barrier that never meets the vectors.
#include "kernel_operator.h"

#define PHASE_FENCE() AscendC::SyncAll()

extern "C" __global__ __aicore__ void mm_norm(GM_ADDR a, GM_ADDR ws, GM_ADDR ffts) {
  AscendC::SetSyncBaseAddr(reinterpret_cast<uint64_t>(ffts));
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, l0a, l0b, params);
    AscendC::Fixpipe(wsGm, c, fixParams);
    PHASE_FENCE(); // want "EXT004 syncall-aiv-only: `PHASE_FENCE` expands to `AscendC::SyncAll\\(\\)`, the vector-only barrier \\(isAIVOnly=true\\), yet both the cube's and the vector's branches"
  }
  if ASCEND_IS_AIV {
    PHASE_FENCE();
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ;
    pipe.InitBuffer(inQ, 2, 4096);
  }
}
