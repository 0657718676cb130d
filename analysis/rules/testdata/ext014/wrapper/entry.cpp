#include "sync.h"

constexpr uint64_t PV_READY = 6;
constexpr uint64_t ROW_BARRIER = 6;
constexpr uint16_t kStage = 7;
constexpr uint16_t kCubeStage = 7;
constexpr uint16_t kShared = 8; // both synchronisations name it: no fix can split them

extern "C" __global__ __aicore__ void paged_attention(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
  FftsCrossCoreSync<PIPE_FIX, 2>(PV_READY);
  Notify<0, PIPE_FIX>(kCubeStage);
  Notify<0, PIPE_FIX>(kShared);
#endif
#ifdef __DAV_C220_VEC__
  wait_flag_dev(PV_READY);
  AscendC::PipeBarrier<PIPE_V>();
  FftsCrossCoreSync<PIPE_MTE3, 0>(ROW_BARRIER); // want "`FftsCrossCoreSync<PIPE_MTE3, 0>\\(ROW_BARRIER\\)` uses FFTS flag 6 for a mode-0 barrier of all vector cores, but the mode-2 cube→vector handshake"
  wait_flag_dev(ROW_BARRIER);
  Notify<2, PIPE_MTE3>(kStage); // want "flag 7 for a mode-2 vector→cube handshake, but the mode-0 barrier of all cube cores"
  Notify<2, PIPE_MTE3>(kShared); // want "flag 8 for a mode-2 vector→cube handshake"
  CrossCoreFlag f{5};
  NotifyFlag<2, PIPE_MTE3>(f);
#endif
}
