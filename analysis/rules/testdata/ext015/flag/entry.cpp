// Vector extern: double-buffered copy-in / compute / copy-out.
#include "events.h"

extern "C" __global__ __aicore__ void pingpong_leak(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm, outGm;
  int32_t n = static_cast<int32_t>(args[2]);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(kPing);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(kPong);
  for (int32_t i = 0; i < n; i += 2) {
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPing);
    AscendC::DataCopy(ub, inGm[i * 256], 256);
    AscendC::DataCopy(outGm[i * 256], ub, 256);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(kPing);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPong);
    AscendC::DataCopy(ub, inGm[i * 256 + 256], 256);
    AscendC::DataCopy(outGm[i * 256 + 256], ub, 256);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(kPong); // want "EXT015 event-unpaired: `AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>\\(kPong\\)` sets event MTE3_MTE2 id 1, and no wait of it follows on any path to the end of the entry"
  }
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(kPing);
  AscendC::PipeBarrier<PIPE_ALL>();
}

extern "C" __global__ __aicore__ void early_return(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm;
  int32_t n = static_cast<int32_t>(args[1]);
  AscendC::DataCopy(ub, inGm, 256);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0); // want "MTE2_V id 0, and no wait of it follows on any path to entry.cpp:31"
  if (n == 0)
    return;
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::Muls(ub, ub, 2.0f, 256);
}

extern "C" __global__ __aicore__ void wait_first(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> inGm;
  Compute(ub); // want "`Compute\\(ub\\)` reaches `AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>\\(EV_IN\\)` \\(events.h:15\\) which waits for event MTE2_V id 2, but no set of it comes before"
  CopyIn(ub, inGm);
  Compute(ub);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EV_OUT); // want "waits for event V_MTE3 id 3, but no set of it comes before on any path"
}

extern "C" __global__ __aicore__ void set_twice(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> outGm;
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID4);
  AscendC::Muls(ub, ub, 2.0f, 256);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID4); // want "sets event V_MTE3 id 4 while the set at entry.cpp:48 is still pending on every path here"
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID4);
  AscendC::DataCopy(outGm, ub, 256);
}
