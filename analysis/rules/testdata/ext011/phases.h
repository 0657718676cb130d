// Phases of the fused kernel; the attention phase holds the global barrier.
#pragma once
#include "kernel_operator.h"

constexpr uint16_t kGlobalFlag = 3;

__aicore__ inline void rope_phase(__gm__ int64_t *args) {
  AscendC::PipeBarrier<PIPE_V>();
}

__aicore__ inline void wait_all() {
  AscendC::SyncAll<false>();
}

__aicore__ inline void attention_phase(__gm__ int64_t *args) {
  wait_all();
  AscendC::PipeBarrier<PIPE_ALL>();
}

// Returns early from a phase that has no barrier: the caller's barrier
// still runs.
__aicore__ inline void maybe_skip(__gm__ int64_t *args, uint32_t blk) {
  if (blk >= 20) {
    return;
  }
  AscendC::PipeBarrier<PIPE_V>();
}

// The vendored-kernel shape: a functor whose call operator holds the
// barrier.
template <bool WithRope>
struct FaiKernel {
  __aicore__ inline void operator()(__gm__ int64_t *args) {
    rope_phase(args);
    AscendC::SyncAll<false>();
  }
};
