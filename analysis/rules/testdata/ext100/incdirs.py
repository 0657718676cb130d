import os
from pathlib import Path

import pypto.language as pl
from pypto.runtime import pto_isa_include_dir

HERE = Path(__file__).parent
KDIR = os.path.join(os.path.dirname(__file__), "kernels")
_LIB_INCLUDE = HERE / "lib" / "include"


def _sdk_include_dirs():
    root = HERE / "sdk"
    candidates = (root / "include", root / "impl")
    return tuple(path for path in candidates if path.is_dir())


def _cann_include_dirs():
    cann = Path(os.environ.get("ASCEND_HOME_PATH", "/usr/local/Ascend"))
    return (cann / "include", cann / "impl", cann / "tikcfw")


_INC = (_LIB_INCLUDE,) + _sdk_include_dirs()


@pl.jit.extern(source=os.path.join(KDIR, "fine.cpp"), include_dirs=_INC)
def fine_inc(a: pl.Tensor, b: pl.Out[pl.Tensor]) -> None:
    ...


@pl.jit.extern(source=os.path.join(KDIR, "fine.cpp"), include_dirs=[*_INC, KDIR, Path(__file__).parent / "extra"])
def fine_inc_list(a: pl.Tensor, b: pl.Out[pl.Tensor]) -> None:
    ...


@pl.jit.extern(source=os.path.join(KDIR, "fine.cpp"), include_dirs=_INC + _cann_include_dirs())  # want "include_dirs entries cann / \"include\" and 2 more cannot be resolved statically \\(`os.environ.get\\(\"ASCEND_HOME_PATH\", \"/usr/local/Ascend\"\\)` reads the environment variable \"ASCEND_HOME_PATH\" at run time\\)"
def cann_inc(a: pl.Tensor, b: pl.Out[pl.Tensor]) -> None:
    ...


@pl.jit.extern(source=os.path.join(KDIR, "fine.cpp"), include_dirs=_INC + (pto_isa_include_dir(),))  # want "include_dirs entry pto_isa_include_dir\\(\\) cannot be resolved statically \\(`pto_isa_include_dir\\(\\)` is imported from pypto.runtime; its result is known only at run time\\)"
def pto_inc(a: pl.Tensor, b: pl.Out[pl.Tensor]) -> None:
    ...
