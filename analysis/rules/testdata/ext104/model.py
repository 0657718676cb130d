import pypto.language as pl
from pypto.language import spmd

from . import ops
from .ops import barrier_kernel as bk, plain_kernel, sim_kernel

SYNC = True


def layer(x, y):
    with pl.spmd(24) as tid:  # want "`pl.spmd\\(24\\)` does not set sync_start=True, but extern `barrier_kernel` \\(`AscendC::SyncAll<false>\\(\\)` at barrier.h:7\\), `flag_kernel` \\(`AscendC::CrossCoreSetFlag<0x0, PIPE_MTE3>\\(kDone\\)` at flag0.cpp:7\\) waits at a hardware barrier"
        y = bk(x, y)
        y = ops.flag_kernel(x, y)
        y = plain_kernel(x, y)
        y = sim_kernel(x, y)
    with pl.spmd(24, sync_start=False, name_hint="attn"):  # want "does not set sync_start=True"
        y = bk(x, y)
    with spmd(24, sync_start=True):
        y = bk(x, y)
    with pl.spmd(24, sync_start=SYNC):
        y = bk(x, y)
    with open("log.txt") as f, pl.spmd(  # want "does not set sync_start=True"
        8,
    ):
        y = bk(x, y)
    y = bk(x, y)
    with pl.spmd(24):  # noqa: EXT104
        y = bk(x, y)
    return y
