package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestSpmdSyncStart(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext104", SpmdSyncStart)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", SpmdSyncStart)
}
