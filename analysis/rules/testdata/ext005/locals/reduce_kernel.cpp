// An ordinary standalone kernel whose handshake id is a local set once:
// it is the constant 12, one of the ids the hardware SyncAll uses.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void reduce_rows(GM_ADDR x, GM_ADDR y) {
  int readyId = 12;
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(readyId); // want "EXT005 ffts-flag-reserved: `CrossCoreSetFlag` uses FFTS flag 12 \\(`readyId`\\), which the hardware `SyncAll` of this kernel uses"
  AscendC::CrossCoreWaitFlag(readyId); // want "FFTS flag 12 \\(`readyId`\\)"
  const uint16_t doneId = readyId + 1;
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(doneId); // want "FFTS flag 13 \\(`doneId`\\)"
  AscendC::CrossCoreWaitFlag(doneId); // want "FFTS flag 13 \\(`doneId`\\)"
  // Assigned again: not a constant, not judged.
  int phaseId = 4;
  if (AscendC::GetBlockIdx() == 0) {
    phaseId = 12;
  }
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(phaseId);
  AscendC::CrossCoreWaitFlag(phaseId);
  AscendC::SyncAll<false>();
}
