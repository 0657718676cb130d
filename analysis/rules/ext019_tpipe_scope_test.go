package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestTPipeScope(t *testing.T) {
	analysistest.Run(t, "testdata/ext019", TPipeScope)
}
