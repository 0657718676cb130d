// A base class keeping the core's id and the block number.
#pragma once
#include "kernel_operator.h"

class CountBase {
protected:
  __aicore__ inline void InitBase() {
    blockIdx_ = AscendC::GetBlockIdx();
    coreNum_ = AscendC::GetBlockNum();
  }
  uint32_t blockIdx_;
  uint32_t coreNum_;
};
