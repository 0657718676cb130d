package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestSyncAllAIVOnly(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext004", SyncAllAIVOnly)
}
