package rules

import (
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestGMScalarWrite(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext009", GMScalarWrite)
	// One missing dsb is one finding: at the write-back, with each other
	// store it covers as related information.
	found := false
	for _, r := range results {
		for _, d := range r.Diags {
			if !strings.Contains(d.Message, "`header[0] = 1`") {
				continue
			}
			found = true
			var stores []string
			for _, rel := range d.Related {
				if strings.Contains(rel.Message, "without a `dsb`") {
					stores = append(stores, rel.Message)
				}
			}
			if len(stores) != 3 || !strings.Contains(stores[0], "`header[1] = 2`") || !strings.Contains(stores[2], "`header[3] = 4`") {
				t.Errorf("the write-back's finding lists %q, want the three other stores", stores)
			}
		}
	}
	if !found {
		t.Error("no finding for the one_cause write-back")
	}
}
