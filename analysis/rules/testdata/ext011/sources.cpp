// Where a condition before a barrier comes from: values every core of the
// task reads alike are silent, values that carry a core's own id are not.
#include "kernel_operator.h"

struct SplitTiling {
  uint32_t usedCores;
  uint32_t rows;
};

constexpr uint32_t kMaxCores = 48;

__aicore__ inline uint32_t used_cores(__gm__ int64_t *args) {
  return static_cast<uint32_t>(args[3]);
}

__aicore__ inline uint32_t my_block(__gm__ int64_t *args) {
  return static_cast<uint32_t>(get_block_idx(args));
}

__aicore__ inline uint32_t scaled(uint32_t v) { return v * 2; }

template <uint32_t kStages>
__aicore__ inline void staged(__gm__ SplitTiling *tiling, __gm__ int64_t *args) {
  if (kStages == 1) {
    return; // a template argument: one instantiation, every core
  }
  uint32_t rows = 0;
  rows = tiling->rows;
  if (rows == 0) {
    return; // a tiling field through a local assigned later
  }
  uint32_t used = scaled(used_cores(args));
  if (used > kMaxCores) {
    return; // an args scalar through two helpers
  }
  if (AscendC::GetBlockNum() == 1 || tiling->usedCores == 1) {
    return; // core counts
  }
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void uniform_sources(__gm__ int64_t *args) {
  auto *tiling = reinterpret_cast<__gm__ SplitTiling *>(args[0]);
  staged<2>(tiling, args);
}

// The twins: each condition reads this core's own id or data.
__aicore__ inline void per_core_phase(uint32_t blk, uint32_t used) {
  if (blk >= used) {
    return; // want "EXT011.*under `if \\(blk >= used\\)`"
  }
  AscendC::SyncAll<false>();
}

class Skipper {
 public:
  __aicore__ inline void Init(__gm__ int64_t *args) { first_ = AscendC::GetBlockIdx() == 0; }
  __aicore__ inline void Run(__gm__ int32_t *flags, __gm__ int64_t *args) {
    if (!first_) {
      return; // want "EXT011.*under `if \\(!first_\\)`"
    }
    AscendC::SyncAll<false>();
  }

 private:
  bool first_;
};

extern "C" __global__ __aicore__ void per_core_sources(__gm__ int64_t *args) {
  uint32_t used = used_cores(args);
  per_core_phase(my_block(args), used);
  uint32_t mine = scaled(my_block(args));
  if (mine > used) {
    return; // want "EXT011.*under `if \\(mine > used\\)`"
  }
  uint32_t skip = 0;
  if (get_block_idx(args) % 2 == 1) {
    skip = 1;
  }
  if (skip != 0) {
    return; // want "EXT011.*under `if \\(skip != 0\\)`"
  }
  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[1]);
  AscendC::LocalTensor<int32_t> countsUb;
  if (countsUb.GetValue(0) == 0) {
    return; // want "EXT011.*under `if \\(countsUb.GetValue\\(0\\) == 0\\)`"
  }
  if (flags[0] == 0) {
    return; // one GM word every core reads: the same for all
  }
  Skipper s;
  s.Init(args);
  s.Run(flags, args);
  AscendC::SyncAll<false>();
}

// A condition only an SDK accessor the analysis cannot see into decides:
// most such values are tiling (the same on every core), so it says less.
extern "C" __global__ __aicore__ void opaque_sources(__gm__ int64_t *args) {
  AscendC::TilingReader reader(args);
  if (reader.UsedCoreNum() == 0) {
    return; // want "info: EXT011.*unless `reader.UsedCoreNum\\(\\)` is the same on every core"
  }
  uint32_t rows = reader.Rows();
  if (rows == 0) {
    return; // want "info: EXT011.*unless `if \\(rows == 0\\)` is the same on every core"
  }
  if (reader.Rows() > get_block_idx(args)) {
    return; // want "error: EXT011.*under `if \\(reader.Rows\\(\\) > get_block_idx\\(args\\)\\)`"
  }
  AscendC::SyncAll<false>();
}
