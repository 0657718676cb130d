// count_blocks.cpp built for A2 only (SOC_VERSION Ascend910B1): the
// compiler's kernel-end DCCI writes the word back.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void count_blocks_a2(__gm__ uint32_t *x) {
  int32_t idx = block_idx;
  x[idx] += 1;
}

void count_blocks_a2_do(uint32_t blocks, void *stream, uint32_t *x) {
  count_blocks_a2<<<blocks, nullptr, stream>>>(x);
}
