#pragma once
#include <cstdint>

// Scalars are addressed by their position among the scalars; the
// helpers add the tensor count.
template <int kTensorCount>
struct Scalars {
    __aicore__ static inline int32_t I32(__gm__ int64_t *args, int scalarIdx)
    {
        return static_cast<int32_t>(args[kTensorCount + scalarIdx]);
    }
};

__aicore__ inline int64_t ScalarAfterTwo(__gm__ int64_t *args, int scalarIdx)
{
    return args[2 + scalarIdx];
}
