// The build script passes -DSTOP_AFTER_LOAD: the probe is on.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void probe_built(GM_ADDR x) {
#ifdef STOP_AFTER_LOAD
  return; // want "EXT011.*unconditional `return` before the hardware barrier.*debugging probe"
#endif
  AscendC::SyncAll();
}
