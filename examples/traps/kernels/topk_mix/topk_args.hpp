// args[] of topk_mix: five tensors, then two scalars.
#pragma once
#include <cstdint>

namespace topk {

constexpr int32_t kIndexArg = 0;
constexpr int32_t kOutArg = 1;
constexpr int32_t kScoresArg = 1; // EXT107: args[1] is `out`; `scores` is args[2]
constexpr int32_t kWorkspaceArg = 3;
constexpr int32_t kCountsArg = 4;
constexpr int32_t kTopKArg = 5;   // INT32 scalar
constexpr int32_t kScaleArg = 6;  // FP32 scalar

// Cube<->vector handshake ids. The hardware SyncAll owns 11..14.
constexpr uint16_t kScoresReady = 3;
constexpr uint16_t kMergeDone = 13;
constexpr uint16_t kMergeReady = 5; // cube -> vector: the merged rows are in the workspace
constexpr uint16_t kCubesDone = 3; // cube-wide barrier: shares kScoresReady's counter on the cube

struct ChipTensor {
  struct {
    uint64_t addr;
    uint64_t size;
  } buffer;
  int64_t start_offset;
};

template <typename T>
__aicore__ inline __gm__ T *tensor_data(__gm__ int64_t *args, int32_t idx) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[idx]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

} // namespace topk
