package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestGMScalarRead(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext001", GMScalarRead)
}
