"""Paged attention externs: the attention-only ABI and the fused RoPE ABI.

Both entries compile the same header (kernels/qwen_fai/qwen_fai.h) with a
`template <bool WithRope>` flag, so args[] indices in the header must be
right for two packings at once.
"""
from pathlib import Path

import pypto.language as pl

KERNEL_DIR = Path(__file__).parent / "kernels" / "qwen_fai"
ATTN_ENTRY = KERNEL_DIR / "paged_attention_entry.cpp"
ROPE_ENTRY = str(KERNEL_DIR / "paged_attention_rope_entry.cpp")


@pl.jit.extern(core_type="mixed", aic_source=ATTN_ENTRY, aiv_source=ATTN_ENTRY, dual_aiv_dispatch=True)
def paged_attention_cce(  # want "EXT103 .*binds its return to `out`; writes to `workspace` are not returned"
    out: pl.Out[pl.Tensor[[16, 5120], pl.BF16]],
    query: pl.Tensor[[16, 5120], pl.BF16],
    key_cache: pl.Tensor,
    value_cache: pl.Tensor,
    block_table: pl.Tensor[[16, 64], pl.INT32],
    workspace: pl.InOut[pl.Tensor[[1 << 20], pl.FP32]],
    metadata: pl.Tensor[[64], pl.INT32],
    cache_row_offset: pl.Scalar[pl.INDEX],
) -> pl.Tensor:
    ...


# The fused ABI: seventeen tensors, two scalars. cache_row_offset sits in the
# middle of the signature, but pypto packs tensors first, so it lands at
# args[17] and batch_offset at args[18] (guide §2).
@pl.jit.extern(
    core_type="mixed",
    aic_source=ROPE_ENTRY,
    aiv_source=ROPE_ENTRY,
    dual_aiv_dispatch=True,
)
def paged_attention_rope_cce(  # want "EXT103 .*binds its return to `out`; writes to `workspace` are not returned"
    out: pl.Out[pl.Tensor[[16, 5120], pl.BF16]],
    query: pl.Tensor[[16, 5120], pl.BF16],
    key_cache: pl.Tensor,
    value_cache: pl.Tensor,
    block_table: pl.Tensor[[16, 64], pl.INT32],
    workspace: pl.InOut[pl.Tensor[[1 << 20], pl.FP32]],
    metadata: pl.Tensor[[64], pl.INT32],
    cache_row_offset: pl.Scalar[pl.INDEX],
    q_proj: pl.Tensor[[16, 5120], pl.BF16],
    k_proj: pl.Tensor[[16, 1024], pl.BF16],
    v_proj: pl.Tensor[[16, 1024], pl.BF16],
    q_norm_w: pl.Tensor[[128], pl.FP32],
    k_norm_w: pl.Tensor[[128], pl.FP32],
    rope_cos: pl.Tensor[[4096, 128], pl.FP32],
    rope_sin: pl.Tensor[[4096, 128], pl.FP32],
    inv_rms_states: pl.Tensor[[16], pl.FP32],
    slot_mapping: pl.Tensor[[16], pl.INT32],
    seq_lens: pl.Tensor[[16], pl.INT32],
    batch_offset: pl.Scalar[pl.INDEX],
) -> pl.Tensor:
    ...


def decode_layer(q, kc, vc, bt, ws, md, qp, kp, vp, qn, kn, cos, sin, rms, slots, lens, out, row, batch):
    with pl.spmd(24, sync_start=True):
        attn = paged_attention_rope_cce(out, q, kc, vc, bt, ws, md, row, qp, kp, vp, qn, kn, cos, sin, rms, slots, lens, batch)
    return attn
