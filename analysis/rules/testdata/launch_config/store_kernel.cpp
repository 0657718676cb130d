// Settings (dcci-insert-for-scalar = false, dcci-before-kernel-end = false)
// turn the compiler's scalar coherence off over the build file's =true.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void store(__gm__ int32_t *out) {
  out[GetBlockIdx() * 16] = 7; // want "EXT009 gm-scalar-write"
}
