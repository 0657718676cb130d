package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
)

// Applying every fix of every fixture settles, and applying all fixes again
// to the fixed text changes nothing.
func TestFixesSettle(t *testing.T) {
	roots, _ := filepath.Glob(filepath.Join("..", "rules", "testdata", "*"))
	fixed := 0
	for _, root := range roots {
		root, _ = filepath.Abs(root)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		loader, err := config.NewLoader("")
		if err != nil {
			t.Fatal(err)
		}
		ck := &engine.Checker{Loader: loader, Jobs: 2, RootFor: func(string) string { return root }}
		if err := ck.Collect([]string{root}); err != nil {
			t.Fatal(err)
		}
		check := func(int) ([]analysis.Diagnostic, error) {
			var all []analysis.Diagnostic
			for _, r := range ck.Check(context.Background(), nil) {
				all = append(all, r.Diags...)
			}
			return all, nil
		}
		first, err := (&engine.Fixer{WS: ck.WS, Unsafe: true, Check: check}).Run()
		if err != nil {
			t.Fatal(err)
		}
		if !first.Settled {
			t.Errorf("%s: fixes did not settle after %d rounds", filepath.Base(root), engine.MaxFixRounds)
		}
		fixed += first.Count
		again, err := (&engine.Fixer{WS: ck.WS, Unsafe: true, Check: check}).Run()
		if err != nil {
			t.Fatal(err)
		}
		if again.Count != 0 {
			t.Errorf("%s: a second fix run applied %d more fixes to %v", filepath.Base(root), again.Count, again.Changed(ck.WS))
		}
	}
	if fixed == 0 {
		t.Fatal("no fixture has a fix: the fixtures moved?")
	}
}
