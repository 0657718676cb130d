// args[] index tables for the two ABIs of run_qwen_fai. Tensors come first
// in signature order, scalars after them (guide §2).
#pragma once
#include <cstdint>

enum AttnArg : int32_t {
    ARG_OUT = 0,
    ARG_QUERY,
    ARG_KEY_CACHE,
    ARG_VALUE_CACHE,
    ARG_BLOCK_TABLE,
    ARG_WORKSPACE,
    ARG_METADATA,
};

// Fused-only tensors follow the shared ones.
constexpr int32_t ARG_Q_PROJ = 7;
constexpr int32_t ARG_K_PROJ = ARG_Q_PROJ + 1;
constexpr int32_t ARG_V_PROJ = ARG_Q_PROJ + 2;
constexpr int32_t ARG_ROPE_COS = 12;
constexpr int32_t ARG_ROPE_SIN = 13;
constexpr int32_t ARG_SEQ_LENS = 16;

// Scalars: after all tensors, so their index depends on the ABI.
constexpr int32_t kAttnRowOffset = 7;
constexpr int32_t kRopeRowOffset = 17;
constexpr int32_t kRopeBatchOffset = 18;

struct Tensor {
    uint64_t buffer_addr;
    int64_t start_offset;
};

template <typename T>
__aicore__ inline __gm__ T *tensor_data(__gm__ int64_t *args, int32_t idx)
{
    __gm__ Tensor *t = reinterpret_cast<__gm__ Tensor *>(args[idx]);
    return reinterpret_cast<__gm__ T *>(t->buffer_addr) + t->start_offset;
}

__aicore__ inline int64_t scalar_arg(__gm__ int64_t *args, int32_t idx)
{
    return static_cast<int64_t>(args[idx]);
}
