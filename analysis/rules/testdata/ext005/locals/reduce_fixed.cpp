// The fixed twin: the local holds an id the barrier does not use, and a
// constant of the same name in another function is not this local.
#include "kernel_operator.h"

__aicore__ inline void other_phase() {
  const int readyId = 13;
  (void)readyId;
}

extern "C" __global__ __aicore__ void reduce_rows_fixed(GM_ADDR x, GM_ADDR y) {
  int readyId = 3;
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(readyId);
  AscendC::CrossCoreWaitFlag(readyId);
  AscendC::SyncAll<false>();
}
