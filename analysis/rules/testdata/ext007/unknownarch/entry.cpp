// Nothing names the chip: on A2/A3 this is the bug, on Ascend 950 a no-op,
// so it is said at info.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::SetSyncBaseAddr(static_cast<uint64_t>(args[4])); // want "EXT007 ffts-base-reset: `SetSyncBaseAddr` in an extern: on A2/A3 the runtime set the FFTS base once .* Nothing says which chip"
}
