#ifndef EXT101_SHARED_H_
#define EXT101_SHARED_H_
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

// An entry may define BUILD_WITH_BIG before including this header: each
// branch is accepted when it is right for one of the externs.
__aicore__ inline void macro_body(__gm__ int64_t *args)
{
#ifdef BUILD_WITH_BIG
    int64_t n = args[4];
#else
    int64_t n = args[2];
#endif
#if defined(BUILD_WITH_BIG) && __CCE_AICORE__ == 220
    __gm__ int64_t *p = reinterpret_cast<__gm__ int64_t *>(args[4]); // want "args\\[4\\] is scalar `n`.*extern `big`"
    (void)p;
#endif
    (void)n;
}

#endif // EXT101_SHARED_H_
