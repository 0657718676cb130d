# Python side of the mixed extern.
import pypto.language as pl  # noqa: E402


@pl.jit.extern(core_type="mixed", aic_source="kernels/mixed/entry.cpp", aiv_source="kernels/mixed/entry.cpp")
def mixed_entry(x, y):  # noqa: EXT1999
    ...
