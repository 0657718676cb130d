// Mixed attention extern: cube QK -> vector softmax -> cube PV handshakes.
#include "flags.h"

class SoftmaxStage {
 public:
  __aicore__ inline void Init(__gm__ int64_t *args) {
    subIdx_ = get_sub_block_id(args);
  }
  __aicore__ inline void Signal() {
    if (subIdx_ == 0) {
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady); // want "EXT010 crosscore-lane-imbalance: `AscendC::CrossCoreSetFlag<2, PIPE_MTE3>\\(kSoftmaxReady\\)` only runs on the vector lane that passes `if \\(subIdx_ == 0\\)`"
    }
  }

 private:
  uint32_t subIdx_;
};

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
#ifdef __DAV_C220_CUBE__
  AscendC::Mmad(c, a, b, params);
  AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kQkReady);
  AscendC::CrossCoreWaitFlag(kSoftmaxReady);
#endif
#ifdef __DAV_C220_VEC__
  AscendC::CrossCoreWaitFlag(kQkReady);
  uint32_t lane = get_sub_block_id(args);
  uint32_t half = lane * 64;
  if (lane == 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady); // want "mode-2 flag is released only after both lanes"
  }
  if (half != 0) {
    AscendC::NotifyEvent<PIPE_MTE3>(kPvReady); // want "`if \\(half != 0\\)`"
  }
  if (AscendC::GetSubBlockIdx() == 1) {
    AscendC::CrossCoreSetFlag<1, PIPE_V>(LANE_SYNC_FLAG); // want "mode-1 flag"
  }
  if (get_sub_block_id(args) != 0) {
    ffts_cross_core_sync(PIPE_MTE3, 0x1 | (2 << 4) | (kPvReady << 8)); // want "ffts_cross_core_sync"
  }

  // Near-misses: both lanes set.
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady);
  for (int i = 0; i < 2; ++i) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kPvReady);
  }
  if (lane == 0) {
    AscendC::DataCopy(outGm, outUb, 64);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady);
  } else {
    AscendC::DataCopy(outGm[64], outUb, 64);
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kSoftmaxReady);
  }
  if (get_block_idx(args) < 20) {
    // A block test: both lanes of the cluster agree.
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);
  }
  if (lane == 0) {
    // Mode 0 is not cluster-scoped (EXT011's business), and waits are not sets.
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(3);
    AscendC::CrossCoreWaitFlag(kQkReady);
  }
  if (lane == 0) {
    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady); // NOLINT(EXT010)
  }
#endif
}

extern "C" __global__ __aicore__ void lane_returns(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  if (get_sub_block_id(args) != 0) {
    return;
  }
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady); // want "skipped by the lane that returns under `if \\(get_sub_block_id\\(args\\) != 0\\)` \\(line 72\\)"
#endif
}

// The lane with nothing to do sets the flag in its own exit block, deep in
// the lane test; every other path sets it after the test: one set per lane.
__aicore__ inline void half_rows(__gm__ int64_t *args, uint32_t rows) {
  uint32_t mine = rows;
  if (get_sub_block_id(args) == 1) {
    if (rows > 1) {
      mine = rows / 2;
    } else {
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);
      return;
    }
  }
  (void)mine;
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);
}

// The same exit with no set after the test: the other lane never sets it.
__aicore__ inline void half_rows_unbalanced(__gm__ int64_t *args, uint32_t rows) {
  if (get_sub_block_id(args) == 1) {
    if (rows <= 1) {
      AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady); // want "only runs on the vector lane that passes `if \\(get_sub_block_id\\(args\\) == 1\\)`"
      return;
    }
  }
}

extern "C" __global__ __aicore__ void lane_exit_blocks(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  half_rows(args, static_cast<uint32_t>(args[2]));
  half_rows_unbalanced(args, static_cast<uint32_t>(args[2]));
#endif
}
