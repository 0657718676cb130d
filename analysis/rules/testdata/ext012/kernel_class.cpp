// AscendC-style kernel class owning its TPipe: the object's destructor
// drains at the return.
#include "kernel_operator.h"

class KernelAdd {
 public:
  __aicore__ inline void Process() {
    AscendC::LocalTensor<half> z = outQueue.DeQue<half>();
    AscendC::DataCopy(zGm, z, 128);
    outQueue.FreeTensor(z);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue;
  AscendC::GlobalTensor<half> zGm;
};

extern "C" __global__ __aicore__ void add_custom(__gm__ int64_t *args) {
  KernelAdd op;
  op.Process();
}

// Borrowing a pipe through a pointer does not destroy it at the return.
class Borrower {
 public:
  __aicore__ inline void Store() { AscendC::DataCopy(yGm, yUb, 64); }

 private:
  AscendC::TPipe *pipe_;
  AscendC::GlobalTensor<half> yGm;
  AscendC::LocalTensor<half> yUb;
};

extern "C" __global__ __aicore__ void borrower_entry(__gm__ int64_t *args) {
  Borrower b;
  b.Store(); // want "`b.Store\\(\\)` leaves `AscendC::DataCopy\\(yGm, yUb, 64\\)`"
}

// The pipe is a base class's member: the object's destructor still runs
// the base's, which drains at the return.
class VecKernelBase {
 protected:
  AscendC::TPipe pipe_;
};

class KernelNorm : public VecKernelBase {
 public:
  __aicore__ inline void Process() { AscendC::DataCopy(yGm, yUb, 64); }

 private:
  AscendC::GlobalTensor<half> yGm;
  AscendC::LocalTensor<half> yUb;
};

extern "C" __global__ __aicore__ void norm_entry(__gm__ int64_t *args) {
  KernelNorm op;
  op.Process();
}
