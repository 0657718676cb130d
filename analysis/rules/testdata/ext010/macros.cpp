// The project's handshake macros take the flag id: a use under a lane
// test sets the flag on one lane only, like the call it expands to.
#include "flags.h"

#define SIGNAL_PAIR(id) AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(id)
#define SYNC_LANES(id) AscendC::CrossCoreSetFlag<0x1, PIPE_V>(id)
#define WAIT_PAIR(id) AscendC::CrossCoreWaitFlag(id)

extern "C" __global__ __aicore__ void macro_handshake(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  WAIT_PAIR(kQkReady);
  uint32_t lane = get_sub_block_id(args);
  if (lane == 0) {
    SIGNAL_PAIR(kSoftmaxReady); // want "EXT010.*`SIGNAL_PAIR\\(kSoftmaxReady\\)` only runs on the vector lane that passes `if \\(lane == 0\\)`: the mode-2 flag"
  }
  if (lane != 0) {
    SYNC_LANES(LANE_SYNC_FLAG); // want "EXT010.*`SYNC_LANES\\(LANE_SYNC_FLAG\\)`.*the mode-1 flag"
  }
  // Near-misses: both lanes set.
  if (lane == 0) {
    SIGNAL_PAIR(kPvReady);
  } else {
    SIGNAL_PAIR(kPvReady);
  }
  if (get_block_idx(args) < static_cast<uint32_t>(args[2])) {
    SIGNAL_PAIR(kQkReady);
  }
  if (lane == 0) {
    WAIT_PAIR(kPvReady);
  }
#endif
}
