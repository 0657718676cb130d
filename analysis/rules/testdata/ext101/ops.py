import os

import pypto.language as pl

HERE = os.path.dirname(os.path.abspath(__file__))


# args[]: a=0, b=1, out=2 (tensors), then n=3, scale=4 (scalars).
@pl.jit.extern(source=os.path.join(HERE, "kernels", "mm_bias.cpp"))
def mm_bias(
    a: pl.Tensor[[64, 64], pl.FP16],
    n: pl.Scalar[pl.INT32],
    b: pl.Tensor[[64], pl.FP16],
    out: pl.Out[pl.Tensor[[64, 64], pl.FP16]],
    scale: pl.Scalar[pl.FP32],
) -> pl.Tensor:
    ...
