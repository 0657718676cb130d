// Early returns around hardware barriers in a fused extern.
#include "phases.h"

constexpr bool kDebugRope = false;

extern "C" __global__ __aicore__ void block_skip(__gm__ int64_t *args) {
  uint32_t blk = get_block_idx(args);
  uint32_t used = static_cast<uint32_t>(args[4]);
  if (blk >= used) return; // want "EXT011 barrier-early-return: `return` under `if \\(blk >= used\\)` can leave before the hardware barrier `AscendC::SyncAll<false>\\(\\)` \\(line 11\\)"
  rope_phase(args);
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void via_phase(__gm__ int64_t *args) {
  if (get_block_idx(args) >= 20) {
    return; // want "`attention_phase\\(args\\)` \\(line 18\\), which reaches the hardware barrier `AscendC::SyncAll<false>\\(\\)` \\(phases.h:12\\)"
  }
  attention_phase(args);
}

extern "C" __global__ __aicore__ void lane_skip(__gm__ int64_t *args) {
#ifdef __DAV_C220_VEC__
  if (get_sub_block_id(args) != 0) {
    return; // want "under `if \\(get_sub_block_id\\(args\\) != 0\\)`"
  }
#endif
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(kGlobalFlag);
  AscendC::CrossCoreWaitFlag<0>(kGlobalFlag);
}

extern "C" __global__ __aicore__ void data_skip(__gm__ int64_t *args) {
  __gm__ int32_t *seq_lens = reinterpret_cast<__gm__ int32_t *>(args[2]);
  int32_t len = seq_lens[get_block_idx(args)];
  while (len > 0) {
    if (len == 1) {
      return; // want "under `if \\(len == 1\\)`"
    }
    AscendC::SyncAll<false>();
    --len;
  }
}

extern "C" __global__ __aicore__ void raw_barrier(__gm__ int64_t *args) {
  if (args[get_block_idx(args)] == 0)
    return; // want "can leave before the hardware barrier `ffts_cross_core_sync"
  ffts_cross_core_sync(PIPE_MTE3, 0x1 | (0 << 4) | (5 << 8));
  wait_flag_dev(5);
}

extern "C" __global__ __aicore__ void probe_left_in(__gm__ int64_t *args) {
  rope_phase(args);
  return; // want "unconditional `return` before the hardware barrier `AscendC::SyncAll<false>\\(\\)`.*debugging probe"
  AscendC::SyncAll<false>();
  attention_phase(args);
}

// Near-misses: all silent.
extern "C" __global__ __aicore__ void return_after_last_barrier(__gm__ int64_t *args) {
  uint32_t blk = get_block_idx(args);
  if (blk < 20) {
    rope_phase(args);
  }
  AscendC::SyncAll<false>();
  if (blk >= 20) {
    return;
  }
  AscendC::PipeBarrier<PIPE_ALL>();
  return;
}

extern "C" __global__ __aicore__ void uniform_skips(__gm__ int64_t *args) {
  int64_t n = static_cast<int64_t>(args[5]);
  if (n == 0) {
    return; // the same scalar on every core: all leave together
  }
  uint32_t nblk = get_block_num(args);
  if (nblk < 2 || get_block_num(args) > 48) {
    return; // the task's block count: the same on every core
  }
  if constexpr (kDebugRope) {
    return;
  }
  if ASCEND_IS_AIC {
    return; // every cube leaves; the vector-only barrier below is theirs alone
  }
  maybe_skip(args, get_block_idx(args));
#ifdef __CPU_SIM
  return;
#endif
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void own_barrier_first(__gm__ int64_t *args) {
  if (get_block_idx(args) >= 20) {
    AscendC::SyncAll<false>();
    return; // this core already arrived at its barrier
  }
  rope_phase(args);
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void suppressed(__gm__ int64_t *args) {
  if (get_block_idx(args) >= 20) return; // NOLINT(EXT011)
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void functor_entry(__gm__ int64_t *args) {
  FaiKernel<true> kernel;
  if (get_block_idx(args) >= 20) {
    return; // want "`kernel\\(args\\)` \\(line [0-9]+\\), which reaches the hardware barrier `AscendC::SyncAll<false>\\(\\)` \\(phases.h:35\\)"
  }
  kernel(args);
}

extern "C" __global__ __aicore__ void arrived_then_left(__gm__ int64_t *args) {
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(kGlobalFlag);
  if (get_block_idx(args) >= 20) {
    return; // this core already set the flag: the others are not waiting for it
  }
  AscendC::CrossCoreWaitFlag<0>(kGlobalFlag);
}
