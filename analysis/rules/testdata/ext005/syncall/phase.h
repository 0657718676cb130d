// The vector phase, compiled into entry.cpp's extern: the SyncAll there
// reserves 11-14 here too.
#pragma once

__aicore__ inline void vec_phase() {
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::CrossCoreWaitFlag(12); // want "EXT005 ffts-flag-reserved: `CrossCoreWaitFlag` uses FFTS flag 12, which the hardware `SyncAll` of this extern uses"
  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kHdrFree);
}
