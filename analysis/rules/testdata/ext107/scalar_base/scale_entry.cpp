#include "scalar_args.h"

// Positions among the scalars, not slots: rows is scalar 0, alpha scalar 1.
enum ScalarPos : int { kRows, kAlpha };

extern "C" __aicore__ void scale_rows(__gm__ int64_t *args)
{
    int32_t rows = Scalars<2>::I32(args, kRows);
    int64_t alpha = ScalarAfterTwo(args, kAlpha);
    (void)rows;
    (void)alpha;
}
