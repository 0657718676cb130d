#pragma once
// Flag ids of the attention extern.
constexpr uint16_t kQkReady = 3;      // cube -> vector: scores are in GM
constexpr uint16_t kSoftmaxReady = 4; // vector -> cube: probabilities are in GM
enum VecFlags : uint16_t {
  VEC_ALL_DONE = 3, // every vector finished its rows
};
#define LANE_SYNC 4
