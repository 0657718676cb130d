// A communication library's device API: the kernels of the tree include
// it whole (as a build's include folders bring it in), and each calls a
// few of its functions. What a kernel reaches is judged as its code; a
// function no kernel reaches is not (its callers, if any, are judged).
#pragma once

__aicore__ inline void comm_barrier(int ranks) {
  if (AscendC::GetBlockIdx() >= ranks) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(AscendC::GetBlockIdx\\(\\) >= ranks\\)`"
  }
  AscendC::SyncAll();
}

// Passed as a callback: reached through the pointer.
__aicore__ inline void comm_step(int ranks) {
  if (AscendC::GetBlockIdx() >= ranks) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(AscendC::GetBlockIdx\\(\\) >= ranks\\)`"
  }
  AscendC::SyncAll();
}

template <typename F>
__aicore__ inline void comm_run(F f, int ranks) {
  f(ranks);
}

// Reached through a method called by name on an object.
class Channel {
 public:
  __aicore__ inline void Drain(int ranks) {
    if (AscendC::GetBlockIdx() >= ranks) {
      return; // want "EXT011 barrier-early-return: `return` under `if \\(AscendC::GetBlockIdx\\(\\) >= ranks\\)`"
    }
    AscendC::SyncAll();
  }
  __aicore__ inline void Reset(int ranks) {
    if (AscendC::GetBlockIdx() >= ranks) {
      return;
    }
    AscendC::SyncAll();
  }
};

// No kernel of the tree calls these: silent twins.
__aicore__ inline void comm_barrier_unused(int ranks) {
  if (AscendC::GetBlockIdx() >= ranks) {
    return;
  }
  AscendC::SyncAll();
}

__aicore__ inline void comm_calls_unused(int ranks) {
  comm_barrier_unused(ranks);
}
