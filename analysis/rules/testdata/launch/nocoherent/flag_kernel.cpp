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

// A helper the kernel calls last: nothing after its store, there or in the
// kernel, tells another core to read, so the kernel's end writes it back
// before the host reads the status.
__aicore__ inline void record(__gm__ int32_t *status, int32_t v) {
  status[2] = v;
}

// The same helper's store of each core's own value before a barrier is
// read by the other cores after it: the kernel's end is too late.
__aicore__ inline void announce(__gm__ int32_t *status, int32_t v) {
  status[3] = v; // want "EXT009 gm-scalar-write: scalar store `status\\[3\\] = v`"
}

extern "C" __global__ __aicore__ void report(__gm__ int32_t *status) {
  announce(status, static_cast<int32_t>(GetBlockIdx()));
  AscendC::SyncAll<false>();
  record(status, 2);
}
