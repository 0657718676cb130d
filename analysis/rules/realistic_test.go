package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestRealisticKernel runs every rule over a guide-shaped fused extern (RoPE
// vector phase, cube attention, global barrier, Python stub): only the
// planted bugs may be reported, and every fix must hold.
func TestRealisticKernel(t *testing.T) {
	analysistest.RunWithFixes(t, "../../testdata/realistic", All()...)
}
