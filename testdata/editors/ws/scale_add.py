"""A mixed extern: the vector cores compute result = alpha * lhs + rhs."""

import pypto.language as pl


@pl.jit.extern(core_type="mixed", aic_source="kernels/scale_add.cpp", aiv_source="kernels/scale_add.cpp")
def scale_add(
    result: pl.Out[[1024], pl.FP32],
    lhs: pl.Tensor[[1024], pl.FP32],
    rhs: pl.Tensor[[1024], pl.FP32],
    elem_count: pl.Scalar[pl.INT32],
    alpha: pl.Scalar[pl.FP32],
):
    ...
