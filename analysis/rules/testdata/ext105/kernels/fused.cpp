#include "kernel_operator.h"

extern "C" __global__ __aicore__ void fused(__gm__ int64_t *args)
{
    AscendC::SyncAll<false>();
}
