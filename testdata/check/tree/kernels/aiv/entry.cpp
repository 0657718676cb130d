// A vector-only extern: the default barrier is right here.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void aiv_entry(__gm__ int64_t *args) {
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::SyncAll();
}
