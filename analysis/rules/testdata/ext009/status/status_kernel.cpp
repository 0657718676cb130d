// A root rank records each transfer's status word for the host and
// notifies the receiving rank through its comm window; the receivers
// record theirs and leave. The host reads the status words after the
// kernel, when the kernel-end write-back has run.
#include "kernel_operator.h"

struct CommDeviceContext {
  uint64_t rankId;
  uint64_t rankNum;
  uint64_t windowsIn[8];
};

template <typename T>
__aicore__ inline __gm__ T *RemoteOf(__gm__ CommDeviceContext *ctx, __gm__ T *local, int peer) {
  uint64_t base = ctx->windowsIn[ctx->rankId];
  return reinterpret_cast<__gm__ T *>(ctx->windowsIn[peer] + (reinterpret_cast<uint64_t>(local) - base));
}

__aicore__ inline void WakePeer(__gm__ int32_t *signal, __gm__ CommDeviceContext *ctx, int peer, uint32_t seq) {
  pto::comm::Signal sig(RemoteOf(ctx, signal, peer));
  pipe_barrier(PIPE_ALL);
  pto::comm::TNOTIFY(sig, static_cast<int32_t>(seq + 1), pto::comm::NotifyOp::Set);
}

// The notify wakes the peer's waiter, which reads its own window: the
// status word is not what it reads.
__aicore__ inline void Record(__gm__ uint32_t *status, __gm__ int32_t *signal, __gm__ CommDeviceContext *ctx, int peer,
                              uint32_t seq) {
  status[seq] = 1U;
  WakePeer(signal, ctx, peer, seq);
}

// The status word is handed to the helper that notifies: it may publish it.
__aicore__ inline void RecordInto(__gm__ int32_t *signal, __gm__ CommDeviceContext *ctx, int peer) {
  signal[4] = 7; // want "warning: EXT009 .*`signal\\[4\\] = 7`.*stays in this core's data cache"
  WakePeer(signal, ctx, peer, 0);
}

// The receiver's early exit: what follows the return is another path.
__aicore__ inline void Receive(__gm__ int32_t *signal, __gm__ uint32_t *status, bool ok) {
  pto::comm::Signal sig(signal);
  if (!ok) {
    status[0] = 0U;
    return;
  }
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  status[0] = 2U;
}

extern "C" __global__ __aicore__ void transfer_status(__gm__ int32_t *signal, __gm__ uint32_t *status,
                                                     __gm__ CommDeviceContext *ctx, uint32_t posts) {
  if (ctx->rankId != 0) {
    Receive(signal, status, posts > 0);
    pipe_barrier(PIPE_ALL);
    return;
  }
  for (uint32_t seq = 0; seq < posts; ++seq) {
    Record(status, signal, ctx, 1, seq);
  }
  RecordInto(signal, ctx, 1);
  WakePeer(signal, ctx, 1, posts);
  pipe_barrier(PIPE_ALL);
}

// One core writes the totals itself; many meet at a barrier first. The
// barrier on the other branch never follows the one core's store.
__aicore__ inline void TotalsAlone(__gm__ uint32_t *status) {
  status[8] = static_cast<uint32_t>(get_block_idx());
}

__aicore__ inline void TotalsTogether(__gm__ uint32_t *status) {
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void totals(__gm__ uint32_t *status, uint32_t cores) {
  if (cores == 1) {
    TotalsAlone(status);
  } else {
    TotalsTogether(status);
  }
}

// The barrier after the store lets the other cores read it.
__aicore__ inline void TotalsThenMeet(__gm__ uint32_t *status) {
  status[9] = static_cast<uint32_t>(get_block_idx()); // want "warning: EXT009 .*`status\\[9\\] = static_cast<uint32_t>\\(get_block_idx\\(\\)\\)`"
}

extern "C" __global__ __aicore__ void meet(__gm__ uint32_t *status) {
  TotalsThenMeet(status);
  AscendC::SyncAll();
}

// Rank 0 times the round trip and records it for the host; the other rank
// writes its answer back and tells a peer core. That write-back and that
// signal are on the other path: the record waits for the kernel's end.
extern "C" __global__ __aicore__ void round_trip(GM_ADDR window, int32_t rank) {
  __gm__ int64_t *slots = reinterpret_cast<__gm__ int64_t *>(window);
  if (rank == 0) {
    slots[0] = AscendC::GetSystemCycle();
  } else {
    slots[8] = 1;
    dcci(slots + 8, SINGLE_CACHE_LINE, CACHELINE_OUT); // want "warning: EXT009 .*`slots\\[8\\] = 1`.*is written out by.*no `dsb\\(DSB_DDR\\)`"
    AscendC::CrossCoreSetFlag<0, PIPE_S>(3);
  }
}
