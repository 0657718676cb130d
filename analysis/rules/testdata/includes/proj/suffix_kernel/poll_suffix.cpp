// No build file names vendor_poll's parent: the include is the one file
// of the tree ending with its path.
#include "kernel_operator.h"
#include "vendor_poll/poll_sync.h"

extern "C" __global__ __aicore__ void poll_suffix(__gm__ int32_t *flag) {
  while (flag[0] == 0) {
    refresh_flag(flag);
  }
}
