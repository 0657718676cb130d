// A standalone kernel built without the compiler's scalar dcci: a loop that
// walks a prefix-sum table reads a new word each time (no poll), a loop
// that waits on one word polls it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scan(__gm__ uint32_t *starts, __gm__ int32_t *ready, uint32_t batch) {
  AscendC::GlobalTensor<uint32_t> table;
  table.SetGlobalBuffer(starts);
  uint32_t task = 0;
  uint32_t work = AscendC::GetBlockIdx();
  while (task < batch && work >= table.GetValue(task + 1)) {
    task++;
  }
  while (ready[0] == 0) { // want "EXT001 gm-scalar-read: scalar read `ready\\[0\\]` of `__gm__` pointer `ready`, read in a polling loop"
  }
  (void)task;
}
