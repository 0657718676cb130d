package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestStubUnresolved(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext100", StubUnresolved)
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", StubUnresolved)
}
