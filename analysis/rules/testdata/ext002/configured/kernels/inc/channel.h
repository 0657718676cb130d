#pragma once
#include "kernel_operator.h"

namespace chan {
constexpr uint16_t kReady = 2;
constexpr uint16_t kFree = 3;

// Both sides' halves of the handshake: each kernel calls its own.
__aicore__ inline void CubePost() { AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kReady); }
__aicore__ inline void CubeTake() { AscendC::CrossCoreWaitFlag(kFree); }
__aicore__ inline void VecTake() { AscendC::CrossCoreWaitFlag(kReady); }
__aicore__ inline void VecPost() { AscendC::CrossCoreSetFlag<2, PIPE_MTE2>(kFree); }

// The cube hands its L0 buffers between MMAD and MTE1 on events 0 and 1
// itself: a TPipe the cube constructs presets those events too.
__aicore__ inline void CubeL0Handoff() {
  AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
  AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID1);
}
}  // namespace chan
