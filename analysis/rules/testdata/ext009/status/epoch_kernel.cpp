// A barrier across ranks whose epoch word every core keeps: each core
// reads it, counts the peers in, and stores the next epoch.
#include "kernel_operator.h"

// Every core stores the same epoch: each core reads its own copy back
// next time, equal to every other core's, and the kernel's end writes it
// back for the next launch.
__aicore__ inline void AdvanceEpoch(__gm__ int32_t *window, uint32_t index) {
  __gm__ int32_t *epoch = window + index;
  const int32_t next = *epoch + 1;
  pipe_barrier(PIPE_ALL);
  *epoch = next;
}

// A per-core slot: the value differs between cores, and the barrier after
// it tells the others to read.
__aicore__ inline void PublishSlot(__gm__ int32_t *window) {
  int32_t me = static_cast<int32_t>(get_block_idx());
  window[me * 16] = me; // want "warning: EXT009 .*`window\\[me \\* 16\\] = me`.*stays in this core's data cache"
}

// Only the first core stores: the others keep the old epoch.
__aicore__ inline void AdvanceEpochOnce(__gm__ int32_t *window, uint32_t index) {
  if (get_block_idx() == 0) {
    window[index] = window[index] + 1; // want "warning: EXT009 .*`window\\[index\\] = window\\[index\\] \\+ 1`"
  }
}

extern "C" __global__ __aicore__ void epoch_barrier(__gm__ int32_t *window) {
  AdvanceEpoch(window, 4096);
  AscendC::SyncAll();
  PublishSlot(window);
  AscendC::SyncAll();
  AdvanceEpochOnce(window, 8192);
  AscendC::SyncAll();
}
