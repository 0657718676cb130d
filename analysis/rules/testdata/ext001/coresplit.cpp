// A cross-rank barrier round run once by the vector cores and once by the
// cube cores: each side reads its epoch word, then waits for the other
// ranks. The wait under `if ASCEND_IS_AIV` never runs before the cube
// side's read; two rounds on the vector core do follow each other.
#include "meta_util.h"

__aicore__ inline int32_t split_round(__gm__ int32_t *epoch) {
  int32_t next = *epoch + 1; // want "info: EXT001 .*reads memory nothing in this task writes before it"
  AscendC::CrossCoreWaitFlag(3);
  return next;
}

__aicore__ inline void split_vec(__gm__ int32_t *epoch) {
  if ASCEND_IS_AIV {
    split_round(epoch);
  }
}

__aicore__ inline void split_cube(__gm__ int32_t *epoch) {
  if ASCEND_IS_AIC {
    split_round(epoch);
  }
}

__aicore__ inline int32_t vec_round(__gm__ int32_t *epoch) {
  int32_t next = *epoch + 1; // want "warning: EXT001 .*read after a caller of `vec_round` waits for another core \\(`AscendC::CrossCoreWaitFlag\\(4\\)`\\)"
  AscendC::CrossCoreWaitFlag(4);
  return next;
}

__aicore__ inline void vec_first(__gm__ int32_t *epoch) {
  if ASCEND_IS_AIV {
    vec_round(epoch);
  }
}

__aicore__ inline void vec_again(__gm__ int32_t *epoch) {
  if ASCEND_IS_AIV {
    vec_round(epoch);
  }
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ int32_t *split = input_data<int32_t>(args, 0);
  __gm__ int32_t *twice = input_data<int32_t>(args, 1);
  split_vec(split);
  split_cube(split);
  vec_first(twice);
  vec_again(twice);
  // The epochs advance for the next round.
  *split = 1;
  *twice = 1;
  dcci(split, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dcci(twice, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
