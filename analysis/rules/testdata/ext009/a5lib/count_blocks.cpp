// Each block counts itself into its own word of x. Nothing writes the
// word out: on A5 the end of the ascendc_library kernel drops it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void count_blocks(__gm__ uint32_t *x) {
  int32_t idx = block_idx;
  x[idx] += 1; // want "warning: EXT009 gm-scalar-write: scalar store `x\\[idx\\] \\+= 1` through `__gm__` pointer `x` is lost when the kernel ends: nothing writes it out .*the kernel's end drops the dirty line \\(CMakeLists.txt:6: `ascendc_library` builds for A5, dav-c310, end the kernel they wrap with `dsb\\(DSB_ALL\\); dci\\(\\);` \\(A5: README.md:6 lists an Ascend 950 product\\)\\), so the host and the next kernel read the old bytes"
}

void count_blocks_do(uint32_t blocks, void *stream, uint32_t *x) {
  count_blocks<<<blocks, nullptr, stream>>>(x);
}
