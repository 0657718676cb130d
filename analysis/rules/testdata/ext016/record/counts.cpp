// No flag published after data here: a table of counts the scalar unit
// filled, copied out with a run-time size, is data; so is a row's tail the
// scalar unit moved inside UB; and the copy that resets the word a helper
// just waited on carries no data the status after it announces.
#include "signal.h"

__aicore__ inline void AwaitAndReset(GlobalTensor<int32_t> &state, LocalTensor<int32_t> &ub,
                                     LocalTensor<int32_t> &zero, int32_t v) {
  while (true) {
    DataCopy(ub, state, 8);
    PipeSync<HardEvent::MTE2_S>();
    if (ub.GetValue(0) == v) {
      break;
    }
  }
  PipeSync<HardEvent::S_MTE3>();
  DataCopy(state, zero, 8);
}

extern "C" __global__ __aicore__ void gather_counts(GM_ADDR tokens, GM_ADDR counts, GM_ADDR state, GM_ADDR status,
                                                    uint32_t n) {
  GlobalTensor<float> tokGm;
  GlobalTensor<int32_t> cntGm, stateGm, statusGm;
  tokGm.SetGlobalBuffer((__gm__ float *)tokens);
  cntGm.SetGlobalBuffer((__gm__ int32_t *)counts);
  stateGm.SetGlobalBuffer((__gm__ int32_t *)state);
  statusGm.SetGlobalBuffer((__gm__ int32_t *)status);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf, cnt, words;
  pipe.InitBuffer(buf, 1024);
  pipe.InitBuffer(cnt, 1024);
  pipe.InitBuffer(words, 128);
  LocalTensor<float> ub = buf.Get<float>();
  LocalTensor<int32_t> c = cnt.Get<int32_t>();
  LocalTensor<int32_t> w = words.Get<int32_t>();
  LocalTensor<int32_t> zero = words.Get<int32_t>()[32];
  DataCopy(tokGm, ub, 256);
  for (uint32_t i = 0; i < n; ++i) {
    c.SetValue(i, i);
  }
  PipeSync<HardEvent::S_MTE3>();
  DataCopyExtParams table = {1U, static_cast<uint32_t>(n * sizeof(int32_t)), 0U, 0U, 0U};
  DataCopyPad(cntGm, c, table);

  // An unaligned row's tail moved inside UB by the scalar unit and copied
  // out as one block: the row's data, not a flag.
  DataCopy(tokGm[256], ub, 256);
  ub.SetValue(7, ub.GetValue(3));
  PipeSync<HardEvent::S_MTE3>();
  DataCopyParams tail = {1, 1, 0, 0};
  DataCopy(tokGm[512], ub, tail);

  AwaitAndReset(stateGm, w, zero, 1);
  DataCopyParams one{1, sizeof(int32_t), 0, 0};
  w.SetValue(0, 2);
  PipeSync<HardEvent::S_MTE3>();
  DataCopyPad(statusGm, w, one);
}

// A check without a loop (the caller comes back to the token later): the
// state word is read, tested and reset; the status after it is progress,
// not a flag for the reset.
__aicore__ inline bool TryTake(GlobalTensor<float> &state, LocalTensor<float> &ub, LocalTensor<float> &reset, float v) {
  DataCopy(ub, state, 8);
  PipeSync<HardEvent::MTE2_S>();
  float got = ub(0);
  if (got == v) {
    DataCopy(state, reset, 8);
    return true;
  }
  return false;
}

extern "C" __global__ __aicore__ void take_tokens(GM_ADDR state, GM_ADDR status, uint32_t n) {
  GlobalTensor<float> stateGm;
  GlobalTensor<int32_t> statusGm;
  stateGm.SetGlobalBuffer((__gm__ float *)state);
  statusGm.SetGlobalBuffer((__gm__ int32_t *)status);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf, words;
  pipe.InitBuffer(buf, 1024);
  pipe.InitBuffer(words, 128);
  LocalTensor<float> ub = buf.Get<float>();
  LocalTensor<float> reset = buf.Get<float>()[64];
  LocalTensor<int32_t> w = words.Get<int32_t>();
  int32_t done = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!TryTake(stateGm, ub, reset, 1.0f)) {
      continue;
    }
    w.SetValue(0, ++done);
    PipeSync<HardEvent::S_MTE3>();
    DataCopy(statusGm, w, 8);
  }
}
