// The package's rendezvous helper: the id is an enumerator cast to the
// flag's type inside the helper.
#pragma once
#include "kernel_operator.h"

constexpr uint16_t kFlagIdCount = 16;
constexpr uint16_t kOwnFlags = 2;
constexpr uint16_t kOwnBase = kFlagIdCount - kOwnFlags;

enum OwnFlag : uint16_t {
  kScaleReady = kOwnBase,
  kLowReady = 3,
};

__aicore__ inline void VectorRendezvous(OwnFlag flag) {
  AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(static_cast<uint16_t>(flag));
  AscendC::CrossCoreWaitFlag(static_cast<uint16_t>(flag));
}
