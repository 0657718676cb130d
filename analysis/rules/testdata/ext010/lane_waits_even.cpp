// Silent twin: both lanes wait whatever their share, and a wait under a
// lane test on a flag the cube sets for the cubes alone (mode 0).
#include "kernel_operator.h"

constexpr uint16_t kTileReady = 7;
constexpr uint16_t kPeerReady = 8;

__aicore__ inline uint32_t LaneShare(uint32_t rows) {
  uint32_t half = rows / 2;
  return AscendC::GetSubBlockIdx() == 1 ? rows - half : half;
}

__aicore__ inline void Consume(uint32_t rows) {
  if (LaneShare(rows) > 0) {
    AscendC::CrossCoreWaitFlag(kTileReady);
  } else {
    AscendC::CrossCoreWaitFlag(kTileReady);
  }
  if (AscendC::GetSubBlockIdx() == 0) {
    AscendC::CrossCoreWaitFlag(kPeerReady);
  }
}

extern "C" __global__ __aicore__ void lane_waits_even(__gm__ uint8_t *x, uint32_t tiles, uint32_t rows) {
  for (uint32_t t = 0; t < tiles; t++) {
    if (g_coreType == AscendC::AIC) {
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kTileReady);
      AscendC::CrossCoreSetFlag<0, PIPE_FIX>(kPeerReady);
    } else {
      Consume(rows);
    }
  }
  (void)x;
}

constexpr uint16_t kRowsReady = 9;
constexpr uint16_t kPostReady = 10;

// The lane with no rows waits in its own test, the others on the first
// pass of their row loop: one wait per lane, written apart.
__aicore__ inline void RowsApart(uint32_t rows, uint32_t rowTile) {
  uint32_t mine = LaneShare(rows);
  uint32_t loops = (mine + rowTile - 1) / rowTile;
  if (mine == 0) {
    AscendC::CrossCoreWaitFlag(kRowsReady);
  }
  for (uint32_t i = 0; i < loops; i++) {
    if (i == 0) {
      AscendC::CrossCoreWaitFlag(kRowsReady);
    }
  }
}

// The cube sets under the same test the lane waits under: not the
// unconditional set this reading pairs a skipped wait with.
extern "C" __global__ __aicore__ void rows_apart(__gm__ uint8_t *x, uint32_t tiles, uint32_t rows) {
  for (uint32_t t = 0; t < tiles; t++) {
    if (g_coreType == AscendC::AIC) {
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kRowsReady);
    } else {
      RowsApart(rows, 16);
    }
    if (g_coreType == AscendC::AIC) {
      if (LaneShare(rows) > 0) {
        AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kPostReady);
      }
    }
    if (LaneShare(rows) > 0 && g_coreType == AscendC::AIV) {
      AscendC::CrossCoreWaitFlag(kPostReady);
    }
  }
  (void)x;
}
