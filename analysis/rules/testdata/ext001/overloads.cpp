// A call reaches a definition of its name only when its arguments fit:
// the optimizer's `optimizer_.Compute(buf, buf, k)` is not the kernel's
// one-argument `Compute(args)`, whose DMA clears the mask, so no DMA
// write runs in the update loop around the mask read.
#include "kernel_operator.h"

using namespace AscendC;

struct Args {
  GM_ADDR mask;
  GM_ADDR rows;
};

template <typename Optimizer>
class MaskKernel {
public:
  __aicore__ inline void Compute(Args args) {
    maskGm_.SetGlobalBuffer((__gm__ int8_t *)args.mask);
    pipe_.InitBuffer(buf_, 1024);
    LocalTensor<int8_t> zeros = buf_.Get<int8_t>();
    Duplicate(zeros.ReinterpretCast<int16_t>(), (int16_t)0, 128);
    DataCopy(maskGm_, zeros, 256);
    PipeBarrier<PIPE_ALL>();
    SyncAll();
  }
  __aicore__ inline int32_t Pick(int32_t i) {
    if (maskGm_.GetValue(i) != 1) {
      return -1;
    }
    return i;
  }
  // The optimizer's Compute: no DMA of the mask in the loop.
  __aicore__ inline void Update(int32_t n) {
    LocalTensor<float> rows = buf_.Get<float>();
    for (int32_t i = 0; i < n; i++) {
      int32_t k = Pick(i);
      optimizer_.Compute(rows, rows, k);
    }
  }
  // The kernel's own Compute in the loop: its DMA clears the mask the
  // next pass reads.
  __aicore__ inline int32_t PickAgain(int32_t i) {
    return maskGm_.GetValue(i); // want "warning: EXT001 .*read after this core's own DMA write `DataCopy\\(maskGm_, zeros, 256\\)` \\(overloads.cpp:22\\) in a loop of `Rerun`"
  }
  __aicore__ inline void Rerun(Args args, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
      (void)PickAgain(i);
      Compute(args);
    }
  }

private:
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  GlobalTensor<int8_t> maskGm_;
  Optimizer optimizer_;
};

class Adagrad {
public:
  __aicore__ inline void Compute(LocalTensor<float> &in, LocalTensor<float> &out, int32_t n) {
    Muls(out, in, 0.5f, n);
  }
};

extern "C" __global__ __aicore__ void mask_update(GM_ADDR mask, GM_ADDR rows, int32_t n) {
  Args args{mask, rows};
  MaskKernel<Adagrad> op;
  op.Compute(args);
  op.Update(n);
  op.Rerun(args, n);
}
