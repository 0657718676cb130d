package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestTPipeOutsideVec(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext002", TPipeOutsideVec)
}

// TestTPipeFusedKernel runs the TPipe and GM-read rules together over a
// guide-shaped fused extern: only the planted bugs may be reported.
func TestTPipeFusedKernel(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext002/fused", GMScalarRead, TPipeOutsideVec, TPipeDouble)
}
