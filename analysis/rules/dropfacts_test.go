package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// TestDropFacts runs every rule on every fixture and on small copies of
// the adversarial shapes with Options.DropFacts and one store, as check
// does: the findings are those of a run that keeps every fact, and once
// the store has seen a file's rules run, a second run on the file drops
// no fact a rule still asks for.
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
	store := unit.NewStore()
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range analysistest.Files(abs) {
			run := func(store *unit.Store, heard func(rule, fact string)) []analysis.Diagnostic {
				opts := analysis.Options{Analyzers: All(), Enabled: func(*analysis.Analyzer) bool { return true },
					Store: store, DropFacts: store != nil, OnDroppedFact: heard}
				ds, err := analysis.Run(workspace.New(abs), path, opts)
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				return ds
			}
			kept := run(nil, nil)
			if learning := run(store, nil); !reflect.DeepEqual(kept, learning) {
				t.Errorf("%s: %d findings dropping facts, %d keeping them", path, len(learning), len(kept))
			}
			dropped := run(store, func(rule, fact string) {
				t.Errorf("%s: %s asks for %s after the run dropped it", path, rule, fact)
			})
			if !reflect.DeepEqual(kept, dropped) {
				t.Errorf("%s: %d findings dropping learned facts, %d keeping them", path, len(dropped), len(kept))
			}
		}
	}
}
