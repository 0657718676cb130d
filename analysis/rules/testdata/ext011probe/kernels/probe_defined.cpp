// A probe whose switch a header of the unit defines: it is on, and the
// return before the barrier is compiled in.
#include "kernel_operator.h"
#include "probe_config.h"

extern "C" __global__ __aicore__ void probe_defined(GM_ADDR x) {
#ifdef STOP_AFTER_STORE
  return; // want "EXT011.*unconditional `return` before the hardware barrier.*debugging probe"
#endif
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void probe_local(GM_ADDR x) {
#define STOP_HERE
#if defined(STOP_HERE)
  return; // want "EXT011.*unconditional `return` before the hardware barrier.*debugging probe"
#endif
  AscendC::SyncAll();
}

// `#ifndef`: compiled in unless someone defines the name.
extern "C" __global__ __aicore__ void probe_ifndef(GM_ADDR x) {
#ifndef KEEP_GOING
  return; // want "EXT011.*unconditional `return` before the hardware barrier.*debugging probe"
#endif
  AscendC::SyncAll();
}
