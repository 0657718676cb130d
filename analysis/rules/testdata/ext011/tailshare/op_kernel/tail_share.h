// A block's share of the elements, in a header whose block id is a
// parameter: empty only for a block at or past the elements' shares, and
// the host launches as many blocks as there are shares
// (op_host/tail_tiling.cpp). The analysis follows the launch but not the
// share's arithmetic: it says less.
#include "kernel_operator.h"

struct TailOp {
  __aicore__ inline void Process(uint32_t per, uint32_t total, uint32_t blockIdx) {
    uint32_t offset = blockIdx * per;
    uint32_t len = (offset + per > total) ? (total - offset) : per;
    if (len == 0) return; // want "info: EXT011 .*unless every block the host launches gets a share: it sizes the launch to the work \\(../op_host/tail_tiling.cpp:8\\)"
    AscendC::SyncAll();
  }
};
