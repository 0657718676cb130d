// The runtime's per-task shape: every rule holds.
#include "kernel_operator.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
  uint32_t blk = get_block_idx(); // want "EXT008 topology-getter: `get_block_idx\\(\\)` reads the persistent launch grid"
  (void)blk;
}
