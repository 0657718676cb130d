from pathlib import Path

from pypto.language import jit
import pypto.language as pl

_K = Path(__file__).resolve().parent / "kernels" / "defaults"


@jit.extern(source=_K / "attn.cpp")
def attn(q: pl.Tensor, k: pl.Tensor, v: pl.Tensor, bt: pl.Tensor, sl: pl.Tensor, sm: pl.Tensor, out: pl.Out[pl.Tensor], row: pl.INDEX) -> pl.Tensor:
    ...


@jit.extern(source=_K / "attn_short.cpp")
def attn_short(q: pl.Tensor, k: pl.Tensor, v: pl.Tensor, bt: pl.Tensor, sl: pl.Tensor, sm: pl.Tensor, out: pl.Out[pl.Tensor], row: pl.INDEX) -> pl.Tensor:
    ...
