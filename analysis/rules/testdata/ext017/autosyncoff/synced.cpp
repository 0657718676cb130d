// The same copies with their handoffs written: an event pair, a PIPE_ALL
// barrier, a helper handed the event, a helper that waits; a copy of
// another tensor, or of a view the write may not touch; sides in branches
// that exclude each other; a path leaving between them.
#include "kernel_operator.h"

using namespace AscendC;

template <HardEvent E>
__aicore__ inline void Handoff() {
  event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
  SetFlag<E>(id);
  WaitFlag<E>(id);
}

__aicore__ inline void Settle() {
  PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void argmax_synced(GM_ADDR idx, GM_ADDR counts, uint32_t mode) {
  GlobalTensor<int32_t> idxGm, cntGm;
  idxGm.SetGlobalBuffer((__gm__ int32_t *)idx);
  cntGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  TPipe pipe;
  TBuf<TPosition::VECCALC> res, cnt, other;
  pipe.InitBuffer(res, 64);
  pipe.InitBuffer(cnt, 64);
  pipe.InitBuffer(other, 256);
  LocalTensor<int32_t> out = res.Get<int32_t>();
  LocalTensor<int32_t> c = cnt.Get<int32_t>();
  LocalTensor<int32_t> o = other.Get<int32_t>();

  out.SetValue(0, 7);
  SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
  DataCopy(idxGm, out, 8);

  DataCopy(c, cntGm, 8);
  set_flag(PIPE_MTE2, PIPE_S, EVENT_ID1);
  wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID1);
  int32_t n = c.GetValue(0);

  out.SetValue(1, n);
  PipeBarrier<PIPE_ALL>();
  DataCopy(idxGm[8], out, 8);

  out.SetValue(2, n);
  Handoff<HardEvent::S_MTE3>();
  DataCopy(idxGm[16], out, 8);

  out.SetValue(3, n);
  Settle();
  DataCopy(idxGm[24], out, 8);

  o.SetValue(0, n);
  DataCopy(idxGm[32], out, 8);
  DataCopy(idxGm[40], o[64], 64);

  if (mode == 1) {
    out.SetValue(4, n);
  } else {
    DataCopy(idxGm[48], out, 8);
  }
  for (uint32_t i = 0; i < mode; ++i) {
    out.SetValue(5, n);
    if (i + 1 < mode) {
      continue;
    }
    Handoff<HardEvent::S_MTE3>();
  }
  DataCopy(idxGm[56], out, 8);
}

#define WAIT_EV(src, dst, e) AscendC::WaitFlag<AscendC::HardEvent::src##_##dst>((e))
#define SET_EV(src, dst, e) AscendC::SetFlag<AscendC::HardEvent::src##_##dst>((e))

// Handoff chains: the copy in hands off to the vector unit, which hands
// off to the scalar unit; the scalar write hands off to the vector unit,
// whose output queue hands off to MTE3.
extern "C" __global__ __aicore__ void scale_chain(GM_ADDR scale, GM_ADDR out) {
  GlobalTensor<float> scaleGm, outGm;
  scaleGm.SetGlobalBuffer((__gm__ float *)scale);
  outGm.SetGlobalBuffer((__gm__ float *)out);
  TPipe pipe;
  TBuf<TPosition::VECCALC> sbuf;
  TQue<TPosition::VECOUT, 1> outQ;
  pipe.InitBuffer(sbuf, 64);
  pipe.InitBuffer(outQ, 1, 256);
  LocalTensor<float> sc = sbuf.Get<float>();
  DataCopy(sc, scaleGm, 8);
  SET_EV(MTE2, V, EVENT_ID0);
  WAIT_EV(MTE2, V, EVENT_ID0);
  Muls(sc, sc, 2.0f, 8);
  SetFlag<HardEvent::V_S>(EVENT_ID0);
  WaitFlag<HardEvent::V_S>(EVENT_ID0);
  float k = sc.GetValue(0);

  LocalTensor<float> y = outQ.AllocTensor<float>();
  y.SetValue(0, k);
  SetFlag<HardEvent::S_V>(EVENT_ID1);
  WaitFlag<HardEvent::S_V>(EVENT_ID1);
  Adds(y, y, k, 64);
  outQ.EnQue(y);
  LocalTensor<float> yo = outQ.DeQue<float>();
  DataCopy(outGm, yo, 64);
  outQ.FreeTensor(yo);
}
