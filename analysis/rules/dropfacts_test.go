package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// TestDropFacts runs every rule on every fixture and on small copies of
// the adversarial shapes with Options.DropFacts, as check does: no rule
// asks for a fact after the run dropped it (each rule lists the facts it
// reads in Analyzer.Facts, or a dropped fact is computed again), and the
// findings are those of a run that keeps every fact.
func TestDropFacts(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	shapes := t.TempDir()
	names := make([]string, 0, len(shapeGens))
	for n := range shapeGens {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := filepath.Join(shapes, n)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "k.cpp"), shapeGens[n](16<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range analysistest.Files(abs) {
			run := func(drop bool) []analysis.Diagnostic {
				opts := analysis.Options{Analyzers: All(), Enabled: func(*analysis.Analyzer) bool { return true }, DropFacts: drop,
					OnDroppedFact: func(rule, fact string) {
						t.Errorf("%s: %s asks for %s after the run dropped it: list it in the rule's Facts", path, rule, fact)
					}}
				ds, err := analysis.Run(workspace.New(abs), path, opts)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				return ds
			}
			if kept, dropped := run(false), run(true); !reflect.DeepEqual(kept, dropped) {
				t.Errorf("%s: %d findings dropping facts, %d keeping them", path, len(dropped), len(kept))
			}
		}
	}
}
