// A standalone mixed kernel whose flag ids are locals set once: the
// cube->vector handshake and the vector barrier both hold 3.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void attn(GM_ADDR q, GM_ADDR out, GM_ADDR ffts) {
  AscendC::SetSyncBaseAddr((uint64_t)ffts);
  int qkReady = 3;
  int vecDone = 3;
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(qkReady);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(qkReady);
    AscendC::DataCopy(outGm, outUb, 64);
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(vecDone); // want "EXT014 crossflag-id-collision: `AscendC::CrossCoreSetFlag<0, PIPE_MTE3>\\(vecDone\\)` uses FFTS flag 3 for a mode-0 barrier of all vector cores, but the mode-2 cube→vector handshake at attn_kernel.cpp:11 signals flag 3"
    AscendC::CrossCoreWaitFlag(vecDone);
  }
}
