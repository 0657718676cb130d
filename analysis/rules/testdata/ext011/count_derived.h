// Read after count_base.h by its includer: the base's members are the
// block id and the block number, so the test below is never true.
#pragma once

class CountDerived : public CountBase {
public:
  __aicore__ inline void Run() {
    InitBase();
    if (this->blockIdx_ >= this->coreNum_) {
      return;
    }
    AscendC::SyncAll();
  }
};

// The twin: members of the same names, but this class's core count is the
// tiling's.
class CountOther {
public:
  __aicore__ inline void Run(uint32_t used) {
    blockIdx_ = AscendC::GetBlockIdx();
    coreNum_ = used;
    if (blockIdx_ >= coreNum_) {
      return; // want "EXT011.*`return` under `if \\(blockIdx_ >= coreNum_\\)`"
    }
    AscendC::SyncAll();
  }

private:
  uint32_t blockIdx_;
  uint32_t coreNum_;
};
