// The twin of tailshare: the same share, but the host launches every
// vector core, shares or not (op_host/tail_tiling.cpp): the blocks past
// the shares leave before the barrier.
#include "kernel_operator.h"

struct TailOp {
  __aicore__ inline void Process(uint32_t per, uint32_t total, uint32_t blockIdx) {
    uint32_t offset = blockIdx * per;
    uint32_t len = (offset + per > total) ? (total - offset) : per;
    if (len == 0) return; // want "error: EXT011 .*under `if \\(len == 0\\)`"
    AscendC::SyncAll();
  }
};
