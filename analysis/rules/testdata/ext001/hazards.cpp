// Reads that are real hazards (warnings, saying why) next to their fixed
// twins: after a barrier, after a flag wait in a caller, after this core's
// own DMA write, and in a polling loop.
#include "meta_util.h"

__aicore__ inline void publish(__gm__ int32_t *slot, int32_t v) {
  *slot = v;
  dcci(slot, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

__aicore__ inline int32_t neighbour_total(__gm__ int32_t *counts, uint32_t blk) {
  return counts[blk ^ 1]; // want "warning: EXT001 .*read after a caller of `neighbour_total` waits for another core \\(`AscendC::CrossCoreWaitFlag\\(3\\)`\\)"
}

__aicore__ inline int32_t neighbour_total_fresh(__gm__ int32_t *counts, uint32_t blk) {
  dcci(&counts[blk ^ 1], SINGLE_CACHE_LINE);
  return counts[blk ^ 1];
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ int32_t *counts = input_data<int32_t>(args, 0);
  __gm__ int32_t *flag = input_data<int32_t>(args, 1);
  __gm__ float *out = input_data<float>(args, 2);
  uint32_t blk = get_block_idx(args);

  publish(counts + blk, 1);
  // This core's load caches the neighbour's line again before the barrier.
  int32_t seen = counts[blk ^ 1];
  AscendC::SyncAll<false>();
  int32_t left = counts[blk ^ 1]; // want "warning: EXT001 .*read after `AscendC::SyncAll<false>\\(\\)` \\(line 30\\) waits for other cores.*`counts\\[blk \\^ 1\\]` \\(line 29\\) can have cached the line"
  dcci(counts, ENTIRE_DATA_CACHE);
  int32_t right = counts[blk ^ 1];

  AscendC::CrossCoreWaitFlag(3);
  int32_t t = neighbour_total(counts, blk) + neighbour_total_fresh(counts, blk);

  // This core's own DMA write, then a scalar read of the same buffer.
  AscendC::GlobalTensor<float> outGm;
  outGm.SetGlobalBuffer(out);
  AscendC::LocalTensor<float> ub;
  float last = out[0];
  AscendC::DataCopy(outGm, ub, 64);
  AscendC::SetFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE3_S>(EVENT_ID0);
  float first = out[0]; // want "warning: EXT001 .*read after this core's own DMA write `AscendC::DataCopy\\(outGm, ub, 64\\)`"
  dcci(out, SINGLE_CACHE_LINE);
  float again = out[0];

  // Polling a flag another core sets: without a dcci per iteration the
  // loop spins on its cached line.
  while (flag[blk] == 0) { // want "warning: EXT001 .*read in a polling loop"
  }
  do {
    dcci(&flag[blk], SINGLE_CACHE_LINE);
  } while (flag[blk] == 0);
  for (;;) {
    if (flag[blk + 1] != 0) { // want "warning: EXT001 .*polling loop"
      break;
    }
  }
  flag[blk] = 0;
  dcci(&flag[blk], SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// A signal word a method hands back: the loop's dcci of that pointer
// refreshes the line it polls; without it the loop spins.
struct SignalSlots {
  __gm__ int32_t *base;
  __aicore__ inline __gm__ int32_t *signal(uint32_t r) const { return base + r * 16; }
};

extern "C" __global__ __aicore__ void poll_method(__gm__ int64_t *args) {
  SignalSlots slots{reinterpret_cast<__gm__ int32_t *>(args[0])};
  const int32_t epoch = static_cast<int32_t>(args[1]);
  __gm__ int32_t *sig = slots.signal(3);
  while (true) {
    dcci(sig, SINGLE_CACHE_LINE);
    if (*sig == epoch) {
      break;
    }
  }
  __gm__ int32_t *other = slots.signal(4);
  while (true) {
    if (*other == epoch) { // want "warning: EXT001 .*read in a polling loop"
      break;
    }
  }
}
