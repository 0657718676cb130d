// Guards written with a header's core-valued macros select the core like
// the macros they were made from.
#include "core_select.h"
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void derived_guards(__gm__ int64_t *args) {
#if ON_VEC
  AscendC::TPipe vecPipe;
  vecPipe.InitBuffer(inQueue, 2, 2048);
  AscendC::PipeBarrier<PIPE_V>();
#endif
#ifdef VEC_ONLY
  AscendC::TPipe flagPipe;
  flagPipe.InitBuffer(inQueue, 2, 2048);
#endif
#if !ON_VEC
  AscendC::Mmad(c, a, b, params);
  AscendC::TPipe cubePipe; // want `.cubePipe. is created where the cube core`
  cubePipe.InitBuffer(inQueue, 2, 2048);
#endif
}
