from pathlib import Path

from pypto.language import jit
import pypto.language as pl


@jit.extern(source=Path(__file__).resolve().parent / "kernels" / "guarded.cpp", core_type="mixed")
def guarded(out: pl.Out[pl.Tensor], n: pl.INDEX) -> pl.Tensor:
    ...
