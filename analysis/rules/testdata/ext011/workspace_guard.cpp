// The workspace a launch passes is the same on every core, and so is its
// user part: a kernel that finds none leaves with all the others.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void workspace_guard(GM_ADDR x, GM_ADDR workspace) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GM_ADDR userWS = AscendC::GetUserWorkspace(workspace);
  if (userWS == nullptr) {
    return;
  }
  if (AscendC::GetSysWorkSpacePtr() == nullptr) {
    return;
  }
  // The twin: an accessor the analysis does not know may differ per core.
  GM_ADDR slot = AscendC::GetCoreSlot(userWS);
  if (slot == nullptr) {
    return; // want "info: EXT011 .*unless `if \\(slot == nullptr\\)` is the same on every core"
  }
  AscendC::SyncAll();
}
