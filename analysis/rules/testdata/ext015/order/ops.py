from pathlib import Path

import pypto.language as pl


@pl.jit.extern(core_type="mixed", source=Path(__file__).parent / "entry.cpp", dual_aiv_dispatch=True)
def copy_out(out: pl.Out[pl.Tensor[[64], pl.FP32]]) -> pl.Tensor:
    ...
