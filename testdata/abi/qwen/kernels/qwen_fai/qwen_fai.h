// Shared paged-attention kernel. Compiled twice: run_qwen_fai<false> for
// paged_attention_cce (7 tensors + 1 scalar) and run_qwen_fai<true> for
// paged_attention_rope_cce (17 tensors + 2 scalars).
#pragma once
#include "kernel_operator.h"
#include "args.h"

template <bool WithRope>
__aicore__ inline void rope_phase(__gm__ int64_t *args)
{
    __gm__ bfloat16_t *q_proj = tensor_data<bfloat16_t>(args, ARG_Q_PROJ);
    __gm__ float *cos = tensor_data<float>(args, ARG_ROPE_COS);
    __gm__ float *sin = tensor_data<float>(args, ARG_ROPE_SIN);
    int64_t batch_offset = scalar_arg(args, kRopeBatchOffset);
    (void)q_proj; (void)cos; (void)sin; (void)batch_offset;
}

template <bool WithRope>
__aicore__ inline void run_qwen_fai(__gm__ int64_t *args)
{
    __gm__ bfloat16_t *out = tensor_data<bfloat16_t>(args, ARG_OUT);
    __gm__ bfloat16_t *query = tensor_data<bfloat16_t>(args, ARG_QUERY);
    __gm__ Tensor *kc = reinterpret_cast<__gm__ Tensor *>(args[ARG_KEY_CACHE]);
    __gm__ Tensor *vc = reinterpret_cast<__gm__ Tensor *>(args[3]);
    __gm__ int32_t *block_table = tensor_data<int32_t>(args, ARG_BLOCK_TABLE);
    __gm__ float *workspace = tensor_data<float>(args, ARG_WORKSPACE);

    // Right for both ABIs: the scalar's index is selected per ABI.
    int64_t cache_row_offset = WithRope ? args[17] : args[7];
    int64_t row_again = static_cast<int64_t>(args[WithRope ? kRopeRowOffset : kAttnRowOffset]);

    if constexpr (WithRope) {
        rope_phase<WithRope>(args);
        // RoPE'd q/k are in GM before the cube attention reads them.
        AscendC::SyncAll<false>();
        __gm__ int32_t *seq_lens = tensor_data<int32_t>(args, ARG_SEQ_LENS);
        (void)seq_lens;
    }

    // Planted bugs, one per line.
    int64_t batch_offset = args[7];    // want "EXT101 .*args\\[7\\] is tensor `q_proj`.*paged_attention_rope_cce.*scalars start at args\\[17\\].*`batch_offset` is args\\[18\\]"
    int64_t lens = args[ARG_SEQ_LENS]; // want "EXT101 .*seq_lens" "EXT102 .*args\\[16\\].*paged_attention_cce.*8"
    __gm__ Tensor *md = reinterpret_cast<__gm__ Tensor *>(args[ARG_METADATA]);
    __gm__ Tensor *bad = reinterpret_cast<__gm__ Tensor *>(args[7]); // want "EXT101 .*args\\[7\\] is scalar `cache_row_offset`.*paged_attention_cce"
    (void)out; (void)query; (void)kc; (void)vc; (void)block_table; (void)workspace; (void)md;
    (void)cache_row_offset; (void)row_again; (void)batch_offset; (void)lens; (void)bad;
}
