// Debug stops left under switches. No file or build file of the tree
// defines STOP_AFTER_LOAD, so no build compiles that return; the build
// (CMakeLists.txt) does define TRACE_STOP_AFTER_LOAD.
#include "kernel_operator.h"

__aicore__ inline void Load(GM_ADDR x) {}

extern "C" __global__ __aicore__ void debug_stop(GM_ADDR x) {
  Load(x);
#ifdef STOP_AFTER_LOAD
  return;
#endif
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void trace_stop(GM_ADDR x) {
  Load(x);
#ifdef TRACE_STOP_AFTER_LOAD
  return; // want "EXT011.*unconditional `return` before the hardware barrier"
#endif
  AscendC::SyncAll();
}
