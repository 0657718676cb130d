#include "kernel_operator.h"

extern "C" __global__ __aicore__ void global_only(__gm__ int64_t *args)
{
    AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(2);
    AscendC::CrossCoreWaitFlag<0, PIPE_MTE3>(2);
}
