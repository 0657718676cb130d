// Standalone kernels (default build) that run their operator through an
// object-like macro of the kernel body, as operator libraries often do:
// the macro's statements are calls made at its use.
#include "kernel_operator.h"

using namespace AscendC;

class TailRows {
public:
  __aicore__ inline void Init(GM_ADDR y, uint32_t len, uint32_t tail) {
    tail_ = tail;
    outGm_.SetGlobalBuffer((__gm__ float *)y + len * GetBlockIdx(), len);
    pipe_.InitBuffer(outQ_, 1, 1024);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> o = outQ_.AllocTensor<float>();
    Duplicate(o, 1.0f, 256);
    outQ_.EnQue(o);
    o = outQ_.DeQue<float>();
    DataCopy(outGm_[0], o, 256);
    for (uint32_t i = 0; i < tail_; i++) {
      outGm_.SetValue(256 + i, 1.0f);
    }
    outQ_.FreeTensor(o);
  }

private:
  TPipe pipe_;
  TQue<QuePosition::VECOUT, 1> outQ_;
  GlobalTensor<float> outGm_;
  uint32_t tail_ = 0;
};

// The kernel ends after the macro: the compiler writes the line back as
// the kernel ends, and nothing in between hands it to another block.
extern "C" __global__ __aicore__ void tail_rows(GM_ADDR y, uint32_t len, uint32_t tail) {
#define INIT_AND_PROCESS op.Init(y, len, tail); op.Process()
  TailRows op;
  INIT_AND_PROCESS;
}

// The barrier after the stores hands the line to the next block, whose
// DMA rows share it: a finding, through the macro as through a call.
class SyncedTailRows {
public:
  __aicore__ inline void Init(GM_ADDR y, uint32_t len, uint32_t tail) {
    tail_ = tail;
    outGm_.SetGlobalBuffer((__gm__ float *)y + len * GetBlockIdx(), len);
    pipe_.InitBuffer(outQ_, 1, 1024);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> o = outQ_.AllocTensor<float>();
    Duplicate(o, 1.0f, 256);
    outQ_.EnQue(o);
    o = outQ_.DeQue<float>();
    DataCopy(outGm_[0], o, 256);
    for (uint32_t i = 0; i < tail_; i++) {
      outGm_.SetValue(256 + i, 1.0f); // want "warning: EXT009 .*`outGm_.SetValue\\(256 \\+ i, 1.0f\\)`"
    }
    outQ_.FreeTensor(o);
    SyncAll();
  }

private:
  TPipe pipe_;
  TQue<QuePosition::VECOUT, 1> outQ_;
  GlobalTensor<float> outGm_;
  uint32_t tail_ = 0;
};

extern "C" __global__ __aicore__ void tail_rows_synced(GM_ADDR y, uint32_t len, uint32_t tail) {
#define RUN_TAIL_ROWS op.Init(y, len, tail); op.Process()
  SyncedTailRows op;
  RUN_TAIL_ROWS;
}
