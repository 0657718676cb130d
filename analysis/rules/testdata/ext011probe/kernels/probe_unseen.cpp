// A probe in a unit that includes a project header no file of the tree
// is (a generated configuration): it may define the switch.
#include "kernel_operator.h"
#include "gen/stop_config.h"

extern "C" __global__ __aicore__ void probe_unseen(GM_ADDR x) {
#ifdef STOP_AFTER_SCAN
  return; // want "EXT011.*unconditional `return` before the hardware barrier.*debugging probe"
#endif
  AscendC::SyncAll();
}
