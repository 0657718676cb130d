package engine_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

var update = flag.Bool("update", false, "rewrite the fix goldens (testdata/**/*.golden)")

// Applying every fix of every fixture settles, the fixed text of each file
// is the one pinned in the .golden file next to it, and applying all fixes
// again to the fixed text changes nothing.
func TestFixesSettle(t *testing.T) {
	roots, _ := filepath.Glob(filepath.Join("..", "rules", "testdata", "*"))
	fixed := 0
	for _, root := range roots {
		root, _ = filepath.Abs(root)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		var extend []string
		if filepath.Base(root) == "ext900" {
			// Off by default (check --strict): its fixture root turns it on.
			extend = []string{"EXT900"}
		}
		ck, check := fixtureChecker(t, root, extend...)
		first, err := (&engine.Fixer{WS: ck.WS, Unsafe: true, Check: check, Recheck: ck.Recheck()}).Run()
		if err != nil {
			t.Fatal(err)
		}
		if !first.Settled {
			t.Errorf("%s: fixes did not settle after %d rounds", filepath.Base(root), engine.MaxFixRounds)
		}
		fixed += first.Count
		for _, d := range first.Dropped {
			t.Logf("%s: dropped %s", filepath.Base(root), d)
		}
		checkGoldens(t, root, ck, first)
		again, err := (&engine.Fixer{WS: ck.WS, Unsafe: true, Check: check, Recheck: ck.Recheck()}).Run()
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

// fixtureChecker is a checker over a fixture root (rules extend selected
// on top of the defaults) and the check a Fixer runs each round.
func fixtureChecker(t *testing.T, root string, extend ...string) (*engine.Checker, func(int) ([]analysis.Diagnostic, error)) {
	t.Helper()
	loader, err := config.NewLoader("", rules.All())
	if err != nil {
		t.Fatal(err)
	}
	ck := &engine.Checker{Loader: loader, Jobs: 2, RootFor: func(string) string { return root }}
	ck.Overrides.ExtendSelect = extend
	if err := ck.Collect([]string{root}); err != nil {
		t.Fatal(err)
	}
	return ck, func(int) ([]analysis.Diagnostic, error) {
		var all []analysis.Diagnostic
		for _, r := range ck.Check(context.Background(), nil) {
			all = append(all, r.Diags...)
		}
		return all, nil
	}
}

// checkGoldens compares each file the fixes changed with FILE.golden, and
// reports goldens whose file the fixes no longer change. With -update it
// rewrites them instead.
func checkGoldens(t *testing.T, root string, ck *engine.Checker, fixed *engine.Fixed) {
	t.Helper()
	changed := map[string]bool{}
	for _, path := range fixed.Changed(ck.WS) {
		changed[path+".golden"] = true
		got, err := ck.WS.Source(path)
		if err != nil {
			t.Fatal(err)
		}
		golden := path + ".golden"
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: the fixes change this file but no golden pins the result (go test ./analysis/engine -run TestFixesSettle -update): %v", rel(root, path), err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: fixed text differs from %s (go test ./analysis/engine -run TestFixesSettle -update, then review the diff)\n--- got\n%s", rel(root, path), filepath.Base(golden), got)
		}
	}
	var goldens []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".golden") {
			goldens = append(goldens, p)
		}
		return nil
	})
	for _, g := range goldens {
		if changed[g] {
			continue
		}
		if *update {
			os.Remove(g)
			continue
		}
		t.Errorf("%s: no fix changes %s any more: remove the golden", rel(root, g), strings.TrimSuffix(filepath.Base(g), ".golden"))
	}
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.Join(filepath.Base(root), r)
	}
	return p
}
