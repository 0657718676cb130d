// An extern built for Ascend 950 (the configuration-free way: its branch
// on the chip). The A5 runtime sets no FFTS base and SetSyncBaseAddr does
// nothing there.
#include "kernel_operator.h"

#if defined(__DAV_C310__)
constexpr uint32_t kLanes = 2;
#endif

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  AscendC::SetSyncBaseAddr(static_cast<uint64_t>(args[4]));
}
