// The project spells its pipe handoffs with macros that take the event
// id (and the pipe pair): each use is the set or wait it expands to.
#include "kernel_operator.h"

#define SET_EV(evt, id) AscendC::SetFlag<AscendC::HardEvent::evt>(id)
#define WAIT_EV(evt, id) AscendC::WaitFlag<AscendC::HardEvent::evt>(id)
#define SET_MTE2_V(id) AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id)
#define WAIT_MTE2_V(id) AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id)
#define HANDOFF_V_MTE3(id)                                \
  do {                                                    \
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(id);     \
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(id);    \
  } while (0)

// The pipe pair pasted from two parameters.
#define EV_SET(src, dst, ev) AscendC::SetFlag<AscendC::HardEvent::src##_##dst>(ev)
#define EV_WAIT(src, dst, ev) AscendC::WaitFlag<AscendC::HardEvent::src##_##dst>(ev)

constexpr int32_t kIn = 1;

extern "C" __global__ __aicore__ void paired(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm, outGm;
  AscendC::DataCopy(ub, inGm, 256);
  SET_MTE2_V(EVENT_ID0);
  WAIT_MTE2_V(EVENT_ID0);
  SET_EV(MTE2_V, kIn);
  WAIT_EV(MTE2_V, kIn);
  AscendC::Muls(ub, ub, 2.0f, 256);
  HANDOFF_V_MTE3(EVENT_ID2);
  AscendC::DataCopy(outGm, ub, 256);
  AscendC::PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void leaked(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm;
  int32_t n = static_cast<int32_t>(args[1]);
  AscendC::DataCopy(ub, inGm, 256);
  SET_MTE2_V(EVENT_ID3); // want "EXT015.*`SET_MTE2_V\\(EVENT_ID3\\)` sets event MTE2_V id 3, and no wait of it follows on any path to entry.cpp:43"
  WAIT_MTE2_V(EVENT_ID4); // want "EXT015.*`WAIT_MTE2_V\\(EVENT_ID4\\)` waits for event MTE2_V id 4, but no set of it comes before"
  if (n == 0) {
    return;
  }
  WAIT_EV(MTE2_V, EVENT_ID3);
  AscendC::Muls(ub, ub, 2.0f, 256);
}

extern "C" __global__ __aicore__ void pasted_pairs(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm, outGm;
  AscendC::DataCopy(ub, inGm, 256);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID5);
  EV_WAIT(MTE2, V, EVENT_ID5);
  AscendC::Muls(ub, ub, 2.0f, 256);
  EV_SET(V, MTE3, EVENT_ID5);
  EV_WAIT(V, MTE3, EVENT_ID5);
  AscendC::DataCopy(outGm, ub, 256);
  AscendC::PipeBarrier<PIPE_ALL>();
  EV_SET(MTE3, MTE2, EVENT_ID6); // want "EXT015.*`EV_SET\\(MTE3, MTE2, EVENT_ID6\\)` sets event MTE3_MTE2 id 6, and no wait of it follows"
}
