// Reads after a wait for peers' writes: stale only when this core's scalar
// unit can have cached the line before the writes arrived (the runtime
// invalidated its cache at task start, the puts and notifies bypass it).
#include "meta_util.h"

constexpr int kRanks = 4;
constexpr int kExperts = 8;
constexpr int kOffTally = 0;
constexpr int kOffReady = kOffTally + kRanks * kExperts * 4;

__aicore__ inline __gm__ int32_t *peer_slot(__gm__ int32_t *local, int peer) {
  return local + peer * 0; // stands in for translating into a peer's window
}

// Every rank adds its histogram into every peer's tally, then meets the
// others at the ready words; nothing cached the tally before the wait.
extern "C" __global__ __aicore__ void tally_exchange(__gm__ int64_t *args) {
  __gm__ uint8_t *window = input_data<uint8_t>(args, 0);
  __gm__ int32_t *tally = reinterpret_cast<__gm__ int32_t *>(window + kOffTally);
  __gm__ int32_t *ready = reinterpret_cast<__gm__ int32_t *>(window + kOffReady);
  __gm__ int32_t *out = input_data<int32_t>(args, 1);
  int me = static_cast<int>(args[2]);
  for (int peer = 0; peer < kRanks; ++peer) {
    pto::comm::Signal add(peer_slot(tally + me * kExperts, peer));
    pto::comm::TNOTIFY(add, 1, pto::comm::NotifyOp::AtomicAdd);
  }
  pipe_barrier(PIPE_ALL);
  for (int src = 0; src < kRanks; ++src) {
    pto::comm::Signal sig(ready + src);
    pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  }
  int sum = 0;
  for (int s = 0; s < kRanks; ++s) {
    sum += tally[s * kExperts + me]; // want "info: EXT001 .*follows `pto::comm::TWAIT\\(sig, 1, pto::comm::WaitCmp::GE\\)` \\(line 30\\), which waits for other cores' writes to it, but nothing this core does in this task before that .*loads or stores `tally`"
  }
  out[me] = sum;
  dcci(out, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}

// The same exchange, but this core peeks at its tally before the wait: the
// line it cached then is what the read after the wait returns.
extern "C" __global__ __aicore__ void tally_peeked(__gm__ int64_t *args) {
  __gm__ uint8_t *window = input_data<uint8_t>(args, 0);
  __gm__ int32_t *tally = reinterpret_cast<__gm__ int32_t *>(window + kOffTally);
  __gm__ int32_t *ready = reinterpret_cast<__gm__ int32_t *>(window + kOffReady);
  int me = static_cast<int>(args[2]);
  int mine = tally[me]; // want "info: EXT001 .*nothing in this task writes before it"
  pto::comm::Signal add(peer_slot(tally + me, 1));
  pto::comm::TNOTIFY(add, mine, pto::comm::NotifyOp::AtomicAdd);
  pto::comm::Signal sig(ready + 1);
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  int total = tally[me]; // want "warning: EXT001 .*read after `pto::comm::TWAIT\\(sig, 1, pto::comm::WaitCmp::GE\\)` \\(line 52\\) waits for other cores.*`tally\\[me\\]` \\(line 48\\) can have cached the line"
  (void)total;
}

// A loop around the wait: the read of one round caches the line the next
// round's read returns.
extern "C" __global__ __aicore__ void tally_rounds(__gm__ int64_t *args) {
  __gm__ uint8_t *window = input_data<uint8_t>(args, 0);
  __gm__ int32_t *tally = reinterpret_cast<__gm__ int32_t *>(window + kOffTally);
  __gm__ int32_t *ready = reinterpret_cast<__gm__ int32_t *>(window + kOffReady);
  int acc = 0;
  for (int round = 0; round < kRanks; ++round) {
    pto::comm::Signal add(peer_slot(tally + round, 1));
    pto::comm::TNOTIFY(add, 1, pto::comm::NotifyOp::AtomicAdd);
    pto::comm::Signal sig(ready + round);
    pto::comm::TWAIT(sig, round + 1, pto::comm::WaitCmp::GE);
    acc += tally[round]; // want "warning: EXT001 .*read after `pto::comm::TWAIT.*`tally\\[round\\]` \\(line 69\\) can have cached the line"
  }
  (void)acc;
}

// A helper that loads the tally, called before the wait.
__aicore__ inline int32_t first_count(__gm__ int32_t *counts) {
  return counts[0]; // want "info: EXT001"
}

extern "C" __global__ __aicore__ void tally_helper_peek(__gm__ int64_t *args) {
  __gm__ uint8_t *window = input_data<uint8_t>(args, 0);
  __gm__ int32_t *tally = reinterpret_cast<__gm__ int32_t *>(window + kOffTally);
  __gm__ int32_t *ready = reinterpret_cast<__gm__ int32_t *>(window + kOffReady);
  int32_t f = first_count(tally);
  pto::comm::Signal sig(ready);
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  int32_t now = tally[1]; // want "warning: EXT001 .*`counts\\[0\\]` \\(in `first_count\\(tally\\)`, line 83, at uncached.cpp:76\\) can have cached the line"
  (void)f;
  (void)now;
}

// This core's own store before the wait is written back and dropped
// (dcci cleans and invalidates the line): the read after the wait misses,
// and the dcci before it keeps it quiet.
extern "C" __global__ __aicore__ void tally_flushed(__gm__ int64_t *args) {
  __gm__ uint8_t *window = input_data<uint8_t>(args, 0);
  __gm__ int32_t *tally = reinterpret_cast<__gm__ int32_t *>(window + kOffTally);
  __gm__ int32_t *ready = reinterpret_cast<__gm__ int32_t *>(window + kOffReady);
  tally[0] = 0;
  dcci(tally, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
  pto::comm::Signal sig(ready);
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  int32_t now = tally[1];
  (void)now;
}

// A body that waits and reads, called after the caller loaded the tally.
__aicore__ inline int32_t wait_then_read(__gm__ int32_t *counts, __gm__ int32_t *flag) {
  pto::comm::Signal sig(flag);
  pto::comm::TWAIT(sig, 1, pto::comm::WaitCmp::GE);
  return counts[2]; // want "warning: EXT001 .*`counts\\[2\\]`.*`tally\\[2\\]` \\(uncached.cpp:118, in `tally_caller_peek` before the call\\) can have cached the line"
}

extern "C" __global__ __aicore__ void tally_caller_peek(__gm__ int64_t *args) {
  __gm__ uint8_t *window = input_data<uint8_t>(args, 0);
  __gm__ int32_t *tally = reinterpret_cast<__gm__ int32_t *>(window + kOffTally);
  __gm__ int32_t *ready = reinterpret_cast<__gm__ int32_t *>(window + kOffReady);
  int32_t before = tally[2]; // want "info: EXT001"
  int32_t after = wait_then_read(tally, ready);
  (void)before;
  (void)after;
}
