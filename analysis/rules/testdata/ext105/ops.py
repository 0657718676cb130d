import pypto.language as pl

FUSED = "kernels/fused.cpp"
PAIR = "kernels/pair.cpp"


@pl.jit.extern(core_type="mixed", aic_source=FUSED, aiv_source=FUSED)  # want "mixed extern `fused` uses `SyncAll<false>\\(\\)` \\(`AscendC::SyncAll<false>\\(\\)` at fused.cpp:5\\), which pairs each cube with both vector lanes, but is declared without dual_aiv_dispatch=True"
def fused(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(
    core_type="mixed",
    aic_source=PAIR,
    aiv_source=PAIR,
    dual_aiv_dispatch=False,  # want "mixed extern `pair` uses a mode-2 cross-core flag \\(`AscendC::NotifyEvent<PIPE_MTE3>\\(4\\)` at pair.cpp:"
)
def pair(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(  # want "mixed extern `pair_multiline` uses a mode-2"
    core_type="mixed",
    aic_source=PAIR,
    aiv_source=PAIR,  # the fix goes after the last argument, before this comma
)
def pair_multiline(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="mixed", source=FUSED, dual_aiv_dispatch=True)
def fused_ok(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="aiv", source=FUSED)
def vec_only(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="mixed", source="kernels/global0.cpp")
def global_only(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...
