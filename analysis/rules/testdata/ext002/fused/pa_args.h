// args[] layout of the fused extern and descriptor helpers.
#pragma once
#include "kernel_operator.h"

constexpr int32_t kOut = 0;
constexpr int32_t kQuery = 1;
constexpr int32_t kBlockTable = 4;
constexpr int32_t kRopeCos = 12;
constexpr int32_t kSlotMapping = 15;
constexpr int32_t kSeqLens = 16;
constexpr int32_t kCacheRowOffset = 17;
constexpr int32_t kBatch = 8;

template <typename T>
__aicore__ inline __gm__ T *arg_data(__gm__ int64_t *args, int32_t idx) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[idx]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

__aicore__ inline int64_t arg_rows(__gm__ int64_t *args, int32_t idx) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[idx]);
  return t->shapes[0];
}

// dcci every cache line of a small GM table before scalar reads.
__aicore__ inline void refresh_lines(__gm__ void *p, uint32_t bytes) {
  for (uint32_t off = 0; off < bytes; off += 64) {
    dcci(reinterpret_cast<__gm__ uint8_t *>(p) + off, SINGLE_CACHE_LINE);
  }
}
