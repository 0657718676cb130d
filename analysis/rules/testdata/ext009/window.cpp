// A task output written by the scalar unit and written back without a
// dsb, then a notify to the other ranks: whether that is a hazard depends
// on whether the notify can tell a reader of the output to read.
#include "gm_util.h"

struct CommContext {
  uint64_t rankId;
  uint64_t windowsIn[8];
};

template <typename T>
__aicore__ inline __gm__ T *peer_ptr(__gm__ CommContext *ctx, __gm__ T *local, int peer) {
  uint64_t base = ctx->windowsIn[ctx->rankId];
  return reinterpret_cast<__gm__ T *>(ctx->windowsIn[peer] + (reinterpret_cast<uint64_t>(local) - base));
}

__aicore__ inline __gm__ int32_t *data_of(__gm__ int64_t *args, int slot) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[slot]);
  return reinterpret_cast<__gm__ int32_t *>(t->buffer.addr) + t->start_offset;
}

// The notify goes into the peers' windows; their waiters read their own
// windows, never this task's output.
extern "C" __global__ __aicore__ void count_then_notify(__gm__ int64_t *args) {
  __gm__ int32_t *totals = data_of(args, 0);
  __gm__ int32_t *done = data_of(args, 1);
  __gm__ CommContext *ctx = reinterpret_cast<__gm__ CommContext *>(args[2]);
  int me = static_cast<int>(ctx->rankId);
  totals[0] = 3;
  dcci((__gm__ void *)totals, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "info: EXT009 .*`pto::comm::TNOTIFY\\(sig, 1, pto::comm::NotifyOp::AtomicAdd\\)` \\(line 35\\) notifies a rank through its comm window.*robustness note"
  for (int peer = 0; peer < 2; ++peer) {
    if (peer == me) continue;
    __gm__ int32_t *remote = peer_ptr(ctx, done + me, peer);
    pto::comm::Signal sig(remote);
    pto::comm::TNOTIFY(sig, 1, pto::comm::NotifyOp::AtomicAdd);
  }
}

// The scalar store is into the window the notify publishes: its reader
// can see the old bytes.
extern "C" __global__ __aicore__ void window_then_notify(__gm__ int64_t *args) {
  __gm__ int32_t *done = data_of(args, 1);
  __gm__ CommContext *ctx = reinterpret_cast<__gm__ CommContext *>(args[2]);
  int me = static_cast<int>(ctx->rankId);
  done[8] = 3;
  dcci((__gm__ void *)(done + 8), SINGLE_CACHE_LINE, CACHELINE_OUT); // want "warning: EXT009 .*`pto::comm::TNOTIFY\\(sig, 1, pto::comm::NotifyOp::AtomicAdd\\)` \\(line 49\\) tells another core to read before any `dsb`"
  __gm__ int32_t *remote = peer_ptr(ctx, done + me, 1);
  pto::comm::Signal sig(remote);
  pto::comm::TNOTIFY(sig, 1, pto::comm::NotifyOp::AtomicAdd);
}

// A notify on a signal word of this rank (not through a window base): a
// core of this task can wait on it and read the output.
extern "C" __global__ __aicore__ void count_then_local_notify(__gm__ int64_t *args) {
  __gm__ int32_t *totals = data_of(args, 0);
  __gm__ int32_t *done = data_of(args, 1);
  totals[0] = 3;
  dcci((__gm__ void *)totals, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "warning: EXT009 .*`pto::comm::TNOTIFY\\(sig, 1, pto::comm::NotifyOp::AtomicAdd\\)` \\(line 60\\) tells another core to read before any `dsb`"
  pto::comm::Signal sig(done);
  pto::comm::TNOTIFY(sig, 1, pto::comm::NotifyOp::AtomicAdd);
}

// Waiting signals no one; the barrier after it does.
extern "C" __global__ __aicore__ void count_wait_then_barrier(__gm__ int64_t *args) {
  __gm__ int32_t *totals = data_of(args, 0);
  __gm__ int32_t *done = data_of(args, 1);
  totals[1] = 4;
  dcci((__gm__ void *)totals, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "warning: EXT009 .*`AscendC::SyncAll<false>\\(\\)` \\(line 71\\) tells another core to read before any `dsb`"
  pto::comm::Signal sig(done);
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  AscendC::SyncAll<false>();
}
