// A loop bounded by a count it reads is no poll: it ends on its own
// counter, whatever the count's line holds. A spin bounded by a counter
// still waits for the word it reads.
#include "meta_util.h"

struct Batch {
  uint32_t count;
  uint32_t lens[16];
};

extern "C" __global__ __aicore__ void sum_lens(__gm__ int64_t *args) {
  __gm__ Batch *batch = input_data<Batch>(args, 0);
  __gm__ int32_t *out = input_data<int32_t>(args, 1);
  __gm__ int32_t *ready = input_data<int32_t>(args, 2);
  uint32_t total = 0;
  for (uint32_t i = 0; i < batch->count && i < 16; ++i) { // want "info: EXT001 .*`batch`"
    total += batch->lens[i];
  }
  // A while loop's counter, compared through an expression, counts too.
  uint32_t last = 0;
  while (last + 1 < batch->count && batch->lens[last + 1] <= total) {
    ++last;
  }
  total += last;
  for (uint32_t spin = 0; spin < 1000 && *ready == 0; ++spin) { // want "warning: EXT001 .*`\\*ready`.*polling loop"
  }
  out[0] = static_cast<int32_t>(total);
  dcci(out, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
