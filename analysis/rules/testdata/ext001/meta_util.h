// Metadata helpers of the kind decode kernels carry: a task input holding a
// tiling block, refreshed line by line through integer addresses.
#pragma once
#include "kernel_operator.h"

struct PlanTiling {
  int32_t rows;
  int32_t cols;
  int32_t blocks;
};

constexpr uint64_t kLineBytes = 64;
constexpr uint64_t kPlanOffset = 128;

template <typename T>
__aicore__ inline __gm__ T *input_data(__gm__ int64_t *args, int32_t slot) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[slot]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

// Invalidates every cache line of [base, base + bytes).
__aicore__ inline void refresh_range(__gm__ uint8_t *base, uint64_t bytes) {
  uint64_t first = reinterpret_cast<uint64_t>(base) & ~(kLineBytes - 1);
  uint64_t end = reinterpret_cast<uint64_t>(base) + bytes;
  for (uint64_t line = first; line < end; line += kLineBytes) {
    dcci(reinterpret_cast<__gm__ void *>(line), SINGLE_CACHE_LINE);
  }
  dsb(DSB_DDR);
}

// A helper calling a helper: the summary is transitive.
__aicore__ inline void refresh_meta(__gm__ uint8_t *meta) { refresh_range(meta, kPlanOffset + sizeof(PlanTiling)); }
