package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestScalarDMAHandoff(t *testing.T) {
	analysistest.Run(t, "testdata/ext017", ScalarDMAHandoff)
}
