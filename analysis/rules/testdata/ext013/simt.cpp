// One SIMT thread per core publishes the core's partial sum: SIMT stores
// take the vector unit's SIMT path, not the scalar cache's write-back.
#include "slots.h"

__simt_vf__ __aicore__ LAUNCH_BOUND(128) inline void publish_partial(__gm__ float *dst, float v) {
  if (threadIdx.x == 0) {
    dst[AscendC::GetBlockIdx()] = v;
  }
}

extern "C" __global__ __aicore__ void simt_reduce(__gm__ int64_t *args) {
  __gm__ float *partial = reinterpret_cast<__gm__ float *>(args[0]);
  publish_partial(partial, 1.0f);
  partial[get_block_idx(args) + 64] = 2.0f; // want "EXT013 .*stores to a GM slot 4 bytes from the next core's"
  dcci(partial, ENTIRE_DATA_CACHE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
