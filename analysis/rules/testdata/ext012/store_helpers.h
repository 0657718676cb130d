// Store and drain helpers shared by the entries of this fixture.
#pragma once
#include "kernel_operator.h"

// Leaves its store in flight: the caller must drain.
__aicore__ inline void store_tile(AscendC::GlobalTensor<float> &dst, AscendC::LocalTensor<float> &src, uint32_t n) {
  AscendC::DataCopy(dst, src, n);
}

// Drains everything it was handed.
__aicore__ inline void finish_task() {
  pipe_barrier(PIPE_ALL);
}

// Drains through one more level.
__aicore__ inline void epilogue() {
  finish_task();
}

// Stores and drains itself.
__aicore__ inline void store_and_wait(AscendC::GlobalTensor<float> &dst, AscendC::LocalTensor<float> &src, uint32_t n) {
  AscendC::DataCopy(dst, src, n);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
}

// A functor epilogue that leaves its store in flight.
struct Epilogue {
  __aicore__ inline void operator()(AscendC::GlobalTensor<float> &dst, AscendC::LocalTensor<float> &src) {
    AscendC::DataCopy(dst, src, 64);
  }
};
