#include "kernel_operator.h"

extern "C" __global__ __aicore__ void plain_kernel(__gm__ int64_t *args)
{
    AscendC::PipeBarrier<PIPE_ALL>();
}
