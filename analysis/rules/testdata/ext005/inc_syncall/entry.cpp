// A vector-only extern whose barrier comes from a header.
#include "kernel_operator.h"
#include "barrier.h"

enum Ev : uint16_t { EV_PING = 11, EV_PONG };

extern "C" __global__ __aicore__ void aiv_entry(__gm__ int64_t *args) {
  AscendC::PipeBarrier<PIPE_V>();
  global_barrier();
  // A mode-1 set counts on the other vector core's 11: the vector-only
  // SyncAll waits on 14 alone.
  AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(EV_PING); // want "warning: EXT005 .*one of the ids the hardware `SyncAll` of this (kernel|extern) reserves \\(flags 11–14\\): the dav-c220 barrier as written does not count on the counter this call touches"
  AscendC::CrossCoreWaitFlag<1>(EV_PONG); // want "flag 12 \\(`EV_PONG`\\)"
  AscendC::CrossCoreSetFlag<1, PIPE_MTE3>(8);
}
