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
}  // namespace chan
