// Drains under a project configuration macro: both sides of the #if drain,
// so every configuration does.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void config_drains(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
#if KERNEL_USE_EVENTS
  AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
#else
  AscendC::PipeBarrier<PIPE_ALL>();
#endif
}

// The twin: without KERNEL_USE_EVENTS nothing drains.
extern "C" __global__ __aicore__ void config_drains_sometimes(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64); // want "EXT012.*leaves its store in flight"
#ifdef KERNEL_USE_EVENTS
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
#endif
}
