// Flag ids of the cube/vector handshake.
#pragma once
#include "kernel_operator.h"

constexpr uint16_t kQkReady = 4;
enum SoftmaxFlags : uint16_t { kSoftmaxReady = 5, kPvReady = 6 };
#define LANE_SYNC_FLAG 7
