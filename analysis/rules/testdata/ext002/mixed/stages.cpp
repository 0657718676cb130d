// Stage classes that each define Run: a call reaches the Run of the class
// it names, so a TPipe in the vector stage's Run is built on the vector
// core alone, and the cube stage's Run is judged by its own call.
#include "kernel_operator.h"

template <typename Ring>
class CubeStage {
public:
  __aicore__ inline void Run(__gm__ int64_t *args) {
    AscendC::Mmad(c, a, b, params);
  }
};

template <typename Ring>
class VecStage {
public:
  __aicore__ inline void Run(__gm__ int64_t *args) {
    AscendC::TPipe pipe;
    pipe.InitBuffer(inQueue, 2, 2048);
    AscendC::PipeBarrier<PIPE_V>();
    pipe.Destroy();
  }
};

class SharedStage {
public:
  __aicore__ inline void Run(__gm__ int64_t *args) {
    AscendC::TPipe pipe; // want `.pipe. is created where the cube core`
    pipe.InitBuffer(inQueue, 2, 2048);
  }
};

extern "C" __global__ __aicore__ void staged(__gm__ int64_t *args) {
#if defined(__DAV_C220_CUBE__)
  CubeStage<int>().Run(args);
#elif defined(__DAV_C220_VEC__)
  VecStage<int>().Run(args);
#endif
  SharedStage{}.Run(args);
}

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
