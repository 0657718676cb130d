// A mixed extern (cube matmul + vector epilogue): a whole core type that
// leaves before SyncAll<false> hangs the other.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void mixed_entry(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
    return; // want "every cube core returns here before `AscendC::SyncAll<false>\\(\\)` \\(line 14\\)"
  }
  if ASCEND_IS_AIV {
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::SyncAll(); // vector-only barrier: the cube is not expected
  }
  AscendC::SyncAll<false>();
}
