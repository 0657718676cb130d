package workspace

import (
	"errors"
	"fmt"
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

// The root of the file system, a home folder and the folders above one are
// not walked: their files are read as they are opened or included.
func TestBroadRootsAreNotIndexed(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home", "user")
	proj := filepath.Join(home, "proj")
	os.MkdirAll(proj, 0o755)
	kernel := filepath.Join(home, "k.cpp")
	os.WriteFile(kernel, []byte("int f();\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "p.cpp"), []byte("int g();\n"), 0o644)
	t.Setenv("HOME", home)
	for _, r := range []string{"/", home, filepath.Dir(home)} {
		if TooBroad(r) == "" {
			t.Errorf("TooBroad(%s) = \"\"", r)
		}
	}
	if why := TooBroad(proj); why != "" {
		t.Errorf("TooBroad(%s) = %q", proj, why)
	}
	if got := New(home).KnownFiles(); len(got) != 2 {
		t.Errorf("an unbounded index (check's) walks the home folder: %v", got)
	}
	w := New(home)
	w.BoundIndex()
	if got := w.KnownFiles(); len(got) != 0 {
		t.Errorf("the home folder was indexed: %v", got)
	}
	ps := w.Problems()
	var nie *NotIndexedError
	if len(ps) != 1 || ps[0].Path != home || !errors.As(ps[0].Err, &nie) || !strings.Contains(ps[0].Err.Error(), "home folder") {
		t.Errorf("problems = %v, want the home folder not indexed", ps)
	}
	// Lazily: a file read joins the index.
	if _, err := w.File(kernel); err != nil {
		t.Fatal(err)
	}
	if got := w.KnownFiles(); len(got) != 1 || got[0] != kernel {
		t.Errorf("known after reading %s: %v", kernel, got)
	}
	// An ordinary folder below the home folder is indexed.
	w = New(proj)
	w.BoundIndex()
	if got := w.KnownFiles(); len(got) != 1 {
		t.Errorf("known files of %s: %v", proj, got)
	}
}

// A root with more folders than the index lists is indexed in part, and
// says so.
func TestIndexFolderBound(t *testing.T) {
	root := t.TempDir()
	for i := range 8 {
		d := filepath.Join(root, fmt.Sprintf("d%d", i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "k.cpp"), []byte("int f();\n"), 0o644)
	}
	defer func(n int) { maxIndexFolders = n }(maxIndexFolders)
	maxIndexFolders = 3
	w := New(root)
	w.BoundIndex()
	if got := w.KnownFiles(); len(got) != 3 {
		t.Errorf("known files = %v, want the files of 3 folders", got)
	}
	if ps := w.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Err.Error(), "more than 3 folders") {
		t.Errorf("problems = %v", ps)
	}
	maxIndexFolders = 100
	defer func(n int) { maxIndexFiles = n }(maxIndexFiles)
	maxIndexFiles = 5
	w = New(root)
	w.BoundIndex()
	if got := w.KnownFiles(); len(got) != 5 || got[4] != filepath.Join(root, "d4", "k.cpp") {
		t.Errorf("known files = %v, want the first 5", got)
	}
	if ps := w.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Err.Error(), "more than 5 C++ and Python files") {
		t.Errorf("problems = %v", ps)
	}
}
