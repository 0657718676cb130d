// Built with -cce-aicore-dcci-insert-for-scalar=false (CMakeLists.txt): the
// cache rules hold, the runtime's do not.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void publish(__gm__ int32_t *flags) {
  uint32_t blk = GetBlockIdx();
  flags[blk * 16] = 1; // want "EXT009 gm-scalar-write: scalar store `flags\\[blk \\* 16\\] = 1` through `__gm__` pointer `flags` stays in this core's data cache"
  AscendC::SyncAll<false>();
}

// The kernel's end: the build keeps the compiler's dcci-before-kernel-end,
// which writes the line back before the host reads it.
extern "C" __global__ __aicore__ void finish(__gm__ int32_t *status) {
  status[0] = 1;
}

// A helper's store is not at the kernel's end.
__aicore__ inline void mark(__gm__ int32_t *status) {
  status[1] = 2; // want "EXT009 gm-scalar-write"
}
