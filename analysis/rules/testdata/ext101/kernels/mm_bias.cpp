#include "helpers.h"

extern "C" __global__ __aicore__ void mm_bias(__gm__ int64_t *args)
{
    // Right reads: silent.
    __gm__ half *a = tensor_data<half>(args, MM_A);
    __gm__ half *b = arg_half(args, 1);
    __gm__ ChipTensor *out = reinterpret_cast<__gm__ ChipTensor *>(args[MM_OUT]);
    int32_t n = static_cast<int32_t>(args[MM_N]);
    uint64_t raw = args[2];
    __gm__ ChipTensor *out2 = (__gm__ ChipTensor *)raw;
    auto scale_bits = args[4];
    for (int i = 0; i < 3; ++i) {
        __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[i]);
        (void)t;
    }
    int32_t n2 = static_cast<int32_t>(raw_arg(args, 3));
    int32_t n3 = int_arg(args, MM_N);
    Dims dims(args);
    int32_t n4 = MM_ARG_I32(MM_N);
    __gm__ half *b4 = MM_ARG_HALF(MM_B);
    int32_t bad4 = MM_ARG_I32(MM_B);                       // want "`MM_ARG_I32\\(1\\)` is tensor `b`.*read as a scalar"
    __gm__ half *bad5 = MM_ARG_HALF(MM_SCALE);              // want "`MM_ARG_HALF\\(4\\)` is scalar `scale`"
    __gm__ half *a2 = tensor_at<half>(args, MM_A);

    // Wrong reads.
    int32_t rows = static_cast<int32_t>(args[1]);           // want "args\\[1\\] is tensor `b` \\(tensor 2 of 3\\) of extern `mm_bias`, but it is read as a scalar here; scalars start at args\\[3\\] \\(`n`\\)"
    int64_t n_bad = args[MM_OUT];                          // want "args\\[2\\] is tensor `out`.*read as a scalar"
    __gm__ half *s = tensor_data<half>(args, MM_N);         // want "`tensor_data\\(args, 3\\)` is scalar `n` \\(INT32, scalar 1 of 2; tensors occupy args\\[0..2\\]\\) of extern `mm_bias`, but it is used as a tensor descriptor"
    __gm__ half *s2 = arg_half(args, 4);                    // want "`arg_half\\(args, 4\\)` is scalar `scale`"
    int64_t off = args[0] * 64;                            // want "args\\[0\\] is tensor `a`"
    int32_t scale = args[2];                               // want "args\\[2\\] is tensor `out`.*; `scale` is args\\[4\\]"
    __gm__ ChipTensor *nt = (__gm__ ChipTensor *)args[3];   // want "args\\[3\\] is scalar `n`"
    int64_t quiet = args[0];                               // NOLINT(args-kind-mismatch)
    int32_t rows2 = int_arg(args, MM_B);                   // want "`int_arg\\(args, 1\\)` is tensor `b`.*read as a scalar"
    __gm__ half *s3 = tensor_at<half>(args, MM_SCALE);      // want "`tensor_at\\(args, 4\\)` is scalar `scale`"
    (void)a; (void)b; (void)out; (void)n; (void)out2; (void)scale_bits; (void)n2; (void)rows; (void)n_bad;
    (void)s; (void)s2; (void)off; (void)scale; (void)nt; (void)quiet;
    (void)n3; (void)a2; (void)rows2; (void)s3; (void)dims;
    (void)n4; (void)b4; (void)bad4; (void)bad5;
}
