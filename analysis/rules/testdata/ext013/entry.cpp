// Vector reduction: every core publishes a partial result by scalar store.
#include "slots.h"

extern "C" __global__ __aicore__ void reduce(__gm__ int64_t *args) {
  __gm__ float *partial = reinterpret_cast<__gm__ float *>(args[0]);
  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[1]);
  __gm__ Slot *slots = reinterpret_cast<__gm__ Slot *>(args[2]);
  __gm__ int64_t *lanes = reinterpret_cast<__gm__ int64_t *>(args[3]);
  __gm__ PaddedSlot *padded = reinterpret_cast<__gm__ PaddedSlot *>(args[4]);
  __gm__ ManualPad *manual = reinterpret_cast<__gm__ ManualPad *>(args[5]);
  __gm__ int32_t *wide = reinterpret_cast<__gm__ int32_t *>(args[6]);
  uint32_t n = static_cast<uint32_t>(args[7]);
  uint32_t blockIdx = get_block_idx(args);
  float sum = 0.0f;

  partial[get_block_idx(args)] = sum; // want "EXT013 gm-false-sharing: `partial\\[get_block_idx\\(args\\)\\]` stores to a GM slot 4 bytes from the next core's \\(`get_block_idx\\(args\\)` steps 1 × 4-byte `float`\\): 16 cores' slots share a 64-byte cache line"
  flags[blockIdx * kFlagStride] = 1; // want "slot 16 bytes from the next core's \\(`get_block_idx\\(args\\)` steps 4 × 4-byte `int32_t`\\): 4 cores"
  slots[blockIdx].sum += sum; // want "slot 8 bytes from the next core's"
  lanes[CoreId()] = 1; // want "`AscendC::GetSubBlockIdx\\(\\)` steps 1 × 8-byte `int64_t`"
  dcci(partial, ENTIRE_DATA_CACHE, CACHELINE_OUT);
  dsb(DSB_DDR);

  // Near-misses.
  wide[blockIdx * kSlotElems] = 1;             // 512-byte slots
  padded[blockIdx].sum = sum;                  // alignas(64)
  manual[blockIdx].sum = sum;                  // padded by hand to 64 bytes
  partial[blockIdx * n] = sum;                 // stride only known at run time
  for (uint32_t i = 0; i < n; ++i) {
    partial[i] = sum;                          // not a per-core slot
  }
  if (blockIdx == 0) {
    partial[blockIdx] = sum;                   // one core writes
  }
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> ub;
  AscendC::DataCopy(outGm[blockIdx], ub, 8);   // DMA, not a scalar store
}

extern "C" __global__ __aicore__ void leader_only(__gm__ int64_t *args) {
  __gm__ float *partial = reinterpret_cast<__gm__ float *>(args[0]);
  uint32_t blockIdx = get_block_idx(args);
  if (blockIdx != 0) {
    return;
  }
  partial[blockIdx] = 1.0f;                    // only core 0 gets here
}
