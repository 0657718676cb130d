// What makes a scalar GM read coherent, and how sure a finding is: pointer
// provenance, range helpers, facts from the callers, this core's own
// stores, and the severity of what is left.
#include "meta_util.h"

// The runtime's context (behind get_sub_block_id(args)) is written before
// the task: not a hazard.
struct GlobalContext {
  int32_t sub_block_id;
};
__aicore__ inline int32_t get_sub_block_id(__gm__ int64_t *args) {
  __gm__ GlobalContext *ctx = reinterpret_cast<__gm__ GlobalContext *>(static_cast<uint64_t>(args[31]));
  return ctx->sub_block_id;
}

// Every caller refreshes the metadata first: the body's read is coherent.
__aicore__ inline int32_t plan_rows(__gm__ uint8_t *meta) {
  auto *plan = reinterpret_cast<__gm__ PlanTiling *>(meta + kPlanOffset);
  return plan->rows;
}

// One caller forgets (`forgetful` below): reported, naming that caller.
__aicore__ inline int32_t plan_cols(__gm__ uint8_t *meta) {
  auto *plan = reinterpret_cast<__gm__ PlanTiling *>(meta + kPlanOffset);
  return plan->cols; // want "info: EXT001 .*plan->cols"
}

// The body re-derives the pointer from args: the caller's refresh of the
// same task input still holds.
__aicore__ inline int32_t plan_blocks(__gm__ int64_t *args) {
  __gm__ uint8_t *meta = input_data<uint8_t>(args, 2);
  auto *plan = reinterpret_cast<__gm__ PlanTiling *>(meta + kPlanOffset);
  return plan->blocks;
}

extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ uint8_t *meta = input_data<uint8_t>(args, 2);
  __gm__ int32_t *seq_lens = input_data<int32_t>(args, 0);
  __gm__ int32_t *scratch = input_data<int32_t>(args, 3);
  int32_t lane = get_sub_block_id(args);

  // A task input nothing in the task writes: coherent thanks to the
  // task-start invalidation, reported at info (the house rule).
  int32_t len = seq_lens[lane]; // want "info: EXT001 .*seq_lens\\[lane\\].*reads memory nothing in this task writes before it"

  // Provenance: a pointer cast from an offset of meta is meta's memory,
  // refreshed by a helper of a helper over integer line addresses.
  refresh_meta(meta);
  auto *plan = reinterpret_cast<__gm__ PlanTiling *>(meta + kPlanOffset);
  int32_t rows = plan->rows + plan_rows(meta) + plan_cols(meta) + plan_blocks(args);

  // Only this core's scalar unit writes the scratch rows before reading
  // them back: its cache holds what it wrote.
  for (int32_t i = 0; i < rows; ++i) {
    scratch[i] = len + i;
  }
  int32_t last = scratch[rows - 1];
  scratch[0] = last;
}

extern "C" __global__ __aicore__ void forgetful(__gm__ int64_t *args) {
  __gm__ uint8_t *meta = input_data<uint8_t>(args, 2);
  int32_t cols = plan_cols(meta);
}
