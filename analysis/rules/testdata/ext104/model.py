import pypto.language as pl
from pypto.language import spmd

from . import ops
from .ops import barrier_kernel as bk, plain_kernel, sim_kernel

SYNC = True


def layer(x, y):
    with pl.spmd(24) as tid:
        y = bk(x, y)  # want "extern `barrier_kernel` waits at a hardware barrier"
        y = ops.flag_kernel(x, y)  # want "extern `flag_kernel` waits at a hardware barrier \\(`AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>\\(kDone\\)` at flag0.cpp:"
        y = plain_kernel(x, y)
        y = sim_kernel(x, y)
    with pl.spmd(24, sync_start=False, name_hint="attn"):
        y = bk(x, y)  # want "does not set sync_start=True"
    with spmd(24, sync_start=True):
        y = bk(x, y)
    with pl.spmd(24, sync_start=SYNC):
        y = bk(x, y)
    with open("log.txt") as f, pl.spmd(
        8,
    ):
        y = bk(x, y)  # want "does not set sync_start=True"
    y = bk(x, y)
    with pl.spmd(24):
        y = bk(x, y)  # noqa: EXT104
    return y
