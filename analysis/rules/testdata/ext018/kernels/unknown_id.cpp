// A set whose id is a task input: any wait may be its match.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void dynamic_ids(__gm__ int64_t *args) {
  uint16_t id = static_cast<uint16_t>(args[2]);
  if ASCEND_IS_AIC {
    AscendC::Mmad(c, a, b, params);
    AscendC::CrossCoreSetFlag<2, PIPE_FIX>(id);
  }
  if ASCEND_IS_AIV {
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::CrossCoreWaitFlag(7);
  }
}
