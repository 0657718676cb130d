package rules

import (
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func TestCrossCoreLaneImbalance(t *testing.T) {
	results := analysistest.Run(t, "testdata/ext010", CrossCoreLaneImbalance)
	// The display-only sketch moves the set after the lane test: applied, the
	// file must still parse and that finding must be gone.
	root, _ := filepath.Abs("testdata/ext010")
	sketches := 0
	for _, r := range results {
		for _, d := range r.Diags {
			for _, fix := range d.Fixes {
				if fix.Applicability != analysis.DisplayOnly {
					t.Errorf("EXT010 fixes are display-only, got %v", fix.Applicability)
				}
				sketches++
				ws := workspace.New(root)
				before, err := ws.File(d.File)
				if err != nil {
					t.Fatal(err)
				}
				out, skipped := analysis.ApplyEdits(before.Src, d.File, fix.Edits)
				if skipped > 0 {
					t.Fatalf("%s: overlapping edits", fix.Title)
				}
				ws.SetOverlay(d.File, out, 1)
				after, err := ws.File(d.File)
				if err != nil {
					t.Fatal(err)
				}
				if after.Tree.ErrorCount() > before.Tree.ErrorCount() {
					t.Errorf("%s: sketch introduced parse errors:\n%s", fix.Title, out)
				}
				diags, err := analysis.Run(ws, d.File, analysis.Options{Analyzers: []*analysis.Analyzer{CrossCoreLaneImbalance}})
				if err != nil {
					t.Fatal(err)
				}
				if len(diags) >= len(r.Diags) {
					t.Errorf("%s: still %d findings after the sketch (%d before):\n%s", fix.Title, len(diags), len(r.Diags), out)
				}
			}
		}
	}
	if sketches == 0 {
		t.Error("no move sketch offered")
	}
}
