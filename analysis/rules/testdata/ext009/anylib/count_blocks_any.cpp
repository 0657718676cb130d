// count_blocks.cpp in a project that names no A5 product, SOC or guard:
// the kernel-end write-back of an A2/A3 build is assumed.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void count_blocks_any(__gm__ uint32_t *x) {
  int32_t idx = block_idx;
  x[idx] += 1;
}

void count_blocks_any_do(uint32_t blocks, void *stream, uint32_t *x) {
  count_blocks_any<<<blocks, nullptr, stream>>>(x);
}
