// Flags on the SyncAll's ids where the SyncAll never runs with them: a
// hand-made barrier and a SyncAll in the two branches of a compile-time
// choice (a template flag, a tiling key, an #if), and two kernels of one
// file. Silent; each twin, where both run in one kernel, is flagged.
#include "kernel_operator.h"

template <typename T, bool isDeterministic>
class ReduceOp {
public:
  __aicore__ inline void Init(uint32_t used) {
    if (AscendC::GetBlockIdx() < used) {
      if constexpr (!isDeterministic) {
        AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(kAivAll);
      }
    } else if (!isDeterministic) {
      AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(kAivAll);
    }
  }
  __aicore__ inline void Finish() {
    if constexpr (isDeterministic) {
      MergeDeterministic();
    } else {
      AscendC::CrossCoreWaitFlag(kAivAll);
    }
  }

private:
  __aicore__ inline void MergeDeterministic() { AscendC::SyncAll(); }
  static constexpr uint16_t kAivAll = 14;
};

// The twin: the SyncAll runs whatever the template flag says.
template <typename T, bool isDeterministic>
class ReduceAlways {
public:
  __aicore__ inline void Run() {
    if constexpr (!isDeterministic) {
      AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(kAll); // want "EXT005.*uses FFTS flag 14 \\(`kAll`\\), which the hardware `SyncAll`"
      AscendC::CrossCoreWaitFlag(kAll); // want "EXT005.*uses FFTS flag 14"
    }
    AscendC::SyncAll();
  }

private:
  static constexpr uint16_t kAll = 14;
};

class ScanOp {
public:
  __aicore__ inline void Run() {
    AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(13);
    AscendC::CrossCoreWaitFlag(13);
  }
};

class GatherOp {
public:
  __aicore__ inline void Run() { AscendC::SyncAll(); }
};

// One tiling key runs per launch: the scan's flags and the gather's
// SyncAll never meet.
extern "C" __global__ __aicore__ void reduce(GM_ADDR x, GM_ADDR tiling) {
  if (TILING_KEY_IS(1)) {
    ReduceOp<float, false> op;
    op.Init(8);
    op.Finish();
  } else if (TILING_KEY_IS(2)) {
    ReduceOp<float, true> op;
    op.Init(8);
    op.Finish();
  } else if (TILING_KEY_IS(3)) {
    ScanOp op;
    op.Run();
  } else {
    GatherOp op;
    op.Run();
  }
}

extern "C" __global__ __aicore__ void reduce_always(GM_ADDR x) {
  ReduceAlways<float, false> op;
  op.Run();
}

// Another kernel of the file: its flag 12 is not the first kernel's.
extern "C" __global__ __aicore__ void ping(GM_ADDR x) {
  AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(12);
  AscendC::CrossCoreWaitFlag(12);
}

// The twin: the same handshake and a SyncAll in one kernel.
extern "C" __global__ __aicore__ void ping_sync(GM_ADDR x) {
  AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(11); // want "EXT005.*uses FFTS flag 11"
  AscendC::CrossCoreWaitFlag(11); // want "EXT005.*uses FFTS flag 11"
  AscendC::SyncAll();
}

// A build chooses the hardware barrier or a hand-made one.
extern "C" __global__ __aicore__ void built(GM_ADDR x) {
#if defined(USE_HW_BARRIER)
  AscendC::SyncAll();
#else
  AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(14);
  AscendC::CrossCoreWaitFlag(14);
#endif
}

// The twin: the #if adds a SyncAll to the hand-made barrier.
extern "C" __global__ __aicore__ void built_both(GM_ADDR x) {
#ifdef EXTRA_BARRIER
  AscendC::SyncAll();
#endif
  AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(13); // want "EXT005.*uses FFTS flag 13"
  AscendC::CrossCoreWaitFlag(13); // want "EXT005.*uses FFTS flag 13"
}
