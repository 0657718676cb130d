// An A5 kernel (its conditionals name dav-c310 only) that a sample's
// ascendc_library compiles from another folder: its store is dropped at
// the kernel's end.
#include "kernel_operator.h"

#if defined(__DAV_C310__)
constexpr int32_t kLanes = 2;
#endif

extern "C" __global__ __aicore__ void write_value(__gm__ int *dev, int value) {
  int32_t idx = block_idx;
  dev[idx * kLanes] = value; // want "warning: EXT009 .*`dev\\[idx \\* kLanes\\] = value`.* is lost when the kernel ends: .*\\(\\.\\./app/CMakeLists.txt:4: `ascendc_library` builds for A5, dav-c310, .*\\(A5: its conditionals name dav-c310 alone\\)"
}

void write_do(uint32_t blocks, void *stream, int *dev, int value) {
  write_value<<<blocks, nullptr, stream>>>(dev, value);
}
