package workspace

import (
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
