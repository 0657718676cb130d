#include "barrier.h"

extern "C" __global__ __aicore__ void barrier_kernel(__gm__ int64_t *args)
{
    phase_barrier();
}
