import os
from pathlib import Path

import pypto.language as pl
from .paths import kernel_path, some_call

HERE = Path(__file__).parent
KDIR = os.path.join(os.path.dirname(__file__), "kernels")
CT = "mixed"
CT = "aiv"


@pl.jit.extern(source=some_call())  # want "source=some_call\\(\\) cannot be resolved statically \\(`some_call\\(\\)` is imported from .paths; its result is known only at run time\\); extern-lsp links `dyn_kernel` to its C\\+\\+ entry by file name instead"
def dyn_kernel(x: pl.Tensor, n: pl.INDEX):
    ...


@pl.jit.extern(source=kernel_path("nowhere.cpp"))  # want "cannot be resolved statically"
def lost(x: pl.Tensor):  # want "extern `lost` is linked to no C\\+\\+ entry in the workspace"
    ...


@pl.jit.extern(source=HERE / "kernels" / "missing.cpp")  # want "source=HERE / \"kernels\" / \"missing.cpp\" resolves to .*kernels/missing.cpp, which does not exist"
def gone(x: pl.Tensor):
    ...


@pl.jit.extern(core_type=CT, source=f"{KDIR}/fine.cpp")  # want "core_type=CT cannot be evaluated statically \\(`CT` is assigned more than once\\)"
def fine(a, b: pl.Tensor):  # want "parameter `a` has no pl type annotation; extern-lsp assumes a tensor"
    ...


@pl.jit.extern(source=os.path.join(KDIR, "fine.cpp"))
def fine_again(a: pl.Tensor, b: pl.Out[pl.Tensor]) -> None:
    ...


@pl.jit.extern(core_type="hybrid", source=os.path.join(KDIR, "fine.cpp"))  # want "core_type=.hybrid. is not .aiv., .aic. or .mixed.; the kernel kind falls back"
def odd_kind(a: pl.Tensor) -> None:
    ...
