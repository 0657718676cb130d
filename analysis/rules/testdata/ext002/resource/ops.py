import pypto.language as pl


@pl.jit.extern(core_type="mixed", source="entry.cpp", dual_aiv_dispatch=True)
def tile_gemm(x: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], y: pl.Out[[64, 64], pl.FP32]):
    ...
