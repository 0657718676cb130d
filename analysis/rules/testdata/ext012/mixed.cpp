// Mixed extern: the cube ends with a Fixpipe to GM and only the vector side
// drains.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void mixed_entry(__gm__ int64_t *args) {
  AscendC::GlobalTensor<float> cGm;
  AscendC::LocalTensor<float> l0c;
  AscendC::LocalTensor<float> vecUb;
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(l0c, a, b, params);
  AscendC::Fixpipe(cGm, l0c, fixParams); // want "leaves its store in flight when the extern returns on the cube core"
#endif
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::DataCopy(cGm, vecUb, 64);
  AscendC::PipeBarrier<PIPE_ALL>();
#endif
}
