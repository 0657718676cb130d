// Flag ids a class template allocates from a base: each instance's ids are
// its members' values with the class's parameters bound to the arguments
// written (or their defaults), through an alias too.
#include "kernel_operator.h"

template <uint16_t kBase, uint16_t kStride = 2>
struct StageFlags {
  static constexpr uint16_t kFree = kBase;
  static constexpr uint16_t kReady = kBase + kStride * 2;
};
using Dequant = StageFlags<8>;     // ids 8 and 12
typedef StageFlags<2, 1> Epilog;   // ids 2 and 4

extern "C" __global__ __aicore__ void stage_rows(GM_ADDR x, GM_ADDR y) {
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(Dequant::kReady); // want "EXT005 ffts-flag-reserved: `CrossCoreSetFlag` uses FFTS flag 12 \\(`Dequant::kReady`\\), which the hardware `SyncAll` of this kernel uses"
  AscendC::CrossCoreWaitFlag(Dequant::kReady); // want "FFTS flag 12 \\(`Dequant::kReady`\\)"
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(StageFlags<9, 1>::kReady); // want "FFTS flag 11 \\(`StageFlags<9, 1>::kReady`\\)"
  AscendC::CrossCoreWaitFlag(StageFlags<9, 1>::kReady); // want "FFTS flag 11"
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(Epilog::kReady);
  AscendC::CrossCoreWaitFlag(Epilog::kReady);
  AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(Dequant::kFree);
  AscendC::CrossCoreWaitFlag(Dequant::kFree);
  AscendC::SyncAll<false>();
}
