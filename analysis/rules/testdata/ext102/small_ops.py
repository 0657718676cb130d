from pathlib import Path

from pypto.language import jit
import pypto.language as pl

_KERNELS = Path(__file__).resolve().parent / "kernels"
SMALL = _KERNELS / "small.cpp"


@jit.extern(source=SMALL)
def small_add(x: pl.Tensor, y: pl.Out[pl.Tensor], n: pl.INDEX) -> pl.Tensor:
    ...
