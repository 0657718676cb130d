package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestArgsSlotNameMismatch(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext107", ArgsSlotNameMismatch)
	// Correct kernels whose constants name their slots stay silent.
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", ArgsSlotNameMismatch)
}
