// args[] of rms_attn: six tensors, then two scalars (guide §2).
#pragma once
#include <cstdint>

namespace rms_attn {

enum Arg : int32_t {
  kOut = 0,
  kX = 1,
  kNormW = 2,
  kWeight = 3,
  kWorkspace = 4,
  kRowLens = 5,
  kRows = 6, // INT32 scalar
  kEps = 7,  // FP32 scalar
};

constexpr int32_t kCols = 128;
constexpr uint16_t kNormReady = 4; // per-pair handshake; SyncAll owns 11..14

struct ChipTensor {
  struct {
    uint64_t addr;
    uint64_t size;
  } buffer;
  int64_t start_offset;
};

template <typename T>
__aicore__ inline __gm__ T *arg_tensor(__gm__ int64_t *args, int32_t idx) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[idx]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

template <typename T>
__aicore__ inline T from_u64(int64_t bits) {
  union {
    uint32_t u;
    T v;
  } c;
  c.u = static_cast<uint32_t>(bits);
  return c.v;
}

} // namespace rms_attn
