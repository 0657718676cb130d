// Stage fences whose barrier takes its kind from a template parameter.
#pragma once
#include "kernel_operator.h"

template <bool kAivOnly = true>
__aicore__ inline void StageFence() {
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::SyncAll<kAivOnly>(); // want "`AscendC::SyncAll<kAivOnly>\\(\\)` \\(`kAivOnly` is true in every call of `StageFence`\\) is the vector-only barrier"
}

// Every caller asks for the cross-core barrier: right.
template <bool kAivOnly = true>
__aicore__ inline void MixFence() {
  AscendC::SyncAll<kAivOnly>();
}

// Barriers as policy types: the kind is the class template's parameter.
template <bool kAivOnly = true>
struct HwBarrier {
  __aicore__ static inline void Arrive() {
    AscendC::SyncAll<kAivOnly>(); // want "`AscendC::SyncAll<kAivOnly>\\(\\)` \\(`kAivOnly` is true in every instance of `HwBarrier`\\) is the vector-only barrier"
  }
};

// One instance asks for the cross-core barrier: which instance reaches
// the call is not told, so nothing is said.
template <bool kAivOnly = true>
struct MixBarrier {
  __aicore__ static inline void Arrive() {
    AscendC::SyncAll<kAivOnly>();
  }
};

template <class Barrier_ = HwBarrier<>>
struct GemmPolicy {
  using Barrier = Barrier_;
};

// Fence macros: the vector-only barrier behind a name, and the cross-core
// one; a software barrier taking its workspace is not the hardware one.
#define PHASE_BARRIER() AscendC::SyncAll()
#define PHASE_FENCE() AscendC::SyncAll<false>()
#define SOFT_BARRIER(gm, ub) AscendC::SyncAll(gm, ub, 48)

// Fences reached through a macro: the macro's call is the call. Left to
// its default, the barrier is vector-only; asking for `false`, it is not.
template <bool kAivOnly = true>
__aicore__ inline void DrainFence() {
  AscendC::SyncAll<kAivOnly>(); // want "`AscendC::SyncAll<kAivOnly>\\(\\)` \\(`kAivOnly` is true in every call of `DrainFence`\\) is the vector-only barrier"
}
#define DRAIN_FENCE() DrainFence()

template <bool kAivOnly = true>
__aicore__ inline void CrossFence() {
  AscendC::SyncAll<kAivOnly>();
}
#define CROSS_FENCE() CrossFence<false>()
