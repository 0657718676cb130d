#pragma once
#include <cstdint>

struct ChipTensor {
    uint64_t addr;
    int64_t start_offset;
};

enum MmArg { MM_A, MM_B, MM_OUT, MM_N, MM_SCALE };

template <typename T>
__aicore__ inline __gm__ T *tensor_data(__gm__ int64_t *args, int idx)
{
    auto *t = reinterpret_cast<__gm__ ChipTensor *>(args[idx]);
    return reinterpret_cast<__gm__ T *>(t->addr) + t->start_offset;
}

// Forwards to tensor_data: a helper of a helper.
__aicore__ inline __gm__ half *arg_half(__gm__ int64_t *args, int idx)
{
    return tensor_data<half>(args, idx);
}

__aicore__ inline uint64_t raw_arg(__gm__ int64_t *args, int i)
{
    return args[i];
}

// The slot as an enum parameter: `args[s]` of an MmArg.
__aicore__ inline int32_t int_arg(__gm__ int64_t *args, MmArg s)
{
    return static_cast<int32_t>(args[s]);
}

template <typename T>
__aicore__ inline __gm__ T *tensor_at(__gm__ int64_t *args, const MmArg s)
{
    return tensor_data<T>(args, s);
}

// The slot as a template argument, read in a constructor an object's
// declaration runs.
template <int S>
__aicore__ inline int32_t int_slot(__gm__ int64_t *args)
{
    return static_cast<int32_t>(args[S]);
}

class Dims {
public:
    __aicore__ inline explicit Dims(__gm__ int64_t *args)
        : n_(int_slot<MM_N>(args)), bad_(int_slot<MM_OUT>(args)) {} // want "`int_slot<2>\\(args\\)` is tensor `out`.*read as a scalar"
    int32_t n_, bad_;
};

// Macros reading the args pointer by name.
#define MM_ARG_I32(i) static_cast<int32_t>(args[(i)])
#define MM_ARG_HALF(i) \
    (reinterpret_cast<__gm__ half *>(reinterpret_cast<__gm__ ChipTensor *>(args[(i)])->addr))
