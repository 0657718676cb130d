// A debug stop whose switch nothing in the tree defines, in a unit that
// includes a project header no root holds (a generated configuration):
// that header may define it, so the return is judged.
#include "kernel_operator.h"
#include "generated/stop_config.h"

extern "C" __global__ __aicore__ void debug_stop_unseen(GM_ADDR x) {
#ifdef STOP_AFTER_STORE
  return; // want "EXT011.*unconditional `return` before the hardware barrier"
#endif
  AscendC::SyncAll();
}
