package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeChain writes n headers h0.hpp .. h{n-1}.hpp, each including the
// next, and entry.cpp including h0.hpp, into dir.
func writeChain(t testing.TB, dir string, n int) {
	t.Helper()
	for i := range n {
		src := fmt.Sprintf("#include \"h%d.hpp\"\n", i+1)
		if i == n-1 {
			src = "int last;\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("h%d.hpp", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src := "#include \"h0.hpp\"\nextern \"C\" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {}\n"
	if err := os.WriteFile(filepath.Join(dir, "entry.cpp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestClosuresOfAChainAreLinear: in a chain of headers each including
// the next, every header's closure is asked for (check does, for each
// file, its readers and its units) with each file visited once in all,
// not once per closure holding it (issue 31: 1,500 headers took 84 s);
// the closures are the same breadth-first lists a walk makes, and the
// entry's kind is read off its closure once.
func TestClosuresOfAChainAreLinear(t *testing.T) {
	for _, n := range []int{100, 400} {
		dir := t.TempDir()
		writeChain(t, dir, n)
		ws := New(dir)
		visits := 0
		closureHook = func(string) { visits++ }
		t.Cleanup(func() { closureHook = nil })
		entry := filepath.Join(dir, "entry.cpp")
		for i := range n {
			h := filepath.Join(dir, fmt.Sprintf("h%d.hpp", i))
			got := ws.Closure(h)
			if len(got) != n-i || got[0] != h || got[len(got)-1] != filepath.Join(dir, fmt.Sprintf("h%d.hpp", n-1)) {
				t.Fatalf("n=%d: closure of h%d: %d files from %s to %s, want %d from h%d to h%d", n, i, len(got), got[0], got[len(got)-1], n-i, i, n-1)
			}
			ws.UnitKind(entry)
		}
		if want := append([]string{entry}, ws.Closure(filepath.Join(dir, "h0.hpp"))...); !slices.Equal(ws.Closure(entry), want) {
			t.Fatalf("n=%d: the entry's closure is not the entry then h0's", n)
		}
		if visits > 2*n {
			t.Errorf("n=%d: %d files visited to list %d closures; want at most %d (each file about once)", n, visits, n+1, 2*n)
		}
	}
}

// TestClosureOfAFileWithOneIncludeIsItsWalk: the closure a file with one
// include takes from that include's is the list a walk makes, includes
// shared further down (a diamond) and a cycle back to the file included.
func TestClosureOfAFileWithOneIncludeIsItsWalk(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.h": "#include \"b.h\"\n",
		"b.h": "#include \"c.h\"\n#include \"d.h\"\n",
		"c.h": "#include \"e.h\"\n",
		"d.h": "#include \"e.h\"\n#include \"a.h\"\n",
		"e.h": "int e;\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, start := range []string{"a.h", "c.h", "b.h", "d.h"} {
		ws := New(dir)
		ws.Closure(filepath.Join(dir, "e.h")) // memoized first, as a run may
		got := ws.Closure(filepath.Join(dir, start))
		want := New(dir).closure(filepath.Join(dir, start), 0, maxSoleDepth).list()
		if !slices.Equal(got, want) {
			t.Errorf("closure of %s: got %v, want the walk's %v", start, got, want)
		}
	}
}
