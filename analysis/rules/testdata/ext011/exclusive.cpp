// A return in one arm of a test every core shares, the barrier in the
// other arm: the cores that may take the return all skip that barrier.
#include "phases.h"

template <typename T>
__aicore__ inline void by_type(__gm__ int64_t *args) {
  uint32_t rows = get_block_idx(args) < 4 ? 2 : 0;
  if constexpr (sizeof(T) == 2) {
    if (rows == 0) {
      return; // no barrier on this arm: the zero-row cores leave alone
    }
    rope_phase(args);
  } else {
    attention_phase(args);
  }
}

// The twin: the barrier comes after the shared test, on both arms.
template <typename T>
__aicore__ inline void by_type_then_wait(__gm__ int64_t *args) {
  uint32_t rows = get_block_idx(args) < 4 ? 2 : 0;
  if constexpr (sizeof(T) == 2) {
    if (rows == 0) {
      return; // want "EXT011 .*`return` under `if \\(rows == 0\\)` can leave before the hardware barrier `AscendC::SyncAll\\(\\)`"
    }
    rope_phase(args);
  } else {
    rope_phase(args);
  }
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void exclusive(__gm__ int64_t *args) {
  by_type<half>(args);
  by_type_then_wait<half>(args);
}

// A dispatch on the tiling key, the launch's one key: every core takes
// the same branch, and a type with no work there leaves with all of them.
template <typename T>
__aicore__ inline void by_key(__gm__ int64_t *args) {
  if (TILING_KEY_IS(1)) {
    if constexpr (sizeof(T) == 8) {
      return;
    } else {
      attention_phase(args);
    }
  } else if (TILING_KEY_IS(2)) {
    attention_phase(args);
  }
}

// The twin: a dispatch on the block id parts the cores.
template <typename T>
__aicore__ inline void by_block_id(__gm__ int64_t *args) {
  if (get_block_idx(args) == 1) {
    if constexpr (sizeof(T) == 8) {
      return; // want "error: EXT011 .*under `if \\(get_block_idx\\(args\\) == 1\\)` can leave before `attention_phase\\(args\\)` \\(line 63\\)"
    } else {
      attention_phase(args);
    }
  } else if (get_block_idx(args) == 2) {
    attention_phase(args);
  }
}

extern "C" __global__ __aicore__ void dispatched(__gm__ int64_t *args) {
  by_key<int64_t>(args);
  by_block_id<int64_t>(args);
}
