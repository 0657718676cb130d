import pypto.language as pl


# Two ABIs over one header whose flag the entries set through a macro
# extern-lsp cannot evaluate (it comes from the build line).
@pl.jit.extern(source="small_entry.cpp")
def small(x: pl.Tensor, y: pl.Out[pl.Tensor], n: pl.INDEX) -> pl.Tensor:
    ...


@pl.jit.extern(source="big_entry.cpp")
def big(x: pl.Tensor, y: pl.Out[pl.Tensor], w: pl.Tensor, v: pl.Tensor, n: pl.INDEX, m: pl.INDEX) -> pl.Tensor:
    ...
