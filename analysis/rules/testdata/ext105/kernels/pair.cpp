#include "kernel_operator.h"

extern "C" __global__ __aicore__ void pair(__gm__ int64_t *args)
{
#ifdef __DAV_C220_VEC__
    AscendC::NotifyEvent<PIPE_MTE3>(4);
#else
    AscendC::WaitEvent(4);
#endif
}
