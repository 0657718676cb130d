from pathlib import Path

import pypto.language as pl

HERE = Path(__file__).parent


# args[]: x=0, y=1 (tensors), then rows=2, alpha=3 (scalars).
@pl.jit.extern(core_type="aiv", source=HERE / "scale_entry.cpp")
def scale_rows(
    x: pl.Tensor[[64, 64], pl.FP32],
    y: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
    rows: pl.Scalar[pl.INT32],
    alpha: pl.Scalar[pl.FP32],
) -> pl.Tensor:
    ...
