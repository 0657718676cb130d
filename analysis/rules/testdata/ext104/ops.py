from pathlib import Path

import pypto.language as pl

K = Path(__file__).parent / "kernels"


@pl.jit.extern(core_type="mixed", source=K / "barrier.cpp", dual_aiv_dispatch=True)
def barrier_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="aiv", source=K / "flag0.cpp")
def flag_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="aiv", source=K / "plain.cpp")
def plain_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="aiv", source=K / "sim_only.cpp")
def sim_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(core_type="mixed", source=K / "templ.cpp", dual_aiv_dispatch=True)
def templ_kernel(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


def local_use(x, y):
    with pl.spmd(24):  # want "`pl.spmd\\(24\\)` does not set sync_start=True, but extern `barrier_kernel` \\(`AscendC::SyncAll<false>\\(\\)` at barrier.h:7\\) waits at a hardware barrier"
        y = barrier_kernel(x, y)
    with pl.spmd(24):
        y = templ_kernel(x, y)
    return y
