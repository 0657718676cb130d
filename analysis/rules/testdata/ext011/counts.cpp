// A vector-only operator kernel: returns that never run or whose barrier
// is paid later are silent; their twins that let a core leave are not.
#include "kernel_operator.h"
#include "count_base.h"
#include "count_derived.h"

struct CountTiling {
  uint32_t usedCoreNum;
  uint32_t layout;
  uint32_t n;
};

class KernelCount {
public:
  __aicore__ inline void Init(GM_ADDR tiling) {
    tiling_ = (__gm__ CountTiling *)tiling;
    blockIdx_ = AscendC::GetBlockIdx();
    blockNum_ = AscendC::GetBlockNum();
    rows_ = blockIdx_ * 4 + 1;
    atomic_ = tiling_->n == 0;
  }

  // A block id is below the block number on every core: never taken.
  __aicore__ inline void Clear() {
    if (blockIdx_ >= AscendC::GetBlockNum()) {
      return;
    }
    if (blockIdx_ + 1 > blockNum_) {
      return;
    }
    AscendC::SyncAll();
  }

  // The twin: the tiling's used-core count can be below the block number.
  __aicore__ inline void ClearUsed() {
    if (blockIdx_ >= tiling_->usedCoreNum) {
      return; // want "EXT011.*`return` under `if \\(blockIdx_ >= tiling_->usedCoreNum\\)`"
    }
    AscendC::SyncAll();
  }

  // Both returns past the first test give `true`: the answer is the
  // tiling's, not the lane's.
  __aicore__ inline bool Empty() {
    if (tiling_->n > 0) {
      return false;
    }
    if (AscendC::GetSubBlockIdx() != 0) {
      return true;
    }
    Fill();
    return true;
  }
  // The twin: the lane decides the answer.
  __aicore__ inline bool OtherLane() {
    if (AscendC::GetSubBlockIdx() != 0) {
      return true;
    }
    return false;
  }
  __aicore__ inline void Run() {
    if (Empty()) {
      return;
    }
    if (OtherLane()) {
      return; // want "EXT011.*`return` under `if \\(OtherLane\\(\\)\\)`"
    }
    AscendC::SyncAll();
  }

  // A core outside the group skips the barrier but keeps it owed: the
  // count passed by reference falls only where the barrier was passed,
  // and Settle pays the rest.
  __aicore__ inline void Group(uint32_t start, uint32_t &owed) {
    if (blockIdx_ < start) {
      return;
    }
    Fill();
    AscendC::SyncAll();
    owed -= 1;
  }
  __aicore__ inline void Settle(uint32_t &owed) {
    while (owed > 0) {
      AscendC::SyncAll();
      owed -= 1;
    }
  }
  // The twin: nothing counts the skipped barrier.
  __aicore__ inline void GroupUncounted(uint32_t start, uint32_t &owed) {
    if (blockIdx_ < start) {
      return; // want "EXT011.*`return` under `if \\(blockIdx_ < start\\)`"
    }
    AscendC::SyncAll();
    Fill();
    owed -= 1;
  }

  // The final else of a dispatch on the tiling's layout is the fallback
  // for a layout the host never writes.
  __aicore__ inline void Layouts() {
    for (uint32_t i = 0; i < rows_; i++) {
      if (tiling_->layout == 0 || tiling_->layout == 3) {
        Fill();
      } else if (tiling_->layout == 1) {
        Fill();
      } else {
        return;
      }
    }
    AscendC::SyncAll();
  }
  // The twin: a layout the dispatch serves leaves the loop on the cores
  // that have rows.
  __aicore__ inline void LayoutsLeave() {
    for (uint32_t i = 0; i < rows_; i++) {
      if (tiling_->layout == 0) {
        Fill();
      } else if (tiling_->layout == 1) {
        return; // want "EXT011.*`return` under `for \\(i < rows_\\)`"
      }
    }
    AscendC::SyncAll();
  }

  // When the tiling says atomic every core leaves: those past the used
  // cores at once, the others after their atomic add.
  __aicore__ inline void Scatter() {
    if (blockIdx_ >= tiling_->usedCoreNum && atomic_) {
      return;
    }
    if (blockIdx_ < tiling_->usedCoreNum) {
      if (atomic_) {
        Fill();
        return;
      }
      Fill();
    }
    AscendC::SyncAll();
  }
  // The twin: the used cores stay when atomic.
  __aicore__ inline void ScatterStay() {
    if (blockIdx_ >= tiling_->usedCoreNum && atomic_) {
      return; // want "EXT011.*`return` under `if \\(blockIdx_ >= tiling_->usedCoreNum && atomic_\\)`"
    }
    if (blockIdx_ < tiling_->usedCoreNum) {
      Fill();
    }
    AscendC::SyncAll();
  }

