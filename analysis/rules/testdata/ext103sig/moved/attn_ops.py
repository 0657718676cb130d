from pathlib import Path

import pypto.language as pl

KERNEL = Path(__file__).parent / "attn.cpp"


@pl.jit.extern(core_type="aiv", source=KERNEL)
def attn(
    query: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],  # want "EXT103 .*pl.InOut `query`, but pl.Out `out` follows it"
    out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    keys: pl.Tensor[[16, 64], pl.FP32],
    n: pl.Scalar[pl.INT32],
) -> pl.Tensor:
    ...
