// A mixed extern: cube matmul, vector epilogue, barriers between the phases.
#include "kernel_operator.h"
#include "barrier.h"

__aicore__ inline void cube_phase() {
  AscendC::Mmad(c, a, b, params);
}

__aicore__ inline void vec_phase() {
  AscendC::PipeBarrier<PIPE_V>();
}

extern "C" __global__ __aicore__ void mixed_entry(__gm__ int64_t *args) {
  cube_phase();
  /* Größe: 2 tiles */ SyncAll<true>();
  vec_phase();
  AscendC::SyncAll(); // NOLINT(EXT004): the cube returned above in this variant
  AscendC::SyncAll<false>(); // NOLINT(syncall-aiv-only)
#ifdef __DAV_C220_VEC__
  AscendC::SyncAll();
#endif
  phase_barrier();
  AscendC::SyncAll<>();
}
