// A vector kernel's all-core rendezvous through a header's helper: the
// ids are allocated from the top of the 16-id space, so the first is 14,
// which the hardware SyncAll of the same kernel uses.
#include "rendezvous.h"

extern "C" __global__ __aicore__ void dyn_quant(GM_ADDR x, GM_ADDR y) {
  AscendC::SyncAll();
  VectorRendezvous(kScaleReady); // want "EXT005 ffts-flag-reserved: `VectorRendezvous` passes FFTS flag 14 \\(`kScaleReady`\\) to `CrossCoreSetFlag`" "passes FFTS flag 14 \\(`kScaleReady`\\) to `CrossCoreWaitFlag`"
  VectorRendezvous(kLowReady);
}
