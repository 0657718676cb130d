import pypto.language as pl


@pl.jit.extern(core_type="mixed", source="kernels/fine.cpp")
def half_written(a: pl.Tensor, b: pl.Scalar[pl.INDEX  # want "extern `half_written` has syntax errors; its args\\[\\] table may be incomplete and is not checked"
