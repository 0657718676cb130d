// Entry of the fused extern paged_attention_rope_cce (RoPE + attention).
#include "qwen_fai.h"

extern "C" __global__ __aicore__ void paged_attention_rope_cce(__gm__ int64_t *args)
{
    run_qwen_fai<true>(args);
}
