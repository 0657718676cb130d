#include "../kernel/rms_body.hpp"

extern "C" __global__ __aicore__ void rms_norm(__gm__ int64_t *args)
{
    rms_body(args);
}
