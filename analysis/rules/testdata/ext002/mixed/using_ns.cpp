// A second mixed entry that spells the type unqualified.
#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void mm() { Mmad(c, a, b, params); PipeBarrier<PIPE_V>(); }

extern "C" __global__ __aicore__ void using_entry(__gm__ int64_t *args) {
  TPipe pipe; // want `.AscendC::TPipe. .pipe. is created where the cube core`
  pipe.InitBuffer(inQueue, 2, 2048);
  mm();
}
