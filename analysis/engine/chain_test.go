package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

// TestCheckOfAChainIsLinear: `check` of an entry and a chain of n
// one-line headers, each including the next (issue 31: 1,500 took 84 s
// and 1.1 GB), does work linear in n, counted as the bytes and objects
// the run allocates (every list, key and fact a header's analysis makes
// is allocated): four times the headers may cost at most eight times as
// much (a quadratic run costs sixteen). At 43440dc the ratio was 12
// (each header built its closure's facts, listed its unit's files and
// the run kept a list of every file per file).
func TestCheckOfAChainIsLinear(t *testing.T) {
	loader, err := config.NewLoader("", rules.All())
	if err != nil {
		t.Fatal(err)
	}
	work := func(n int) (bytes, objects uint64) {
		root := t.TempDir()
		analysistest.HeaderChain(t, root, n)
		if err := os.WriteFile(filepath.Join(root, "entry.cpp"), []byte(analysistest.ChainEntry), 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ck := &engine.Checker{Loader: loader, Jobs: 1, RootFor: func(string) string { return root }}
		if err := ck.Collect([]string{root}); err != nil {
			t.Fatal(err)
		}
		results := ck.Check(context.Background(), nil)
		runtime.ReadMemStats(&after)
		if len(results) != n+1 {
			t.Fatalf("n=%d: %d files checked, want %d", n, len(results), n+1)
		}
		for _, r := range results {
			if r.Err != nil || len(r.Diags) > 0 {
				t.Fatalf("n=%d: %s: %v %v, want no finding", n, r.Path, r.Err, r.Diags)
			}
		}
		return after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs
	}
	b1, o1 := work(500)
	b4, o4 := work(2000)
	t.Logf("500 headers: %d KB in %d objects; 2000: %d KB in %d objects", b1>>10, o1, b4>>10, o4)
	if b4 > 8*b1 || o4 > 8*o1 {
		t.Errorf("4x the headers allocated %.1fx the bytes and %.1fx the objects; want at most 8x (linear: 4x)", float64(b4)/float64(b1), float64(o4)/float64(o1))
	}
}
