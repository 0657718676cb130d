import os

import pypto.language as pl

HERE = os.path.dirname(os.path.abspath(__file__))


# args[]: x=0, y=1, idx=2 (tensors first), then rows=3, eps=4 (scalars).
# `idx` was appended after the scalars; the kernel's slot enum follows the
# signature.
@pl.jit.extern(source=os.path.join(HERE, "gather_entry.cpp"))
def gather_rows(
    x: pl.Tensor[[64, 64], pl.FP32],
    y: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    rows: pl.Scalar[pl.INT32],
    eps: pl.Scalar[pl.FP32],
    idx: pl.Tensor[[64], pl.INT32],
) -> pl.Tensor:
    ...
