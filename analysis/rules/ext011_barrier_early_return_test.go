package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestBarrierEarlyReturn(t *testing.T) {
	analysistest.Run(t, "testdata/ext011", BarrierEarlyReturn)
}
