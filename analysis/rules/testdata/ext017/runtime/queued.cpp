// A runtime-ABI kernel staging through a queue: DeQue hands the buffer
// back, waiting for the DMA on the vector side only.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  GlobalTensor<float> scaleGm;
  scaleGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(args[0]));
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 256 * sizeof(float));

  LocalTensor<float> s = que.AllocTensor<float>();
  DataCopy(s, scaleGm, 256);
  que.EnQue(s);
  s = que.DeQue<float>();
  float first = s.GetValue(0); // want "warning: EXT017 .*scalar read of `s` follows the DMA into it `DataCopy\\(s, scaleGm, 256\\)`"
  que.FreeTensor(s);

  LocalTensor<float> a = que.AllocTensor<float>();
  DataCopy(a, scaleGm, 256);
  que.EnQue(a);
  LocalTensor<float> b = que.DeQue<float>();
  float second = b.GetValue(0); // want "warning: EXT017 .*scalar read of `b` follows the DMA into it `DataCopy\\(a, scaleGm, 256\\)`"
  que.FreeTensor(b);

  // With the handoff: silent.
  LocalTensor<float> c = que.AllocTensor<float>();
  DataCopy(c, scaleGm, 256);
  que.EnQue(c);
  LocalTensor<float> d = que.DeQue<float>();
  SetFlag<HardEvent::MTE2_S>(EVENT_ID1);
  WaitFlag<HardEvent::MTE2_S>(EVENT_ID1);
  float third = d.GetValue(0);
  que.FreeTensor(d);
  (void)first; (void)second; (void)third;
}
