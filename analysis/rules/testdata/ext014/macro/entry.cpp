// The project's own signalling macros carry the flag id as a parameter:
// the id is the one written at each use.
#include "kernel_operator.h"

#define SIGNAL_CUBE(id) AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(id)
#define SIGNAL_VECS(id) AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(id)
#define WAIT_SIGNAL(id) AscendC::CrossCoreWaitFlag(id)

constexpr uint16_t kRowsDone = 3;
constexpr uint16_t kTileDone = 3;
constexpr uint16_t kScoresReady = 4;
constexpr uint16_t kAllRows = 5;

extern "C" __global__ __aicore__ void macro_flags(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
  AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(kTileDone);
#endif
#ifdef __DAV_C220_VEC__
  WAIT_SIGNAL(kTileDone);
  AscendC::PipeBarrier<PIPE_V>();
  SIGNAL_CUBE(kScoresReady);
  SIGNAL_VECS(kAllRows);
  WAIT_SIGNAL(kAllRows);
  SIGNAL_VECS(kRowsDone); // want "EXT014.*`SIGNAL_VECS\\(kRowsDone\\)` uses FFTS flag 3 for a mode-0 barrier of all vector cores, but the mode-2 cube→vector handshake"
  WAIT_SIGNAL(kRowsDone);
#endif
}
