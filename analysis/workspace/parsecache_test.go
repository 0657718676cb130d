package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Prune keeps a cache over its bound to half of it: other builds' trees
// go first, then this build's least recently used; under the bound it
// removes nothing.
func TestParseCachePrune(t *testing.T) {
	root := t.TempDir()
	c := NewParseCache(root)
	old := time.Now().Add(-time.Hour)
	put := func(path string, age time.Duration) {
		path = filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, make([]byte, 100), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, old.Add(age), old.Add(age))
	}
	ours := filepath.Base(c.dir)
	put(filepath.Join(ours, "aa", "used-first"), 0)
	put(filepath.Join(ours, "bb", "used-last"), 3*time.Minute)
	put(filepath.Join(ours, "aa", "used-second"), time.Minute)
	put(filepath.Join("another-build", "aa", "newest"), 5*time.Minute)
	left := func() []string {
		var out []string
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, filepath.Base(p))
			}
			return nil
		})
		slices.Sort(out)
		return out
	}
	c.Prune(400)
	if got := left(); len(got) != 4 {
		t.Fatalf("under the bound, pruned to %v", got)
	}
	// To at most 199 bytes: the other build's newest tree first.
	c.Prune(399)
	if got, want := left(), []string{"used-last"}; !slices.Equal(got, want) {
		t.Fatalf("pruned to %v, want %v", got, want)
	}
}

// A cache whose folder was removed (a test's, cleaned up while a server
// it started still parses) is not made again by a late write.
func TestParseCacheRemovedStaysRemoved(t *testing.T) {
	root := filepath.Join(t.TempDir(), "parses")
	c := NewParseCache(root)
	ws := New(t.TempDir())
	ws.SetParseCache(c)
	path := filepath.Join(ws.Roots()[0], "k.h")
	if err := os.WriteFile(path, []byte("inline int f() { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.File(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the removed cache folder is back (%v)", err)
	}
	if read, parsed := c.Counts(); read != 0 || parsed != 1 {
		t.Fatalf("%d read, %d parsed", read, parsed)
	}
}

// A cache deferring its writes keeps its trees in memory until Drain (at
// the server's idle) or Flush (at its shutdown) writes them; a file of the
// same text parsed in between shares the queued tree.
func TestParseCacheDeferredWrites(t *testing.T) {
	root := filepath.Join(t.TempDir(), "parses")
	c := NewParseCache(root)
	c.DeferWrites()
	ws := New(t.TempDir())
	ws.SetParseCache(c)
	text := []byte("inline int f() { return 1; }\n")
	var paths []string
	for _, name := range []string{"a.h", "b.h"} {
		p := filepath.Join(ws.Roots()[0], name)
		if err := os.WriteFile(p, text, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	trees := func() int {
		n := 0
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n
	}
	a, err := ws.File(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := trees(); n != 0 || !c.Queued() {
		t.Fatalf("%d trees written before any Drain (queued: %v)", n, c.Queued())
	}
	b, err := ws.File(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	if read, parsed := c.Counts(); read != 1 || parsed != 1 {
		t.Fatalf("%d read, %d parsed: the second text was not taken from the queue", read, parsed)
	}
	if b.Path != paths[1] || len(b.Tree.Nodes) != len(a.Tree.Nodes) {
		t.Fatalf("the shared tree is %s's with %d nodes (want %d)", b.Path, len(b.Tree.Nodes), len(a.Tree.Nodes))
	}
	busy := errors.New("busy")
	c.Drain(func() error { return busy })
	if n := trees(); n != 0 {
		t.Fatalf("%d trees written by a Drain told to wait", n)
	}
	c.Drain(func() error { return nil })
	if n := trees(); n != 1 || c.Queued() {
		t.Fatalf("%d trees written after Drain (queued: %v), want 1", n, c.Queued())
	}
	// Flush writes what is left: a new server reads it back.
	ws2 := New(ws.Roots()[0])
	c2 := NewParseCache(root)
	ws2.SetParseCache(c2)
	if _, err := ws2.File(paths[0]); err != nil {
		t.Fatal(err)
	}
	if read, parsed := c2.Counts(); read != 1 || parsed != 0 {
		t.Fatalf("a new cache: %d read, %d parsed", read, parsed)
	}
	c.DeferWrites()
	other := filepath.Join(ws.Roots()[0], "c.h")
	if err := os.WriteFile(other, []byte("inline int g() { return 2; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.File(other); err != nil {
		t.Fatal(err)
	}
	c.Flush()
	if n := trees(); n != 2 || c.Queued() {
		t.Fatalf("%d trees after Flush (queued: %v), want 2", n, c.Queued())
	}
}
