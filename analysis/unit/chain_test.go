package unit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// TestGMOfAChainIsLinear: in a chain of headers each including the next,
// each header's GM model stands on its includes' environment; each level's
// environment is built once, from the level below (a header's model and
// its includer's share it), so the files environments are built from
// scratch stay about n, not the n²/2 of one environment per header over
// all it includes (issue 31: 1,500 headers took 84 s). The entry's unit is
// listed once per workspace generation, whoever asks.
func TestGMOfAChainIsLinear(t *testing.T) {
	for _, n := range []int{100, 300} {
		dir := t.TempDir()
		for i := range n {
			src := fmt.Sprintf("#include \"h%d.hpp\"\ninline __aicore__ void f%d(__gm__ int *p) { p[%d] = 0; }\n", i+1, i, i)
			if i == n-1 {
				src = "struct Last { __gm__ float *p; };\n"
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("h%d.hpp", i)), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		entry := filepath.Join(dir, "entry.cpp")
		if err := os.WriteFile(entry, []byte("#include \"h0.hpp\"\nextern \"C\" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		ws := workspace.New(dir)
		s := NewStore()
		ctx := context.Background()
		var first *Unit
		for i := range n {
			path := filepath.Join(dir, fmt.Sprintf("h%d.hpp", i))
			files, _ := ws.Files(ws.Closure(path))
			if s.New(ctx, ws, path, files, nil, 0, "closure").GM() == nil {
				t.Fatalf("h%d: no GM model", i)
			}
			u := s.ForEntry(ctx, ws, entry)
			if first == nil {
				first = u
			} else if u.Key != first.Key || &u.Files[0] != &first.Files[0] {
				t.Fatalf("h%d: the entry's unit was listed again", i)
			}
		}
		built := 0
		s.mu.Lock()
		for id, c := range s.facts {
			if id.key == gmEnvKey {
				built += len(c.pins)
			}
		}
		s.mu.Unlock()
		if built > 2*n {
			t.Errorf("n=%d: environments built from %d files; want at most %d", n, built, 2*n)
		}
	}
}
