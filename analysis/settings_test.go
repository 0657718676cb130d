package analysis_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Options.Settings reach every rule's Pass unchanged.
func TestSettingsReachPass(t *testing.T) {
	dir := t.TempDir()
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {}\n"
	if err := os.WriteFile(filepath.Join(dir, "entry.cpp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got analysis.Settings
	probe := &analysis.Analyzer{Code: "EXT999", Name: "probe", Lang: grammar.CPP, Run: func(p *analysis.Pass) { got = p.Settings }}
	want := analysis.Settings{ReservedFlags: []int{8, 9}, CoreMacroFamily: analysis.FamilyAny}
	ws := workspace.New(dir)
	if _, err := analysis.Run(ws, filepath.Join(dir, "entry.cpp"), analysis.Options{Analyzers: []*analysis.Analyzer{probe}, Settings: want}); err != nil {
		t.Fatal(err)
	}
	if got.Family() != "any" || !got.Reserved(9) || got.Reserved(10) {
		t.Errorf("pass settings = %+v", got)
	}
	if (analysis.Settings{}).Family() != analysis.FamilyConsistent {
		t.Error("default family must be consistent")
	}
}
