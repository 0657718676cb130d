#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sim_kernel(__gm__ int64_t *args)
{
#ifdef __CPU_SIM
    AscendC::SyncAll();
#endif
}
