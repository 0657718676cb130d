import pypto.language as pl

# args[]: x=0, y=1 (tensors); eps=2 (FP32), rows=3 (INT32), start=4 (INDEX), shift=5 (INT32).
@pl.jit.extern(core_type="aiv", source="kernels/rms_norm.cpp")
def rms_norm(
    x: pl.Tensor[[128, 4096], pl.BF16],
    eps: pl.Scalar[pl.FP32],
    rows: pl.INT32,
    y: pl.Out[pl.Tensor[[128, 4096], pl.BF16]],
    start: pl.Scalar[pl.INDEX],
    shift: pl.Scalar[pl.INT32],
) -> pl.Tensor:
    ...
