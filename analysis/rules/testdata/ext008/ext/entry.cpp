// An extern reading its topology both ways.
#include "kernel_operator.h"
#include "phase.h"
#include "task_topo.h"

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *task_args) {
  uint32_t blk = get_block_idx(); // want "EXT008 topology-getter: `get_block_idx\\(\\)` reads the persistent launch grid.*use `get_block_idx\\(args\\)`"
  uint32_t nblk = get_block_num(); // want "get_block_num"
  uint32_t lane = get_subblockid(); // want "sub-block id is 0 on both vector lanes.*get_sub_block_id"
  uint32_t lanes = get_subblockdim(); // want "get_subblockdim"
  int64_t b2 = AscendC::GetBlockIdx(); // want "AscendC::GetBlockIdx\\(\\)"
  int64_t n2 = GetBlockNum(); // want "GetBlockNum"
  int64_t l2 = AscendC::GetSubBlockIdx(); // want "GetSubBlockIdx"
  if (get_block_idx() >= used) { // want "get_block_idx"
    return;
  }
  // The args forms are what the runtime programs: silent.
  uint32_t b3 = get_block_idx(task_args);
  uint32_t n3 = get_block_num(task_args);
  uint32_t l3 = get_sub_block_id(task_args);
  phase(blk);
  uint32_t l4 = lane_of(task_args);
#ifdef __CPU_SIM
  uint32_t simBlk = get_block_idx();
#endif
  uint32_t b4 = get_block_idx(); // NOLINT(EXT008)
  auto cb = [&]() { return get_block_num(); }; // want "get_block_num"
  uint32_t b5 = TASK_BLOCK(task_args); // want "`TASK_BLOCK` expands to `GetBlockIdx\\(\\)`, which reads the persistent launch grid.*use `get_block_idx\\(args\\)`"
  uint32_t l5 = TASK_LANE; // want "`TASK_LANE` expands to `GetSubBlockIdx\\(\\)`, a lane register the runtime never programs"
  uint32_t n5 = TASK_BLOCKS(task_args);
}
