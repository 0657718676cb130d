// The same helper in a tree where every #include resolves: no file calls
// it, and nothing hides a caller, so the store stays a warning.
#include "kernel_operator.h"

__aicore__ inline void AdvanceOrphanEpoch(__gm__ int32_t *window, uint32_t index) {
  __gm__ int32_t *epoch = window + index;
  const int32_t next = *epoch + 1;
  pipe_barrier(PIPE_ALL);
  *epoch = next; // want "warning: EXT009 .*`\\*epoch = next`.*stays in this core's data cache"
}

extern "C" __global__ __aicore__ void orphan_kernel(__gm__ int32_t *window) {
  window[0] = 0; // want "warning: EXT009 .*`window\\[0\\] = 0`"
  AscendC::SyncAll();
}
