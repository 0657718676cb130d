// Both sides use one header's ids; a vector barrier on its own id, and
// the hardware SyncAll's ids beside it: all silent.
#include "cube_ids.h"

extern "C" __global__ __aicore__ void tile_pipeline_ok(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(cube_side::kTileReady);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(cube_side::kTileReady);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(3);
    AscendC::CrossCoreWaitFlag(3);
  }
  AscendC::SyncAll<false>();
}
