from pathlib import Path

import pypto.language as pl

KERNEL = Path(__file__).parent / "attn.cpp"


@pl.jit.extern(core_type="aiv", source=KERNEL)
def attn_loop(
    query: pl.InOut[pl.Tensor[[16, 64], pl.FP32]],  # want "EXT103 .*no fix is offered: .*the read at attn.cpp:8 has an index extern-lsp cannot evaluate"
    out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    n: pl.Scalar[pl.INT32],
) -> pl.Tensor:
    ...
