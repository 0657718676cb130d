package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestTPipeOutsideVec(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext002", TPipeOutsideVec)
}
