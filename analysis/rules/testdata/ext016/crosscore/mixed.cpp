// A cross-core set issued on a DMA pipe leaves behind that pipe's work, and
// the pipe says what it announces. Here the vector's set on MTE2 after it
// copied its output out tells the cube its workspace tile was read (the
// buffer is free), which the output's copy has nothing to do with; the set
// on MTE3 is raised once MTE3 got there.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint16_t kTileFree = 3;

extern "C" __global__ __aicore__ void tile_handoff(GM_ADDR work, GM_ADDR out) {
  GlobalTensor<float> workGm, outGm;
  workGm.SetGlobalBuffer((__gm__ float *)work);
  outGm.SetGlobalBuffer((__gm__ float *)out);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> ub = buf.Get<float>();
  if ASCEND_IS_AIV {
    DataCopy(ub, workGm, 256);
    DataCopy(outGm, ub, 256);
    CrossCoreSetFlag<0x2, PIPE_MTE2>(kTileFree);
    DataCopy(workGm[256], ub, 256);
    CrossCoreSetFlag<0x2, PIPE_MTE3>(kTileFree);
  }
  if ASCEND_IS_AIC {
    CrossCoreWaitFlag(kTileFree);
    CrossCoreWaitFlag(kTileFree);
  }
}
