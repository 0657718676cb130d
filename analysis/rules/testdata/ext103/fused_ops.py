import pypto.language as pl


# The guide's broken fused signature: query (InOut) before out (Out).
@pl.jit.extern(core_type="mixed", source="fused.cpp", dual_aiv_dispatch=True)
def fused_bad(
    query: pl.InOut[pl.Tensor[[8, 5120], pl.BF16]],  # want "extern `fused_bad` returns its first output-like parameter, pl.InOut `query`, but pl.Out `out` follows it: callers of the single return read `query`, not `out`; declare `out` first \\(writes to `query` then reach later tasks only through explicit deps\\); no fix is offered: .*compiled under another extern too"
    key_cache: pl.Tensor,
    out: pl.Out[pl.Tensor[[8, 5120], pl.BF16]],
    row: pl.Scalar[pl.INDEX],
) -> pl.Tensor:
    ...


# Fixed: the return buffer first; the in-place query is reported at info.
@pl.jit.extern(core_type="mixed", source="fused.cpp", dual_aiv_dispatch=True)
def fused_good(  # want "EXT103 .*binds its return to `out`; writes to `query` are not returned and reach later tasks only through explicit deps"
    out: pl.Out[pl.Tensor[[8, 5120], pl.BF16]],
    query: pl.InOut[pl.Tensor[[8, 5120], pl.BF16]],
    row: pl.Scalar[pl.INDEX],
) -> pl.Tensor:
    ...


# A `# returns:` comment names the intended buffer; the last parameter moves.
@pl.jit.extern(core_type="aiv", source="norm.cpp")
def norm(  # returns: y
    x: pl.Tensor,
    stats: pl.Out[pl.Tensor[[8], pl.FP32]],  # want "extern `norm` returns its first output-like parameter, pl.Out `stats`, but the return is documented as `y`"
    y: pl.Out[pl.Tensor[[8, 128], pl.FP32]]
) -> pl.Tensor:
    ...


# One output-like parameter, a tuple return, or no return: silent.
@pl.jit.extern(source="one.cpp")
def one(x: pl.Tensor, y: pl.Out[pl.Tensor]) -> pl.Tensor:
    ...


@pl.jit.extern(source="two.cpp")
def two(x: pl.InOut[pl.Tensor], y: pl.Out[pl.Tensor]) -> tuple[pl.Tensor, pl.Tensor]:
    ...


@pl.jit.extern(source="none.cpp")
def nothing(x: pl.InOut[pl.Tensor], y: pl.Out[pl.Tensor]) -> None:
    ...


@pl.jit.extern(source="quiet.cpp")
def quiet(  # noqa: EXT103
    x: pl.InOut[pl.Tensor],  # noqa: return-binding
    y: pl.Out[pl.Tensor],
) -> pl.Tensor:
    ...


# An in-place update whose callers bind the return to the InOut itself:
# the later pl.Out is scratch, and the return is as meant.
@pl.jit.extern(core_type="aiv", source="accumulate.cpp")
def accumulate(  # want "EXT103 .*binds its return to `acc`; writes to `scratch` are not returned"
    acc: pl.InOut[pl.Tensor[[8, 128], pl.FP32]],
    x: pl.Tensor,
    scratch: pl.Out[pl.Tensor[[8, 128], pl.FP32]],
) -> pl.Tensor:
    ...


def step(acc, x, scratch):
    acc = accumulate(acc, x, scratch)
    return acc
