// Flag ids shared by the cube and vector phases.
#pragma once

#define HDR_FLAG 12 // the score-ready handshake
constexpr uint16_t kHdrFree = 2;
