// A mixed extern whose stages meet at template fences.
#include "fence.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::Mmad(c, a, b, params);
  AscendC::PipeBarrier<PIPE_V>();
  StageFence();
  MixFence<false>();
  GemmPolicy<>::Barrier::Arrive();
  MixBarrier<false>::Arrive();
  MixBarrier<>::Arrive();
  PHASE_BARRIER(); // want "`PHASE_BARRIER` expands to `AscendC::SyncAll\\(\\)`, the vector-only barrier"
  PHASE_FENCE();
  DRAIN_FENCE();
  CROSS_FENCE();
#ifdef __DAV_C220_VEC__
  PHASE_BARRIER();
#endif
  (void)args;
}
