// Events, flags and barriers called through a forwarding macro are the
// calls they expand to: `INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, EVENT_ID0)`
// is `set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0)` for the event, flag and
// barrier rules as for the summaries.
#include "kernel_operator.h"
#include "trace_debug.h"

extern "C" __global__ __aicore__ void forwarded_events_paired(__gm__ int64_t *args) {
  INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, EVENT_ID0);
  INTRINSIC(wait_flag, PIPE_MTE2, PIPE_V, EVENT_ID0);
  INTRINSIC(pipe_barrier, PIPE_ALL);
}

extern "C" __global__ __aicore__ void forwarded_event_leaked(__gm__ int64_t *args) {
  INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, EVENT_ID1); // want "EXT015.*`INTRINSIC\\(set_flag, PIPE_MTE2, PIPE_V, EVENT_ID1\\)` sets event MTE2_V id 1, and no wait of it follows"
  INTRINSIC(pipe_barrier, PIPE_ALL);
}

extern "C" __global__ __aicore__ void forwarded_flags(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  INTRINSIC(ffts_cross_core_sync, PIPE_FIX, 0x1 | (2 << 4) | (6 << 8));
#endif
#ifdef __DAV_C220_VEC__
  INTRINSIC(wait_flag_dev, 6);
  INTRINSIC(ffts_cross_core_sync, PIPE_MTE3, 0x1 | (0 << 4) | (6 << 8)); // want "EXT014.*uses FFTS flag 6 for a mode-0 barrier of all vector cores, but the mode-2 cube→vector handshake"
  INTRINSIC(wait_flag_dev, 6);
#endif
  INTRINSIC(pipe_barrier, PIPE_ALL);
}

extern "C" __global__ __aicore__ void forwarded_barrier(__gm__ int64_t *args) {
  if (get_block_idx(args) >= 20) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(get_block_idx\\(args\\) >= 20\\)` can leave before the hardware barrier `INTRINSIC_NO_ARGS\\(AscendC::SyncAll\\)`"
  }
  INTRINSIC_NO_ARGS(AscendC::SyncAll);
  INTRINSIC(pipe_barrier, PIPE_ALL);
}

// The forwarded callee may carry template arguments: `SyncAll<false>` is
// still the hardware barrier, now of every core.
extern "C" __global__ __aicore__ void forwarded_template_barrier(__gm__ int64_t *args) {
  if (get_block_idx(args) >= 20) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(get_block_idx\\(args\\) >= 20\\)` can leave before the hardware barrier `INTRINSIC_NO_ARGS\\(AscendC::SyncAll<false>\\)`"
  }
  INTRINSIC_NO_ARGS(AscendC::SyncAll<false>);
  INTRINSIC(pipe_barrier, PIPE_ALL);
}
