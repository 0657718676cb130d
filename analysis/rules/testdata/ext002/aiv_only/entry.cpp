// A vector-only extern: the pipe needs no guard.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void aiv_entry(__gm__ int64_t *args) {
  AscendC::TPipe pipe;
  pipe.InitBuffer(inQueue, 2, 2048);
  AscendC::PipeBarrier<PIPE_V>();
}
