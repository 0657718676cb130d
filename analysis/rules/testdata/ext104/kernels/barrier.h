#pragma once
#include "kernel_operator.h"

__aicore__ inline void phase_barrier()
{
    // Vector RoPE results must be in GM before the cube reads them.
    AscendC::SyncAll<false>();
}
