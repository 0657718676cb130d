// One template for both cores, split by `if constexpr` on its parameter:
// the branch a core's instantiation takes is the one it runs.
#include "kernel_operator.h"

template <bool kCube>
__aicore__ inline void RunHead() {
  if constexpr (kCube) {
    // The cube hands its L0 buffer back to MTE1 on event 0 itself.
    AscendC::Mmad(c, a, b, p);
    AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
  } else {
    AscendC::TPipe pipe; // only the vector core's instantiation builds it
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
  }
}

template <bool kCube>
__aicore__ inline void RunTail() {
  if constexpr (!kCube) {
    AscendC::TPipe pipe; // want "EXT002 .*`pipe` is created where the cube core"
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
  }
}

extern "C" __global__ __aicore__ void split_entry(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    RunHead<true>();
  }
  if ASCEND_IS_AIV {
    RunHead<false>();
  }
  // Both cores run the vector tail's instantiation.
  RunTail<false>();
  (void)args;
}

// The same split by a class template's parameter: each core declares its
// own instantiation.
template <bool kIsVec>
class Phase {
public:
  __aicore__ inline void Produce() {
    if constexpr (kIsVec) {
      AscendC::TPipe pipe; // only `Phase<true>`, the vector core's, builds it
      AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 4096);
    } else {
      AscendC::Mmad(c, a, b, p);
    }
  }
};

extern "C" __global__ __aicore__ void phase_entry(__gm__ int64_t *args) {
#if defined(__DAV_C220_VEC__)
  Phase<true> ph;
#else
  Phase<false> ph;
#endif
  ph.Produce();
  (void)args;
}
