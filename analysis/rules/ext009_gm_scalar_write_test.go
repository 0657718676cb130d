package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestGMScalarWrite(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext009", GMScalarWrite)
}