  // The barrier runs on the first pass only, before any core can return.
  __aicore__ inline void Rounds() {
    for (uint32_t i = 0; i < tiling_->n; ++i) {
      if (i == 0) {
        AscendC::SyncAll();
      }
      if (rows_ == 0) {
        return;
      }
      Fill();
    }
  }
  // The twin: a barrier on every pass, which the returned core misses.
  __aicore__ inline void RoundsEvery() {
    for (uint32_t i = 0; i < tiling_->n; ++i) {
      AscendC::SyncAll();
      if (rows_ == 0) {
        return; // want "EXT011.*`return` under `if \\(rows_ == 0\\)`"
      }
      Fill();
    }
  }

  // Every path of the chain reaches a barrier; a test every core shares
  // takes them all one way.
  __aicore__ inline void Stages() {
    if (blockIdx_ < tiling_->usedCoreNum) {
      Fill();
      AscendC::SyncAll();
    } else if (blockIdx_ < 2 * tiling_->usedCoreNum) {
      AscendC::SyncAll();
      Fill();
    } else {
      AscendC::SyncAll();
    }
    if (tiling_->n > 0) {
      AscendC::SyncAll();
    }
    if (blockIdx_ < blockNum_) {
      AscendC::SyncAll(); // every block id is below the block number
    }
  }
  // The twin: no final else, so the cores past both tests skip it.
  __aicore__ inline void StagesSkip() {
    if (blockIdx_ < tiling_->usedCoreNum) {
      Fill();
      AscendC::SyncAll();
    } else if (blockIdx_ < 2 * tiling_->usedCoreNum) {
      AscendC::SyncAll(); // want "EXT011.*only the cores for which `if \\(blockIdx_ < 2 \\* tiling_->usedCoreNum\\)` takes this branch reach the hardware barrier"
      Fill();
    }
  }

private:
  __aicore__ inline void Fill() {}
  bool atomic_;
  __gm__ CountTiling *tiling_;
  uint32_t blockIdx_;
  uint32_t blockNum_;
  uint32_t rows_;
};

// Per-core switches: an object holding the block id and a switch nothing
// turns on (the object's other fields do not make it per core).
struct Switches {
  bool offsetEnable = false;
  bool lateEnable = false;
  uint32_t block;
};

__aicore__ inline void Offsets(__gm__ CountTiling *tiling) {
  Switches sw;
  sw.block = AscendC::GetBlockIdx();
  if (sw.offsetEnable) {
    return;
  }
  AscendC::SyncAll();
}

// The twin: the switch the block id turns on.
__aicore__ inline void LateOffsets(__gm__ CountTiling *tiling) {
  Switches sw;
  sw.block = AscendC::GetBlockIdx();
  sw.lateEnable = sw.block >= tiling->layout;
  if (sw.lateEnable) {
    return; // want "EXT011.*`return` under `if \\(sw.lateEnable\\)`"
  }
  AscendC::SyncAll();
}

extern "C" __global__ __aicore__ void row_count(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelCount op;
  op.Init(tiling);
  uint32_t owed = 2;
  op.Clear();
  op.ClearUsed();
  op.Run();
  op.Group(1, owed);
  op.GroupUncounted(1, owed);
  op.Settle(owed);
  op.Layouts();
  op.LayoutsLeave();
  op.Scatter();
  op.ScatterStay();
  op.Rounds();
  op.RoundsEvery();
  op.Stages();
  op.StagesSkip();
  Offsets((__gm__ CountTiling *)tiling);
  LateOffsets((__gm__ CountTiling *)tiling);
  CountDerived derived;
  derived.Run();
  CountOther other;
  other.Run(4);
}

// A loop whose last pass meets the barrier and returns: every core
// passes it once, right before it leaves.
__aicore__ inline void Tiles(uint32_t start, uint32_t end) {
  for (uint32_t i = start;; i++) {
    Tile(i);
    if (i + 1 == end) {
      AscendC::SyncAll();
      return;
    }
  }
}

// The twin: a pass that leaves without the barrier the other passes
// meet.
__aicore__ inline void SkipTiles(uint32_t start, uint32_t end) {
  for (uint32_t i = start;; i++) {
    if (AscendC::GetBlockIdx() > i) {
      return; // want "EXT011.*`return` under `if \\(AscendC::GetBlockIdx\\(\\) > i\\)`"
    }
    if (i + 1 == end) {
      AscendC::SyncAll();
      return;
    }
  }
}
