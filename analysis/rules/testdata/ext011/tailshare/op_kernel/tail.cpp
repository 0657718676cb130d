#include "kernel_operator.h"
#include "tail_share.h"

extern "C" __global__ __aicore__ void tail(GM_ADDR x, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  uint32_t per = *(reinterpret_cast<__gm__ uint32_t *>(tiling));
  uint32_t total = *(reinterpret_cast<__gm__ uint32_t *>(tiling + 4));
  uint32_t blockIdx = AscendC::GetBlockIdx();
  TailOp op;
  op.Process(per, total, blockIdx);
}
