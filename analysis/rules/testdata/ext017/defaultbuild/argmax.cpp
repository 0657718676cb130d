// A standalone kernel with CANN's default build: `--cce-auto-sync` is on,
// so the compiler puts the S->MTE3 and MTE2->S handoffs around
// SetValue/GetValue itself.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void argmax_default(GM_ADDR idx, GM_ADDR counts) {
  GlobalTensor<int32_t> idxGm, cntGm;
  idxGm.SetGlobalBuffer((__gm__ int32_t *)idx);
  cntGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> res, cnt;
  pipe.InitBuffer(res, 64);
  pipe.InitBuffer(cnt, 64);
  LocalTensor<int32_t> out = res.Get<int32_t>();
  LocalTensor<int32_t> c = cnt.Get<int32_t>();
  DataCopy(c, cntGm, 8);
  out.SetValue(0, c.GetValue(0));
  DataCopy(idxGm, out, 8);
}
