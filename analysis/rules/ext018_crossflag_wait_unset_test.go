package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestCrossFlagWaitUnset(t *testing.T) {
	analysistest.Run(t, "testdata/ext018", CrossFlagWaitUnset)
}
