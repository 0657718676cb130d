"""A correct mixed extern: RMS-norm on the vector cores, then a cube matmul.

`extern-lsp check examples/clean` reports nothing here; compare with
examples/traps, where each rule fires once.
"""
from pathlib import Path

import pypto.language as pl

KERNEL_DIR = Path(__file__).parent / "kernels" / "rms_attn"
ENTRY = KERNEL_DIR / "rms_attn_entry.cpp"


@pl.jit.extern(core_type="mixed", aic_source=ENTRY, aiv_source=ENTRY, dual_aiv_dispatch=True)
def rms_attn(
    out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    x: pl.Tensor[[16, 128], pl.FP32],
    norm_w: pl.Tensor[[128], pl.FP32],
    weight: pl.Tensor[[128, 128], pl.FP16],
    workspace: pl.Tensor[[65536], pl.FP32],
    row_lens: pl.Tensor[[16], pl.INT32],
    rows: pl.Scalar[pl.INT32],
    eps: pl.Scalar[pl.FP32],
) -> pl.Tensor:
    ...


def layer(out, x, norm_w, weight, workspace, row_lens, rows, eps):
    with pl.spmd(24, sync_start=True):
        y = rms_attn(out, x, norm_w, weight, workspace, row_lens, rows, eps)
    return y
