// args[] layout of the fused extern: tensors first, then scalars.
#pragma once
#include <cstdint>

namespace pa {

enum TensorArg : int32_t {
  kOut = 0,
  kQuery,
  kKeyCache,
  kValueCache,
  kBlockTable,
  kWorkspace,
  kMetadata,
  kQProj,
  kKProj,
  kVProj,
  kQNormW,
  kKNormW,
  kRopeCos,
  kRopeSin,
  kInvRms,
  kSlotMapping,
  kSeqLens,
};

constexpr int32_t kNumTensors = 17;
constexpr int32_t kCacheRowOffset = kNumTensors + 0;
constexpr int32_t kBatchOffset = kNumTensors + 1;

// Per-pair cube<->vector handshakes (mode 2). SyncAll owns 11..14.
constexpr uint16_t kQkReady = 2;
constexpr uint16_t kPReady = 3;
constexpr uint16_t kSoftmaxDone = 12; // planted: reserved by the hardware SyncAll

constexpr int32_t kBatch = 8;
constexpr int32_t kHeads = 40;
constexpr int32_t kKvHeads = 8;
constexpr int32_t kHeadDim = 128;
constexpr int32_t kBlockSize = 128;

struct ChipTensor {
  struct {
    uint64_t addr;
    uint64_t size;
  } buffer;
  int64_t start_offset;
  int64_t shape[5];
};

template <typename T>
__aicore__ inline __gm__ T *tensor_data(__gm__ int64_t *args, int32_t idx) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[idx]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

} // namespace pa
