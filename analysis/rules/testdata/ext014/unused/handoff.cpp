// Vector→cube hand-offs on flag 11. This kernel never calls the
// library's AllCoreBarrier, so its flag 11 meets no barrier.
#include "barrier.h"

constexpr uint16_t kHandoff = 11;

extern "C" __global__ __aicore__ void handoff(GM_ADDR x) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
  wait_flag_dev(kHandoff);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kHandoff);
#endif
}
