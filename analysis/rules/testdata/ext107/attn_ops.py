from pathlib import Path

import pypto.language as pl

KERNELS = Path(__file__).parent / "kernels"


@pl.jit.extern(core_type="aiv", source=KERNELS / "attn.cpp")
def attn(
    query: pl.Tensor[[16, 64], pl.FP16],
    key_cache: pl.Tensor[[128, 64], pl.FP16],
    value_cache: pl.Tensor[[128, 64], pl.FP16],
    out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
    seq_len: pl.Scalar[pl.INT32],
) -> pl.Tensor:
    ...
