// Built with the compiler's defaults: the project's switch above is
// another target's.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void write_status(GM_ADDR status) {
  GlobalTensor<int32_t> statusGm;
  statusGm.SetGlobalBuffer((__gm__ int32_t *)status);
  TPipe pipe;
  TBuf<TPosition::VECCALC> word;
  pipe.InitBuffer(word, 64);
  LocalTensor<int32_t> w = word.Get<int32_t>();
  w.SetValue(0, 1);
  DataCopy(statusGm, w, 8);
}
