// Shared helpers of the fixture extern: descriptor access, a cache-line
// flush loop, and a metadata struct living in GM.
#pragma once
#include "kernel_operator.h"

using DescT = ChipTensor;

struct BatchMeta {
  int32_t seq_len;
  int32_t block_num;
  __gm__ int32_t *block_table;
  int32_t pad[5];
};

template <typename T>
__aicore__ inline __gm__ T *tensor_data(__gm__ DescT *t) {
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

// Invalidate every cache line of [base, base + bytes).
__aicore__ inline void invalidate_lines(__gm__ void *base, uint32_t bytes) {
  for (uint32_t off = 0; off < bytes; off += 64) {
    dcci((__gm__ uint8_t *)base + off, SINGLE_CACHE_LINE);
  }
}

__aicore__ inline int64_t get_scalar(__gm__ int64_t *args, int k) { return args[k]; }
