// count_blocks.cpp with the A5 fix: the kernel writes its word out itself
// before the wrapper's dci; the wrapper's dsb waits for it.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void count_blocks_fixed(__gm__ uint32_t *x) {
  int32_t idx = block_idx;
  x[idx] += 1;
#if __NPU_ARCH__ == 3510
  dcci(reinterpret_cast<__gm__ int64_t *>(x), cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
#endif
}

void count_blocks_fixed_do(uint32_t blocks, void *stream, uint32_t *x) {
  count_blocks_fixed<<<blocks, nullptr, stream>>>(x);
}
