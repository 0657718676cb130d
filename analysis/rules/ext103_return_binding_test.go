package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestReturnBinding(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext103", ReturnBinding)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", ReturnBinding)
}
