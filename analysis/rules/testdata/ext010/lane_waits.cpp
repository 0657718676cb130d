// Each cube signals its two vector lanes with a mode-2 set per tile; each
// lane must take every count with its own wait. A lane whose share of the
// rows is empty and skips the wait keeps the count, so its next wait
// returns before the cube's next set.
#include "kernel_operator.h"

constexpr uint16_t kScoresReady = 4;
constexpr uint16_t kProbsReady = 5;
constexpr uint16_t kStatsReady = 6;

struct ReadyFlag {
  uint16_t id;
};

__aicore__ inline void WaitReady(ReadyFlag flag) { AscendC::CrossCoreWaitFlag(flag.id); }

template <uint8_t mode, pipe_t pipe>
__aicore__ inline void SetReady(ReadyFlag flag) {
  AscendC::CrossCoreSetFlag<mode, pipe>(flag.id);
}

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The lanes split a tile's rows; lane 1 gets none when the tile has one.
__aicore__ inline uint32_t LaneRows(uint32_t rows) {
  uint32_t half = rows / 2;
  return AscendC::GetSubBlockIdx() == 1 ? rows - half : half;
}

__aicore__ inline void ScoresSoftmax(uint32_t rows, uint32_t rowTile) {
  uint32_t loops = CeilDiv(LaneRows(rows), rowTile);
  for (uint32_t i = 0; i < loops + 1; i++) {
    if (i < loops) {
      if (i == 0) {
        AscendC::CrossCoreWaitFlag(kScoresReady); // want "EXT010 crosscore-lane-imbalance: `AscendC::CrossCoreWaitFlag\\(kScoresReady\\)` only runs on the vector lane that passes `if \\(i < loops\\)`: the cube's mode-2 set"
      }
    }
  }
}

// Fixed: the lane with no rows takes its count and leaves.
__aicore__ inline void ProbsSoftmax(uint32_t rows, uint32_t rowTile) {
  uint32_t mine = LaneRows(rows);
  if (mine == 0) {
    AscendC::CrossCoreWaitFlag(kProbsReady);
    return;
  }
  uint32_t loops = CeilDiv(mine, rowTile);
  for (uint32_t i = 0; i < loops + 1; i++) {
    if (i < loops && i == 0) {
      AscendC::CrossCoreWaitFlag(kProbsReady);
    }
  }
}

// A flag object handed down by name: the wrapper's wait is the flag's.
__aicore__ inline void StatsUpdate(uint32_t rows, ReadyFlag statsReady) {
  if (LaneRows(rows) > 0) {
    WaitReady(statsReady); // want "EXT010 crosscore-lane-imbalance: `WaitReady\\(statsReady\\)` only runs on the vector lane"
  }
}

extern "C" __global__ __aicore__ void lane_waits(__gm__ uint8_t *x, uint32_t tiles, uint32_t rows) {
  ReadyFlag statsReady{kStatsReady};
  for (uint32_t t = 0; t < tiles; t++) {
    if (g_coreType == AscendC::AIC) {
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kScoresReady);
      AscendC::CrossCoreSetFlag<2, PIPE_FIX>(kProbsReady);
      SetReady<2, PIPE_FIX>(statsReady);
    } else {
      ScoresSoftmax(rows, 16);
      ProbsSoftmax(rows, 16);
      StatsUpdate(rows, statsReady);
    }
  }
  (void)x;
}
