// Standalone mixed kernels whose vector lanes split the rows between
// them: the mode-2 handshake with the cube counts a set from each lane.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint16_t kRowsIn = 4;
constexpr uint16_t kRowsOut = 5;

// The second lane has nothing to convert: it signals the cube and leaves,
// and the first lane signals after staging its rows. Each lane sets once.
__aicore__ inline void ConvertRows(uint32_t rows) {
  if (GetSubBlockIdx() > 0) {
    CrossCoreSetFlag<2, PIPE_MTE2>(kRowsIn);
    return;
  }
  if (rows > 0) {
    CrossCoreSetFlag<2, PIPE_MTE2>(kRowsIn);
  }
}

// Each lane takes its share of the rows in tiles and signals after the
// last tile; a lane with no rows signals at once.
__aicore__ inline void DrainRows(int32_t laneRows, int32_t tile) {
  if (laneRows > 0) {
    uint32_t tiles = (laneRows + tile - 1) / tile;
    for (uint32_t t = 0; t < tiles; ++t) {
      if (t == tiles - 1) {
        CrossCoreSetFlag<2, PIPE_MTE2>(kRowsOut);
      }
    }
  } else {
    CrossCoreSetFlag<2, PIPE_MTE2>(kRowsOut);
  }
}

// The second lane's share can be empty: it returns before the set the
// cube waits for.
__aicore__ inline void SplitRows(uint32_t rows) {
  uint32_t mine = rows / 2;
  if (GetSubBlockIdx() == 1) {
    mine = rows - mine;
  }
  if (mine == 0) {
    return;
  }
  CrossCoreSetFlag<2, PIPE_MTE2>(kRowsIn); // want "EXT010 .*is skipped by the lane that returns under `if \\(mine == 0\\)`"
}

// A test on the iteration that is not the last one of the counted loop
// passes on one lane only.
__aicore__ inline void EarlyTile(int32_t laneRows) {
  for (int32_t t = 0; t < laneRows; ++t) {
    if (t == laneRows - 2) {
      CrossCoreSetFlag<2, PIPE_MTE2>(kRowsOut); // want "EXT010 .*only runs on the vector lane that passes `if \\(t == laneRows - 2\\)`"
    }
  }
}

// Per chunk, a lane with no rows of it signals at once and goes on to the
// next chunk; the other lane signals after storing its rows. Each lane
// sets once per chunk.
__aicore__ inline void ChunkRows(uint32_t rows, uint32_t chunks) {
  for (uint32_t c = 0; c < chunks; ++c) {
    uint32_t half = (rows + c) / 2;
    uint32_t mine = GetSubBlockIdx() == 0 ? half : rows + c - half;
    if (mine == 0) {
      ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (kRowsIn << 8));
      continue;
    }
    ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (kRowsIn << 8));
  }
}

// The lane with no rows skips to the next chunk after its set; the other
// lane's set is after the loop: once per chunk on one lane, once on the
// other.
__aicore__ inline void ChunkRowsAfter(uint32_t rows, uint32_t chunks) {
  for (uint32_t c = 0; c < chunks; ++c) {
    uint32_t half = (rows + c) / 2;
    uint32_t mine = GetSubBlockIdx() == 0 ? half : rows + c - half;
    if (mine == 0) {
      ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (kRowsOut << 8)); // want "EXT010 .*only runs on the vector lane that passes `if \\(mine == 0\\)`"
      continue;
    }
  }
  ffts_cross_core_sync(PIPE_MTE3, 1 | (2 << 4) | (kRowsOut << 8));
}

extern "C" __global__ __aicore__ void lane_shares(GM_ADDR x, uint32_t rows) {
  if ASCEND_IS_AIV {
    int32_t laneRows = GetSubBlockIdx() == 0 ? rows / 2 : rows - rows / 2;
    ConvertRows(rows);
    DrainRows(laneRows, 16);
    SplitRows(rows);
    EarlyTile(laneRows);
    ChunkRows(rows, 4);
    ChunkRowsAfter(rows, 4);
  }
  (void)x;
}
