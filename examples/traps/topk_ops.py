"""topk_mix: a mixed extern that walks into every trap extern-lsp knows.

Run `extern-lsp check examples/traps`; each rule reports once, at the line
the comment names. examples/clean is the same shape done right.
"""
import os
from pathlib import Path

import pypto.language as pl

ENTRY = Path(__file__).parent / "kernels" / "topk_mix" / "topk_entry.cpp"


@pl.jit.extern(core_type="mixed", aic_source=ENTRY, aiv_source=ENTRY,  # EXT105: no dual_aiv_dispatch
               include_dirs=[os.environ["TOPK_INCLUDE"]])  # EXT100: only known at run time, not checked
def topk_mix(
    index: pl.InOut[pl.Tensor[[16, 8], pl.INT32]],  # EXT103: the InOut is bound to the return, not `out`
    out: pl.Out[pl.Tensor[[16, 8], pl.FP32]],
    scores: pl.Tensor[[16, 256], pl.FP32],
    workspace: pl.Tensor[[65536], pl.FP32],
    counts: pl.Tensor[[16], pl.INT32],
    top_k: pl.Scalar[pl.INT32],
    scale: pl.Scalar[pl.FP32],
) -> pl.Tensor:
    ...


def select(index, out, scores, workspace, counts, top_k, scale):
    with pl.spmd(24):  # EXT104: the extern has a hardware barrier, so sync_start=True
        y = topk_mix(index, out, scores, workspace, counts, top_k, scale)
    return y
