package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestMissingPipeDrain(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext012", MissingPipeDrain)
}
