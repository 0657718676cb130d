// An extern that resets the runtime-owned FFTS base in several spellings.
#include "kernel_operator.h"
#include "sync_setup.h"

__aicore__ inline void init_sync(__gm__ int64_t *args) {
  uint64_t base = static_cast<uint64_t>(args[6]);
  AscendC::SetSyncBaseAddr(base); // want "EXT007 ffts-base-reset: `SetSyncBaseAddr` in an extern"
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  set_ffts_base_addr(static_cast<uint64_t>(args[5])); // want "runtime set the FFTS base"
  SetSyncBaseAddr(args[6]);  // want "SetSyncBaseAddr"
  if (args[7] != 0)
    set_ffts_base_addr(args[7]); // want "set_ffts_base_addr"
  for (int i = 0; i < 1; ++i) set_ffts_base_addr(args[8]); // want "set_ffts_base_addr"
  init_sync(args);
  setup_ffts(args[9]);
#ifdef __DAV_C220_VEC__
  set_ffts_base_addr(args[5]); // want "set_ffts_base_addr"
#endif
#ifdef __CPU_SIM
  // The simulator stub sets its own fake base: not device code.
  set_ffts_base_addr(0);
#endif
  uint64_t base = get_ffts_base_addr(); // reading it is harmless
  scheduler.set_ffts_base_addr(base);   // a member function of some other object
  set_ffts_base_addr(args[5]); // NOLINT(ffts-base-reset)
  // NOLINTNEXTLINE(EXT007)
  set_ffts_base_addr(args[5]);
  AscendC::SyncAll<false>();
}
