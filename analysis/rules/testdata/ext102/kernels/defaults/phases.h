#pragma once
#include <cstdint>

// One body serves two externs: the attention-only ABI (8 args) and the
// fused one with a rope prologue (19 args). WithRope defaults to false.
template <bool Decode, bool WithRope = false>
__aicore__ inline void phases(__gm__ int64_t *args)
{
    int64_t row_offset = WithRope ? args[17] : args[7];
    if constexpr (WithRope) {
        int64_t batch_offset = args[18];
        (void)batch_offset;
    }
    (void)row_offset;
}

// The same shape with the flag defaulting to true: an extern that leaves it
// out reads the fused ABI's slots.
template <bool Decode, bool Fused = true>
__aicore__ inline void fused_phases(__gm__ int64_t *args)
{
    int64_t row_offset = Fused ? args[17] : args[7]; // want "args\\[17\\] is past the end for extern `attn_short`"
    (void)row_offset;
}
