package analysis_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestJobsSameFindings: a file's rules run at once (Options.Jobs) find
// what they find one after another, on every rule fixture and on the
// generated realistic unit, each run with a fact store of its own (a
// shared fact is computed by whichever rule asks first).
func TestJobsSameFindings(t *testing.T) {
	unit := t.TempDir()
	if _, err := benchgen.WriteUnits(unit, 1); err != nil {
		t.Fatal(err)
	}
	roots := []string{unit}
	dirs, _ := filepath.Glob("rules/testdata/*")
	roots = append(roots, dirs...)
	files := 0
	for _, root := range roots {
		ws := workspace.New(root)
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if _, ok := grammar.LangOf(path); !ok {
				return nil
			}
			var got [2][]analysis.Diagnostic
			for i, jobs := range []int{1, 4} {
				opts := allRules()
				opts.Jobs = jobs
				got[i], err = analysis.RunContext(context.Background(), ws, path, opts)
				if err != nil {
					return nil
				}
			}
			files++
			if !reflect.DeepEqual(got[0], got[1]) {
				t.Errorf("%s: %d findings one rule at a time, %d with 4 at once", path, len(got[0]), len(got[1]))
			}
			return nil
		})
	}
	if files < 100 {
		t.Fatalf("compared %d files", files)
	}
}
