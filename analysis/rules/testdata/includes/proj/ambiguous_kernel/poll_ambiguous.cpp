// Two files end with "dup/flush.h" (a/ and b/), neither nearer this file:
// the include stays unresolved, so the helper is unseen and the finding
// says less.
#include "kernel_operator.h"
#include "dup/flush.h"

extern "C" __global__ __aicore__ void poll_ambiguous(__gm__ int32_t *flag) {
  while (flag[0] == 0) { // want "info: EXT001 .*read in a polling loop.*; unless `flush_dup\\(flag\\)` invalidates it"
    flush_dup(flag);
  }
}
