// "line_flush.h" is in shared/flush, which the CMakeLists over this file
// names: flush_line's body is seen, so the poll is judged, and it is
// right (the line is invalidated before each read).
#include "kernel_operator.h"
#include "line_flush.h"

extern "C" __global__ __aicore__ void poll_cmake(__gm__ int32_t *flag) {
  while (flag[0] == 0) {
    flush_line(flag);
  }
}
