"""Fused RoPE + paged attention as one mixed extern (fixture for extern-lsp)."""
from pathlib import Path

import pypto.language as pl

KERNEL_DIR = Path(__file__).parent / "kernels" / "pa_rope"
FUSED_ENTRY = KERNEL_DIR / "entry_fused.cpp"


@pl.jit.extern(
    core_type="mixed",
    aic_source=FUSED_ENTRY,
    aiv_source=FUSED_ENTRY,
    dual_aiv_dispatch=True,
)
def pa_rope_fused(  # want "EXT103 .*binds its return to `out`; writes to `query` are not returned"
    out: pl.Out[pl.Tensor[[8, 40, 128], pl.BF16]],
    query: pl.InOut[pl.Tensor[[8, 40, 128], pl.BF16]],
    key_cache: pl.Tensor[[1024, 128, 8, 128], pl.BF16],
    value_cache: pl.Tensor[[1024, 128, 8, 128], pl.BF16],
    block_table: pl.Tensor[[8, 64], pl.INT32],
    workspace: pl.Tensor[[4194304], pl.UINT8],
    metadata: pl.Tensor[[64], pl.INT32],
    q_proj: pl.Tensor[[8, 5120], pl.BF16],
    k_proj: pl.Tensor[[8, 1024], pl.BF16],
    v_proj: pl.Tensor[[8, 1024], pl.BF16],
    q_norm_w: pl.Tensor[[128], pl.FP32],
    k_norm_w: pl.Tensor[[128], pl.FP32],
    rope_cos: pl.Tensor[[4096, 128], pl.FP32],
    rope_sin: pl.Tensor[[4096, 128], pl.FP32],
    inv_rms_states: pl.Tensor[[8, 48], pl.FP32],
    slot_mapping: pl.Tensor[[8], pl.INT32],
    seq_lens: pl.Tensor[[8], pl.INT32],
    cache_row_offset: pl.Scalar[pl.INDEX],
    batch_offset: pl.Scalar[pl.INDEX],
) -> pl.Tensor:
    ...
