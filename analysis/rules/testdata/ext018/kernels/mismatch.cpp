// A cube -> vector handshake whose two sides take the ready id from
// different headers.
#include "cube_ids.h"
#include "vec_ids.h"

extern "C" __global__ __aicore__ void tile_pipeline(__gm__ int64_t *args) {
  for (int t = 0; t < 8; ++t) {
    if ASCEND_IS_AIC {
      using namespace cube_side;
      AscendC::Mmad(c, a, b, params);
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kTileReady);
      AscendC::CrossCoreWaitFlag(kTileFree);
    }
    if ASCEND_IS_AIV {
      vec_side::AwaitTile();
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(vec_side::kTileFree);
    }
  }
}
