// Mixed extern: a cube->vector handshake and a vector-wide barrier that
// reuse one FFTS id.
#include "flags.h"

extern "C" __global__ __aicore__ void attention(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kQkReady);
    AscendC::CrossCoreWaitFlag(kSoftmaxReady);
  }
  if ASCEND_IS_AIV {
    AscendC::CrossCoreWaitFlag(kQkReady);
    AscendC::DataCopy(outGm, outUb, 64);
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(VEC_ALL_DONE); // want "EXT014 crossflag-id-collision: `AscendC::CrossCoreSetFlag<0, PIPE_MTE3>\\(VEC_ALL_DONE\\)` uses FFTS flag 3 for a mode-0 barrier of all vector cores, but the mode-2 cube→vector handshake at entry.cpp:8 signals flag 3 on the same vector cores"
    AscendC::CrossCoreWaitFlag(VEC_ALL_DONE);
    // A raw mode-1 lane handshake on the vector->cube id: the vector->cube
    // set counts on the cube, this one on the vectors: no collision.
    ffts_cross_core_sync(PIPE_MTE3, 0x1 | (1 << 4) | (LANE_SYNC << 8));
    wait_flag_dev(LANE_SYNC);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady);
    // The same barrier again later: same mode, same synchronisation.
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(VEC_ALL_DONE); // want "mode-0 barrier of all vector cores"
    AscendC::CrossCoreWaitFlag(VEC_ALL_DONE);
  }
}
