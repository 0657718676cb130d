#include "phases.h"

// Fused defaults to true, but this extern packs 8 args.
extern "C" __global__ __aicore__ void attn_short(__gm__ int64_t *args)
{
    fused_phases<true>(args);
}
