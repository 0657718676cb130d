// A result index the scalar unit writes into UB and copies out, and a
// staged count the scalar unit reads after its copy in: each needs its
// handoff when the build inserts none.
#include "kernel_operator.h"

using namespace AscendC;

template <HardEvent E>
__aicore__ inline void Handoff() {
  event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
  SetFlag<E>(id);
  WaitFlag<E>(id);
}

extern "C" __global__ __aicore__ void argmax_out(GM_ADDR x, GM_ADDR idx, GM_ADDR counts) {
  GlobalTensor<float> xGm;
  GlobalTensor<int32_t> idxGm, cntGm;
  xGm.SetGlobalBuffer((__gm__ float *)x);
  idxGm.SetGlobalBuffer((__gm__ int32_t *)idx);
  cntGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf, res, cnt;
  pipe.InitBuffer(buf, 1024);
  pipe.InitBuffer(res, 64);
  pipe.InitBuffer(cnt, 64);
  LocalTensor<float> ub = buf.Get<float>();
  LocalTensor<int32_t> out = res.Get<int32_t>();
  LocalTensor<int32_t> c = cnt.Get<int32_t>();

  out.SetValue(0, 7);
  DataCopyParams one{1, sizeof(int32_t), 0, 0};
  DataCopyPad(idxGm, out, one); // want "warning: EXT017 .*copies `out` out of UB after the scalar write `out.SetValue\\(0, 7\\)`.*no S→MTE3 handoff"

  DataCopy(c, cntGm, 8);
  int32_t n = c.GetValue(0); // want "warning: EXT017 .*scalar read of `c` follows the DMA into it .*no MTE2→S handoff"
  out(1) = n;
  DataCopy(idxGm[8], out, 8); // want "warning: EXT017 .*copies `out` out of UB after the scalar write `out\\(1\\) = n`"
}

// The queue's EnQue/DeQue hand off between the vector unit and the DMA
// pipes, not the scalar unit's: the write still races the copy.
extern "C" __global__ __aicore__ void queued_out(GM_ADDR idx) {
  GlobalTensor<int32_t> idxGm;
  idxGm.SetGlobalBuffer((__gm__ int32_t *)idx);
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> outQ;
  pipe.InitBuffer(outQ, 1, 64);
  LocalTensor<int32_t> out = outQ.AllocTensor<int32_t>();
  for (int32_t i = 0; i < 8; ++i) {
    out.SetValue(i, i);
  }
  outQ.EnQue(out);
  out = outQ.DeQue<int32_t>();
  DataCopy(idxGm, out, 8); // want "warning: EXT017 .*copies `out` out of UB after the scalar write `out.SetValue\\(i, i\\)`"
  LocalTensor<int32_t> last = outQ.AllocTensor<int32_t>();
  last.SetValue(0, 1);
  outQ.EnQue<int32_t>(last);
  DataCopy(idxGm[8], last, 8); // want "warning: EXT017 .*copies `last` out of UB"
  outQ.FreeTensor(last);
}

// Half a chain: the vector unit waits for the copy, the scalar unit waits
// for nobody.
extern "C" __global__ __aicore__ void half_chain(GM_ADDR scale) {
  GlobalTensor<float> scaleGm;
  scaleGm.SetGlobalBuffer((__gm__ float *)scale);
  TPipe pipe;
  TBuf<TPosition::VECCALC> sbuf;
  pipe.InitBuffer(sbuf, 64);
  LocalTensor<float> sc = sbuf.Get<float>();
  DataCopy(sc, scaleGm, 8);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  Muls(sc, sc, 2.0f, 8);
  float k = sc.GetValue(0); // want "warning: EXT017 .*scalar read of `sc` follows the DMA into it"
  Duplicate(sc, k, 8);
}
