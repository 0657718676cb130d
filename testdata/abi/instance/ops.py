"""Two externs compiling one templated body: attn (plain) and attn_rope."""
from pathlib import Path

import pypto.language as pl

KERNELS = Path(__file__).parent / "kernels"


@pl.jit.extern(core_type="aiv", source=KERNELS / "plain_entry.cpp")
def attn(
    query: pl.Tensor[[16, 64], pl.FP16],
    key_cache: pl.Tensor[[128, 64], pl.FP16],
    value_cache: pl.Tensor[[128, 64], pl.FP16],
    out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="aiv", source=KERNELS / "rope_entry.cpp")
def attn_rope(
    out: pl.Out[pl.Tensor[[16, 64], pl.FP16]],
    query: pl.Tensor[[16, 64], pl.FP16],
    key_cache: pl.Tensor[[128, 64], pl.FP16],
    value_cache: pl.Tensor[[128, 64], pl.FP16],
    cos: pl.Tensor[[64], pl.FP32],
) -> pl.Tensor:
    ...
