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

// A member set from the core id through a cast in Init, read in another
// method: 32-byte records, two cores to a line.
struct CastRec {
  float sum;
  uint32_t count;
  uint32_t pad[6];
};

class CastPublisher {
public:
  __aicore__ inline void Init(__gm__ int64_t *args) {
    block_ = static_cast<uint32_t>(get_block_idx(args));
    recs_ = reinterpret_cast<__gm__ CastRec *>(args[1]);
  }
  __aicore__ inline void Publish(float s) {
    __gm__ CastRec *mine = recs_ + block_;
    mine->sum = s; // want "EXT013 .*`mine->sum` stores to a GM slot 32 bytes from the next core's \\(`block_` steps 1 × 32-byte `CastRec`"
    dcci(reinterpret_cast<__gm__ void *>(mine), SINGLE_CACHE_LINE, CACHELINE_OUT);
    dsb(DSB_DDR);
  }
private:
  uint32_t block_ = 0;
  __gm__ CastRec *recs_ = nullptr;
};

extern "C" __global__ __aicore__ void cast_member(__gm__ int64_t *args) {
  CastPublisher p;
  p.Init(args);
  p.Publish(1.0f);
}
