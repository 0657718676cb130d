// A mixed extern whose kernel object inherits its TPipe from a base class
// in another header: built with no core guard, the cube constructs the
// pipe too while it pre-sets the M_MTE1 events itself. The vector-only
// object below is built under the vector guard.
#include "kernel_base.h"

class QuantKernel : public KernelBase {
public:
  __aicore__ inline void ProcessCube() {
    AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
  }
};

class NormStage : public StageBase<NormStage> {
public:
  __aicore__ inline void Process() {}
};

extern "C" __global__ __aicore__ void fused_quant(__gm__ int64_t *args) {
  QuantKernel op; // want "error: EXT002 .*`op` \\(a `QuantKernel`, whose member `pipe_` is an `AscendC::TPipe`\\) is created where the cube core"
  if ASCEND_IS_AIC {
    op.ProcessCube();
  }
  if ASCEND_IS_AIV {
    NormStage norm;
    norm.Process();
  }
  (void)args;
}
