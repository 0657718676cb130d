package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestArgsKindMismatch(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext101", ArgsKindMismatch)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", ArgsKindMismatch)
}
