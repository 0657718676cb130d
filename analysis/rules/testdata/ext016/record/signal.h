// A cross-rank flag written and polled through UB: the word is set by
// scalar, then copied out by DMA; the waiter copies it in until it matches.
#pragma once
#include "kernel_operator.h"

using namespace AscendC;

template <HardEvent event>
__aicore__ inline void PipeSync() {
  SetFlag<event>(EVENT_ID1);
  WaitFlag<event>(EVENT_ID1);
}

__aicore__ inline void PublishWord(__gm__ int32_t *word, LocalTensor<int32_t> &ub, int32_t v) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(word, 8);
  ub.SetValue(0, v);
  PipeSync<HardEvent::S_MTE3>();
  DataCopy(g, ub, 8);
}

__aicore__ inline void AwaitWord(__gm__ int32_t *word, LocalTensor<int32_t> &ub, int32_t v) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(word, 8);
  while (true) {
    DataCopy(ub, g, 8);
    PipeSync<HardEvent::MTE2_S>();
    if (ub.GetValue(0) == v) {
      break;
    }
  }
}

__aicore__ inline void CopyOut(const GlobalTensor<float> &dst, const LocalTensor<float> &src, uint32_t n) {
  DataCopy(dst, src, n);
}
