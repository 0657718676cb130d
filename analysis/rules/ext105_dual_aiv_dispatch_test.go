package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestDualAIVDispatch(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext105", DualAIVDispatch)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", DualAIVDispatch)
}
