package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestTPipeDouble(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext003", TPipeDouble)
}
