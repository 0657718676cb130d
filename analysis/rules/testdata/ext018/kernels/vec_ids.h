// Flag ids as the vector side names them: the ready id disagrees.
#pragma once
#include "kernel_operator.h"

namespace vec_side {
constexpr uint16_t kTileFree = 5;
constexpr uint16_t kTileReady = 6;

__aicore__ inline void AwaitTile() {
  AscendC::CrossCoreWaitFlag(kTileReady); // want "EXT018 crossflag-wait-unset: `AscendC::CrossCoreWaitFlag\\(kTileReady\\)` waits on the vector core's flag 6, but no set of this unit signals it: the sets that signal the vector core use 4 \\(mismatch.cpp:[0-9]+\\)"
}
} // namespace vec_side
