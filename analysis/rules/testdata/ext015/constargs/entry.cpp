// A row step whose waits and sets hang on flags its callers pass: the
// previous row armed the buffer-free events (waitPrev), another row will
// wait on them (armNext). A call passing constants takes only the
// branches those constants open.
#include "kernel_operator.h"

class RowStep {
 public:
  __aicore__ inline void Step(uint32_t row, bool waitPrev, bool armNext) {
    if (waitPrev) {
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID1);
    }
    AscendC::DataCopy(in_, inGm_[row * 256], 256);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::Muls(out_, in_, scale_, 256);
    if (armNext) {
      AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID1);
    }
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(outGm_[row * 256], out_, 256);
  }

  // A flag the body overwrites is not the caller's constant any more.
  __aicore__ inline void Flush(bool wait) {
    wait = wait || pending_;
    if (wait) {
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID2);
    }
  }

 private:
  AscendC::LocalTensor<float> in_, out_;
  AscendC::GlobalTensor<float> inGm_, outGm_;
  float scale_;
  bool pending_;
};

// One row goes straight through: no previous row armed anything, and the
// false constants keep both of the flag-guarded branches shut.
extern "C" __global__ __aicore__ void rows_single(__gm__ int64_t *args) {
  RowStep op;
  uint32_t rows = static_cast<uint32_t>(args[2]);
  if (rows == 1) {
    op.Step(0, false, false);
    return;
  }
  for (uint32_t r = 0; r < rows; ++r) {
    op.Step(r, r > 0, r + 1 < rows);
  }
}

// The first row is told a previous one armed the event: nothing did.
extern "C" __global__ __aicore__ void rows_first_waits(__gm__ int64_t *args) {
  RowStep op;
  op.Step(0, true, false); // want "EXT015 event-unpaired: `op.Step\\(0, true, false\\)` reaches `AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>\\(EVENT_ID1\\)` \\(entry.cpp:11\\) which waits for event V_MTE2 id 1, but no set of it comes before on any path"
  op.Flush(false); // want "EXT015 event-unpaired: `op.Flush\\(false\\)` reaches `AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>\\(EVENT_ID2\\)`"
  (void)args;
}
