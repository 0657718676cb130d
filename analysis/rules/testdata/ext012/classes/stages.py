from pathlib import Path

import pypto.language as pl

SRC = Path(__file__).parent / "stages.cpp"


# A mixed extern: the cube and the vector side each run one stage class.
@pl.jit.extern(core_type="mixed", aic_source=SRC, aiv_source=SRC, dual_aiv_dispatch=True)
def stages(out: pl.Out[pl.Tensor], x: pl.Tensor) -> pl.Tensor: ...
