#pragma once
#include <cstdint>

template <bool Big>
__aicore__ inline void shared_body(__gm__ int64_t *args)
{
    // small: n is args[2]; big: n is args[4]. Each ABI has one right branch.
    int64_t n = Big ? args[4] : args[2];
    // Neither branch is a scalar for `big`: args[1] is y, args[3] is v.
    int64_t m = Big ? args[3] : args[1]; // want "args\\[3\\] is tensor `v`.*extern `big`" "args\\[1\\] is tensor `y`.*extern `big`" "args\\[1\\] is tensor `y`.*extern `small`"
    (void)n; (void)m;
}
