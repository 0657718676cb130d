#include "shared.h"

extern "C" __global__ __aicore__ void small(__gm__ int64_t *args)
{
    shared_body<BUILD_BIG>(args);
    macro_body(args);
}
