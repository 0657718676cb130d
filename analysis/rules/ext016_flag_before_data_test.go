package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestFlagBeforeData(t *testing.T) {
	analysistest.Run(t, "testdata/ext016", FlagBeforeData)
}
