// The handshake's set sits in a helper that takes the id; the caller
// passes a local set once to 12, which the hardware SyncAll uses.
#include "kernel_operator.h"

__aicore__ inline void notify_ready(uint16_t id) {
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(id);
}

extern "C" __global__ __aicore__ void reduce_helper(GM_ADDR x, GM_ADDR y) {
  int readyId = 12;
  notify_ready(readyId); // want "EXT005 ffts-flag-reserved: `notify_ready` passes FFTS flag 12 \\(`readyId`\\) to `CrossCoreSetFlag`"
  AscendC::CrossCoreWaitFlag(readyId); // want "FFTS flag 12 \\(`readyId`\\)"
  AscendC::SyncAll<false>();
}

// Fixed: the local holds an id the barrier does not use.
extern "C" __global__ __aicore__ void reduce_helper_fixed(GM_ADDR x, GM_ADDR y) {
  int doneId = 3;
  notify_ready(doneId);
  AscendC::CrossCoreWaitFlag(doneId);
  AscendC::SyncAll<false>();
}
