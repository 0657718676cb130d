package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestFFTSBaseReset(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext007", FFTSBaseReset)
}
