#include "channel.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
  chan::CubeTake();
  chan::CubePost();
  (void)args;
}
