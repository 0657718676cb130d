// Orchestration fixture in the shape pypto emits for decode_layer(): one
// task per extern call, args[] in add_* order. The rope task has `query`
// and `out` deliberately swapped, as in the guide's broken fused signature,
// so its return alias binds the query (guide §2, §7).
#include "pto_runtime2.h"

extern "C" {

__attribute__((visibility("default"))) void aicpu_orchestration_entry(const ChipStorageTaskArgs &orch_args)
{
    Tensor ext_query = from_tensor_arg(orch_args.tensor(0));
    Tensor ext_key_cache = from_tensor_arg(orch_args.tensor(1));
    Tensor ext_value_cache = from_tensor_arg(orch_args.tensor(2));
    Tensor ext_block_table = from_tensor_arg(orch_args.tensor(3));
    Tensor ext_workspace = from_tensor_arg(orch_args.tensor(4));
    Tensor ext_metadata = from_tensor_arg(orch_args.tensor(5));
    Tensor ext_out = from_tensor_arg(orch_args.tensor(6));
    int64_t cache_row_offset = static_cast<int64_t>(orch_args.scalar(0));
    int64_t batch_offset = static_cast<int64_t>(orch_args.scalar(1));

    PTO2_SCOPE() {
        // Task 0: paged_attention_cce
        Arg params_t0;
        params_t0.add_output(ext_out);
        params_t0.add_input(ext_query);
        params_t0.add_input(ext_key_cache);
        params_t0.add_input(ext_value_cache);
        params_t0.add_input(ext_block_table);
        params_t0.add_inout(ext_workspace);
        params_t0.add_input(ext_metadata);
        params_t0.add_scalar(cache_row_offset);
        rt_submit_mix_task(0, params_t0);
        const ChipTensor &attn_ssa = ext_out;

        // Task 1: paged_attention_rope_cce
        Arg params_t1;
        params_t1.add_input(query_tnd);
        params_t1.add_output(attn_out_tnd);
        params_t1.add_input(ext_key_cache);
        params_t1.add_input(ext_value_cache);
        params_t1.add_input(ext_block_table);
        params_t1.add_inout(ext_workspace);
        params_t1.add_input(ext_metadata);
        params_t1.add_input(q_proj_tnd);
        params_t1.add_input(k_proj_tnd);
        params_t1.add_input(v_proj_tnd);
        params_t1.add_input(q_norm_w_tnd);
        params_t1.add_input(k_norm_w_tnd);
        params_t1.add_input(rope_cos_tnd);
        params_t1.add_input(rope_sin_tnd);
        params_t1.add_input(inv_rms_states_tnd);
        params_t1.add_input(slot_mapping_tnd);
        params_t1.add_input(seq_lens_tnd);
        params_t1.add_scalar(cache_row_offset);
        params_t1.add_scalar(batch_offset);
        rt_submit_mix_task(1, params_t1);
        const ChipTensor &attn_out_ssa = query_tnd;
    }
}

}  // extern "C"
