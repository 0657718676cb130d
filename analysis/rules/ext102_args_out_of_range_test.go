package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestArgsOutOfRange(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext102", ArgsOutOfRange)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", ArgsOutOfRange)
}
