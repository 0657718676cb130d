from pathlib import Path

import pypto.language as pl

HERE = Path(__file__).parent


@pl.jit.extern(core_type="aiv", source=HERE / "plain_entry.cpp")
def decode(
    query: pl.Tensor[[16, 64], pl.FP16],
    key_cache: pl.Tensor[[128, 64], pl.FP16],
    value_cache: pl.Tensor[[128, 64], pl.FP16],
    out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="aiv", source=HERE / "rope_entry.cpp")
def decode_rope(
    out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
    query: pl.Tensor[[16, 64], pl.FP16],
    key_cache: pl.Tensor[[128, 64], pl.FP16],
    value_cache: pl.Tensor[[128, 64], pl.FP16],
    cos: pl.Tensor[[64], pl.FP32],
) -> pl.Tensor:
    ...
