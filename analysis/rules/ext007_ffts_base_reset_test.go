package rules

import (
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestFFTSBaseReset(t *testing.T) {
	for _, r := range analysistest.RunWithFixes(t, "testdata/ext007", FFTSBaseReset) {
		for _, d := range r.Diags {
			// Only an extern of unknown chip is told at info.
			want := analysis.SeverityError
			if filepath.Base(filepath.Dir(d.File)) == "unknownarch" {
				want = analysis.SeverityInfo
			}
			if d.Severity != want {
				t.Errorf("%s:%d: severity %v, want %v", d.File, d.Start, d.Severity, want)
			}
		}
	}
}
