#include "common.h"

extern "C" __global__ __aicore__ void small_add(__gm__ int64_t *args)
{
    body<false>(args);
    __gm__ float *x = tensor_data<float>(args, 0);
    int64_t n = args[3];                          // want "args\\[3\\] is past the end for extern `small_add`: it packs 3 args \\(2 tensors \\+ 1 scalar, args\\[0..2\\]\\)"
    __gm__ float *w = tensor_data<float>(args, 5); // want "`tensor_data\\(args, 5\\)` is past the end"
    int64_t neg = args[-1];                       // want "args\\[-1\\] is negative"
    int64_t ok = args[n > 0 ? 2 : 4];
    (void)x; (void)n; (void)w; (void)neg; (void)ok;
}
