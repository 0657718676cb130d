// Flag ids as the cube side names them.
#pragma once
#include "kernel_operator.h"

namespace cube_side {
constexpr uint16_t kTileReady = 4; // cube -> vector
constexpr uint16_t kTileFree = 5;  // vector -> cube
} // namespace cube_side
