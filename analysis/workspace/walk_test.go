package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestTreeWalksAsWalkDir: a tree listed by several goroutines is walked in
// filepath.WalkDir's order, with its SkipDir and SkipAll, whether or not
// the listing descended into a folder.
func TestTreeWalksAsWalkDir(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.cpp", "a/b/y.h", "a-b/z.py", "a.h", "skip/s.cpp", "c/d/e/f.cpp", "c/d/g.h", "stop/t.cpp", "z.cpp"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	visit := func(walk func(string, fs.WalkDirFunc) error, stopAt string) []string {
		var out []string
		walk(dir, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
			switch {
			case d != nil && d.IsDir() && d.Name() == "skip":
				return filepath.SkipDir
			case rel == stopAt:
				return filepath.SkipAll
			}
			return nil
		})
		return out
	}
	for _, stop := range []string{"", "stop", "c/d/g.h"} {
		want := visit(filepath.WalkDir, stop)
		for _, jobs := range []int{1, 4} {
			all := ListTree(dir, jobs, func(string, fs.DirEntry) bool { return true })
			if got := visit(all.WalkDir, stop); !reflect.DeepEqual(got, want) {
				t.Errorf("jobs %d, stop at %q: walked %v, want %v", jobs, stop, got, want)
			}
			// Folders the listing did not enter are read during the walk.
			part := ListTree(dir, jobs, func(p string, _ fs.DirEntry) bool { return !strings.Contains(p, "/c") })
			if got := visit(part.WalkDir, stop); !reflect.DeepEqual(got, want) {
				t.Errorf("jobs %d, stop at %q, c not listed: walked %v, want %v", jobs, stop, got, want)
			}
		}
	}
	var got []string
	err := ListTree(filepath.Join(dir, "missing"), 2, nil).WalkDir(filepath.Join(dir, "missing"), func(p string, d fs.DirEntry, err error) error {
		got = append(got, err.Error())
		return nil
	})
	if err != nil || len(got) != 1 || !strings.Contains(got[0], "no such file") {
		t.Errorf("a missing root: %v, %v", got, err)
	}
}
