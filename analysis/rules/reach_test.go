package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestLibraryCodeNoKernelReaches: in a header a kernel includes whole, the
// functions its code reaches (a call, a callback passed to a template, a
// method called on an object) are judged as the kernel's; those no kernel
// reaches are not (unit.Reached).
func TestLibraryCodeNoKernelReaches(t *testing.T) {
	analysistest.Run(t, "testdata/reach", BarrierEarlyReturn)
}

// TestRuntimeHeadersHideNoCode: a runtime-ABI kernel whose tree does not
// hold the runtime's `tensor.h` and `intrinsic.h` still reaches only what
// it calls: a library helper for standalone launches is not judged.
func TestRuntimeHeadersHideNoCode(t *testing.T) {
	analysistest.Run(t, "testdata/reach_runtime", TopologyGetter)
}
