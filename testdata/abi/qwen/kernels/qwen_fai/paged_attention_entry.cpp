// Entry of the attention-only extern paged_attention_cce.
#include "qwen_fai.h"

extern "C" __global__ __aicore__ void paged_attention_cce(__gm__ int64_t *args)
{
    run_qwen_fai<false>(args);
}
