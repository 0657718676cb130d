// Mixed kernels that say how many vector cores a block runs. With one
// (KERNEL_TYPE_MIX_AIC_1_1) a vector core's GetBlockIdx() is below the
// block number, as a cube core's; with two it counts to twice that.
#include "kernel_operator.h"

__aicore__ inline void OneVectorStage() {
  if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum()) {
    return;
  }
  AscendC::SyncAll<false>();
}

extern "C" __global__ __aicore__ void one_vector(GM_ADDR a, GM_ADDR c) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, a, params);
  }
  if ASCEND_IS_AIV {
    OneVectorStage();
  }
}
