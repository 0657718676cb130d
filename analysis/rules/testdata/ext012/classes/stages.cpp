// Two classes have a Process: the cube's stores nothing, the vector's is
// drained by the vector side's TPipe. `cube.Process()` runs CubeStage's,
// not VecStage's `Process(args)`.
#include <cstdint>
#include "kernel_operator.h"

struct CubeStage {
  __aicore__ inline void Process() { AscendC::PipeBarrier<PIPE_ALL>(); }
};

struct VecStage {
  __aicore__ inline void Process(__gm__ int64_t *args) {
    AscendC::GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(args[0]));
    AscendC::DataCopy(outGm, t_, 1024);
  }
  AscendC::LocalTensor<float> t_;
};

extern "C" __aicore__ void stages(__gm__ int64_t *args) {
#if defined(__DAV_C220_CUBE__)
  CubeStage cube;
  cube.Process();
#endif
#if defined(__DAV_C220_VEC__)
  AscendC::TPipe pipe;
  VecStage vec;
  vec.Process(args);
#endif
}
