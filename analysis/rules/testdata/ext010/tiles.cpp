// Tile coordinates held in small value objects. One phase splits a tile's
// rows between the two vector lanes, so its objects hold lane values; the
// tiles another phase walks come from the block alone. A method reading
// an object's fields reads that object, not every object of its class.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint16_t kTileDone = 3;

class Span {
public:
  __aicore__ inline Span() {}
  __aicore__ inline Span(uint32_t start, uint32_t len) : start_(start), len_(len) {}
  __aicore__ inline void Set(uint32_t start, uint32_t len) {
    start_ = start;
    len_ = len;
  }
  __aicore__ inline uint32_t End() const { return start_ + len_; }
  uint32_t start_ = 0;
  uint32_t len_ = 0;
};

class SpanWalker {
public:
  __aicore__ inline SpanWalker(Span whole, uint32_t step) : whole_(whole), step_(step) {}
  __aicore__ inline bool Next(Span &out) {
    if (at_ >= whole_.len_) {
      return false;
    }
    out.Set(whole_.start_ + at_, step_);
    at_ += step_;
    return true;
  }
  Span whole_;
  uint32_t step_;
  uint32_t at_ = 0;
};

// Each lane stores its half of the tile's rows.
__aicore__ inline void StoreHalf(uint32_t rows) {
  Span half(0, rows / 2);
  if (GetSubBlockIdx() == 1) {
    half.Set(rows / 2, rows - rows / 2);
  }
  (void)half.End();
}

// The tiles of this block: both lanes walk the same ones and signal the
// cube after the last, each once.
__aicore__ inline void WalkBlockTiles(uint32_t rowsPerBlock, uint32_t step) {
  Span block(GetBlockIdx() * rowsPerBlock, rowsPerBlock);
  SpanWalker walker(block, step);
  Span tile;
  while (walker.Next(tile)) {
    bool last = tile.End() >= block.End();
    if (last) {
      CrossCoreSetFlag<2, PIPE_MTE3>(kTileDone);
    }
  }
}

// The tiles of this lane's half: the lanes' last tiles differ, and only
// the lane whose walk reaches the end sets the flag.
__aicore__ inline void WalkLaneTiles(uint32_t rows, uint32_t step) {
  Span half(0, rows / 2);
  if (GetSubBlockIdx() == 1) {
    half.Set(rows / 2, rows - rows / 2);
  }
  SpanWalker walker(half, step);
  Span tile;
  while (walker.Next(tile)) {
    if (tile.End() >= rows) {
      CrossCoreSetFlag<2, PIPE_MTE3>(kTileDone); // want "EXT010 .*only runs on the vector lane that passes `if \\(tile.End\\(\\) >= rows\\)`"
    }
  }
}

extern "C" __global__ __aicore__ void tiles(GM_ADDR x, uint32_t rows) {
  if ASCEND_IS_AIV {
    StoreHalf(rows);
    WalkBlockTiles(rows, 16);
    WalkLaneTiles(rows, 16);
  }
  (void)x;
}
