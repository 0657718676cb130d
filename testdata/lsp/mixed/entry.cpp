// 混合算子：cube 做矩阵乘，vector 做后处理 (a mixed extern for the LSP tests).
#include "kernel_operator.h"

__aicore__ inline void cube_phase() {
  AscendC::Mmad(c, a, b, params);
}

__aicore__ inline void vec_phase() {
  AscendC::PipeBarrier<PIPE_V>();
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  cube_phase();
  /* 全核同步 🚀 */ AscendC::SyncAll();
  vec_phase();
  AscendC::SyncAll<false>();
  AscendC::SyncAll(); // NOLINT(EXT004)
}
