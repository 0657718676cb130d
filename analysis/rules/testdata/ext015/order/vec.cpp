// A vector extern: the set orders the copy-out after the compute.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void plain_order(__gm__ int64_t *args) {
  AscendC::LocalTensor<float> ub;
  AscendC::GlobalTensor<float> outGm;
  AscendC::Adds(ub, ub, 1.0f, 64);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID5); // want "sets event V_MTE3 id 5, and no wait of it follows"
  AscendC::DataCopy(outGm, ub, 64);
  AscendC::PipeBarrier<PIPE_ALL>();
}
