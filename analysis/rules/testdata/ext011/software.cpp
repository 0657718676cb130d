// Standalone kernels that meet at AscendC's software barrier,
// `SyncAll(gmWorkspace, ubWorkspace)`: every core of the launch must
// arrive, as at the hardware one. The cores split columns in turn; a core
// left with no column of a pass skips the branch, and the barrier in it.
#include "kernel_operator.h"

using namespace AscendC;

class Sweep {
public:
  __aicore__ inline Sweep() : core_(GetBlockIdx()), cores_(GetBlockNum()) {}
  __aicore__ inline void Init(GM_ADDR ws, int n) {
    n_ = n;
    wsGm.SetGlobalBuffer((__gm__ int32_t *)ws, cores_ * 32);
    pipe.InitBuffer(wsBuf, cores_ * 32);
    wsUb = wsBuf.Get<int32_t>();
  }
  __aicore__ inline void Process() {
    for (int k = n_ - 1; k >= 0; k--) {
      const int first = FirstColumn(k);
      if (first < n_) {
        for (int c = first; c < n_; c += cores_) {
          Update(k, c);
        }
        SyncAll<true>(wsGm, wsUb); // want "EXT011 .*only the cores for which `if \\(first < n_\\)` takes this branch reach the software barrier `SyncAll<true>\\(wsGm, wsUb\\)`"
      }
    }
    Finish();
  }
  // Fixed: the cores with no column skip the work, not the barrier.
  __aicore__ inline void ProcessFixed() {
    for (int k = n_ - 1; k >= 0; k--) {
      const int first = FirstColumn(k);
      if (first < n_) {
        for (int c = first; c < n_; c += cores_) {
          Update(k, c);
        }
      }
      SyncAll<true>(wsGm, wsUb);
    }
    Finish();
  }
  // Silent: every core takes the same branch (a test of the pass alone).
  __aicore__ inline void ProcessUniform() {
    for (int k = n_ - 1; k >= 0; k--) {
      if (k % 2 == 0) {
        Update(k, core_);
        SyncAll<true>(wsGm, wsUb);
      }
    }
    Finish();
  }
  // Silent: the cores in the branch return after it; the others arrive at
  // the barrier after the if. One arrival each.
  __aicore__ inline void ProcessSplit() {
    if (core_ == 0) {
      Update(0, 0);
      SyncAll<true>(wsGm, wsUb);
      return;
    }
    SyncAll<true>(wsGm, wsUb);
    Finish();
  }

  // The cores past the used count leave before the software barrier over
  // every core.
  __aicore__ inline void ProcessUsed(int used) {
    if (core_ >= used) {
      return; // want "EXT011 .*`return` under `if \\(core_ >= used\\)` can leave before the software barrier `SyncAll<true>\\(wsGm, wsUb\\)`"
    }
    Update(0, core_);
    SyncAll<true>(wsGm, wsUb);
  }
  // Fixed: a software barrier over the used cores only.
  __aicore__ inline void ProcessUsedFixed(int used) {
    if (core_ >= used) {
      return;
    }
    Update(0, core_);
    SyncAll<true>(wsGm, wsUb, used);
  }

private:
  // The first column of pass k this core owns.
  __aicore__ inline int FirstColumn(int k) {
    const int base = k / cores_ * cores_;
    return base + core_ < k ? base + core_ + cores_ : base + core_;
  }
  __aicore__ inline void Update(int k, int c) {}
  __aicore__ inline void Finish() {}
  int n_;
  const int core_, cores_;
  TPipe pipe;
  TBuf<TPosition::VECCALC> wsBuf;
  LocalTensor<int32_t> wsUb;
  GlobalTensor<int32_t> wsGm;
};

extern "C" __global__ __aicore__ void sweep(GM_ADDR ws, int n) {
  Sweep s;
  s.Init(ws, n);
  s.Process();
  s.ProcessUsed(n);
}

extern "C" __global__ __aicore__ void sweep_fixed(GM_ADDR ws, int n) {
  Sweep s;
  s.Init(ws, n);
  s.ProcessFixed();
  s.ProcessUniform();
  s.ProcessSplit();
  s.ProcessUsedFixed(n);
}
