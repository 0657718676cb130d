// The device build takes no definition under __COSTMODEL: `pipe_barrier`
// is the intrinsic here, not the cost model's recorder it is forwarded to
// there.
#include "kernel_operator.h"
#include "costmodel_qualifiers.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void waits_for_own_copy(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCopy(countGm, ub, 16);
  pipe_barrier(PIPE_ALL);
  int32_t total = countGm.GetValue(0);
  (void)total;
}

extern "C" __global__ __aicore__ void no_wait(GM_ADDR counts) {
  GlobalTensor<int32_t> countGm;
  countGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<int32_t> ub = buf.Get<int32_t>();
  DataCopy(countGm, ub, 16);
  int32_t total = countGm.GetValue(0); // want "EXT001 .*can run before this core's own DMA write"
  (void)total;
  pipe_barrier(PIPE_ALL);
}
