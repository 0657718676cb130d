// A wrapper that installs its own lane bridge: the names are its own.
#include "kernel_operator.h"

#define get_subblockid() get_sub_block_id(g_args)

__aicore__ inline uint32_t GetBlockIdx() { return g_blk; }

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  uint32_t lane = get_subblockid();
  uint32_t blk = GetBlockIdx();
  uint32_t n = get_block_num(); // want "get_block_num"
}
