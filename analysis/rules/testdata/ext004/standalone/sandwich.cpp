// The vectors dequantise the weights into ws, a fence both core types run
// (called outside either branch), then the cube reads ws: the fence's
// bare SyncAll orders each core type among itself only. Its template
// default hides the vector-only barrier. A fence between two vector
// phases orders the vectors alone, as meant.
#include "kernel_operator.h"

template <bool kAivOnly = true>
__aicore__ inline void StageFence() {
  AscendC::SyncAll<kAivOnly>(); // want "EXT004 syncall-aiv-only: .*yet this mixed kernel runs it on both core types between the vector's branch \\(line 15\\) and the cube's branch \\(line 22\\)"
}

extern "C" __global__ __aicore__ void dequant_mm(GM_ADDR a, GM_ADDR ws, GM_ADDR ffts) {
  AscendC::SetSyncBaseAddr(reinterpret_cast<uint64_t>(ffts));
  if ASCEND_IS_AIV {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> inQ;
    pipe.InitBuffer(inQ, 2, 4096);
    AscendC::DataCopy(wsGm, outLocal, 1024);
  }
  StageFence();
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, l0a, l0b, params);
    AscendC::Fixpipe(outGm, c, fixParams);
  }
}

extern "C" __global__ __aicore__ void row_stats(GM_ADDR a, GM_ADDR ws, GM_ADDR ffts) {
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, l0a, l0b, params);
  }
  if ASCEND_IS_AIV {
    AscendC::DataCopy(wsGm, sumLocal, 64);
  }
  AscendC::SyncAll();
  if ASCEND_IS_AIV {
    AscendC::DataCopy(sumLocal, wsGm, 64);
  }
}
