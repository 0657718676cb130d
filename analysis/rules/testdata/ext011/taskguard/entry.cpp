// A runtime-ABI kernel: the task's block id is below the task's block
// count on every core, so a guard on it returns on none.
#include "kernel_operator.h"

constexpr uint32_t kRows = 16;

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args) {
  const uint32_t blockIdx = static_cast<uint32_t>(get_block_idx(args));
  const uint32_t blockNum = static_cast<uint32_t>(get_block_num(args));
  if (blockIdx >= blockNum) {
    return;
  }
  const uint32_t total = static_cast<uint32_t>(args[1]);
  if (blockIdx * kRows >= total) {
    return; // want "EXT011 barrier-early-return: `return` under `if \\(blockIdx \\* kRows >= total\\)` can leave before the hardware barrier.*the kernel hangs \\(507018\\)"
  }
  AscendC::SyncAll();
}
