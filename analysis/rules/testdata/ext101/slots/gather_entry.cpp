#include "slot_args.h"

extern "C" __aicore__ void gather_rows(__gm__ int64_t *args)
{
    __gm__ float *x = gs::TensorArg<gs::Slot::X, float>(args);
    __gm__ float *y = gs::TensorArg<gs::Slot::Y, float>(args);
    int32_t rows = gs::I32Arg<gs::Slot::Rows>(args);                    // want "`gs::I32Arg<gs::Slot::Rows>\\(args\\)` \\(args\\[2\\]\\) is tensor `idx`.*read as a scalar"
    __gm__ int32_t *idx = gs::TensorArg<gs::Slot::Idx, int32_t>(args);  // want "`gs::TensorArg<gs::Slot::Idx, int32_t>\\(args\\)` \\(args\\[4\\]\\) is scalar `eps`"
    int32_t rows2 = gs::ScalarI32<0>(args);
    (void)x;
    (void)y;
    (void)idx;
    (void)rows;
    (void)rows2;
}
