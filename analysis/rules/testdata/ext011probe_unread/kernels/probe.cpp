// A build definition whose name is not plain text may be this switch:
// the probe is judged. (Two folders hold probe_utils.h and only the
// build's -I would say which: the include does not resolve, so the unit's
// guard model does not decide the switch on its own.)
#include "kernel_operator.h"
#include "probe_utils.h"

extern "C" __global__ __aicore__ void probe_unread(GM_ADDR x) {
  Load(x);
#ifdef STOP_AFTER_LOAD
  return; // want "EXT011.*unconditional `return` before the hardware barrier.*debugging probe"
#endif
  AscendC::SyncAll();
}
