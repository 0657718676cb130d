// The twin that calls the library's barrier on its cube cores: the
// barrier's flag 11 and the hand-off's are one counter.
#include "barrier.h"

constexpr uint16_t kHandoff = 11;

extern "C" __global__ __aicore__ void handoff_barrier(GM_ADDR x) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
  AllCoreBarrier<false>();
  wait_flag_dev(kHandoff);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kHandoff); // want "flag 11 for a mode-2 vector→cube handshake, but the mode-0 barrier of all cube cores at barrier.h:14"
#endif
}
