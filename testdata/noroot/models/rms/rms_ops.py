from pathlib import Path

import pypto.language as pl

_KERNEL_DIR = Path(__file__).parent / "kernels" / "rms_norm"
_ENTRY = _KERNEL_DIR / "entry" / "entry.cpp"


@pl.jit.extern(source=_ENTRY)
def rms_norm(
    x: pl.Tensor[[16, 128], pl.FP32],
    gamma: pl.Tensor[[128], pl.FP32],
    y: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    eps: pl.Scalar[pl.FP32],
) -> pl.Tensor:
    ...
