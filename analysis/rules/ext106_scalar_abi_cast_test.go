package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestScalarABICast(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext106", ScalarABICast)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", ScalarABICast)
}
