// The cube writes its product to ws, then both core types call one fence
// helper before the vectors read ws: the helper's bare SyncAll orders each
// core type among itself only.
#include "kernel_operator.h"

__aicore__ inline void PhaseBarrier() {
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::SyncAll(); // want "EXT004 syncall-aiv-only: `AscendC::SyncAll\\(\\)` is the vector-only barrier \\(isAIVOnly=true\\), yet both the cube's and the vector's branches of this mixed kernel call it as their fence"
}

__aicore__ inline void CubeProduct(GM_ADDR a, GM_ADDR ws) {
  AscendC::Mmad(c, l0a, l0b, params);
  AscendC::Fixpipe(wsGm, c, fixParams);
}

__aicore__ inline void VecActivate(GM_ADDR ws) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ;
  pipe.InitBuffer(inQ, 2, 4096);
}

extern "C" __global__ __aicore__ void mm_act(GM_ADDR a, GM_ADDR ws, GM_ADDR ffts) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::SetSyncBaseAddr(reinterpret_cast<uint64_t>(ffts));
  if ASCEND_IS_AIC {
    CubeProduct(a, ws);
    PhaseBarrier();
  }
  if ASCEND_IS_AIV {
    PhaseBarrier();
    VecActivate(ws);
  }
}
