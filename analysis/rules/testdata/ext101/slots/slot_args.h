#pragma once
#include "tensor.h"

namespace gs {

// One name per parameter, in signature order.
enum class Slot : int { X, Y, Rows, Eps, Idx };

template <Slot S>
__aicore__ inline constexpr int SlotOf()
{
    return static_cast<int>(S);
}

template <Slot S, typename T>
__aicore__ inline __gm__ T *TensorArg(__gm__ int64_t *args)
{
    __gm__ Tensor *t = reinterpret_cast<__gm__ Tensor *>(args[SlotOf<S>()]);
    return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}

template <Slot S>
__aicore__ inline int32_t I32Arg(__gm__ int64_t *args)
{
    return static_cast<int32_t>(args[SlotOf<S>()]);
}

// The scalars after the tensors, by their position among the scalars.
template <int K>
__aicore__ inline int32_t ScalarI32(__gm__ int64_t *args)
{
    return static_cast<int32_t>(args[3 + K]);
}

} // namespace gs
