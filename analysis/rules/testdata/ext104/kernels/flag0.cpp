#include "kernel_operator.h"

constexpr uint16_t kDone = 3;

extern "C" __global__ __aicore__ void flag_kernel(__gm__ int64_t *args)
{
    AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>(kDone);
    AscendC::CrossCoreWaitFlag<0x0, PIPE_MTE3>(kDone);
}
