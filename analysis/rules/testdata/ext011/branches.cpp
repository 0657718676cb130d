// Returns that end one branch of a dispatch on a value every core shares,
// and the cube leaving before a barrier of the vector cores only.
#include "phases.h"

// Only the vector cores wait in the bare SyncAll(): the cube leaving
// first is none of its business.
__aicore__ inline void clear_workspace(__gm__ int64_t *args) {
  if ASCEND_IS_NOT_AIV {
    return;
  }
  rope_phase(args);
  AscendC::SyncAll();
}

__aicore__ inline void cube_phase(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
  }
}

extern "C" __global__ __aicore__ void by_mode(__gm__ int64_t *args) {
  int64_t mode = args[5];
  if (mode == 0) {
    rope_phase(args);
    return;
  } else if (mode == 1) {
    attention_phase(args);
  }
  clear_workspace(args);
  cube_phase(args);
}

extern "C" __global__ __aicore__ void by_block(__gm__ int64_t *args) {
  if (get_block_idx(args) == 0) {
    rope_phase(args);
    return; // want "EXT011 .*`return` under `if \\(get_block_idx\\(args\\) == 0\\)` can leave before `attention_phase\\(args\\)`"
  } else {
    attention_phase(args);
  }
}

// Some cube cores leave, the others run the cube-only barrier a bare
// SyncAll() is on the cube: they wait for the ones that left.
extern "C" __global__ __aicore__ void cube_split(__gm__ int64_t *args) {
  if ASCEND_IS_AIC {
    if (get_block_idx(args) >= 12) {
      return; // want "EXT011 .*`return` under `if \\(get_block_idx\\(args\\) >= 12\\)`"
    }
    AscendC::Mmad(c, a, b, params);
    AscendC::SyncAll();
  }
}

// The cores with rows leave too, by the return that ends the branch,
// before the barrier of the other mode.
extern "C" __global__ __aicore__ void per_core_rows(__gm__ int64_t *args) {
  int64_t mode = args[5];
  uint32_t rows = get_block_idx(args) < 4 ? 2 : 0;
  if (mode == 0) {
    if (rows == 0) {
      return;
    }
    rope_phase(args);
    return;
  }
  attention_phase(args);
}
