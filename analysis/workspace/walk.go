package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Tree is a folder tree listed by several goroutines, then walked in the
// order filepath.WalkDir walks it: a walk of a large tree reads its
// folders side by side, and whoever walks it sees them one by one, in a
// deterministic order.
type Tree struct {
	mu   sync.Mutex
	dirs map[string]listing
}

type listing struct {
	entries []fs.DirEntry
	err     error
}

// ListTree lists root and every folder below it that descend accepts
// (given the folder's path and entry), with jobs goroutines.
func ListTree(root string, jobs int, descend func(path string, d fs.DirEntry) bool) *Tree {
	t := &Tree{dirs: map[string]listing{}}
	Parallel(jobs, []string{root}, func(dir string) []string {
		entries, err := os.ReadDir(dir)
		var sub []string
		for _, e := range entries {
			if p := filepath.Join(dir, e.Name()); e.IsDir() && descend(p, e) {
				sub = append(sub, p)
			}
		}
		t.mu.Lock()
		t.dirs[dir] = listing{entries, err}
		t.mu.Unlock()
		return sub
	})
	return t
}

// Listed reports whether ListTree listed dir.
func (t *Tree) Listed(dir string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.dirs[dir]
	return ok
}

// WalkDir is filepath.WalkDir(root, fn) reading the folders the tree
// listed from memory (others from disk).
func (t *Tree) WalkDir(root string, fn fs.WalkDirFunc) error {
	info, err := os.Lstat(root)
	if err != nil {
		err = fn(root, nil, err)
	} else {
		err = t.walk(root, fs.FileInfoToDirEntry(info), fn)
	}
	if err == filepath.SkipDir || err == filepath.SkipAll {
		return nil
	}
	return err
}

func (t *Tree) readDir(dir string) ([]fs.DirEntry, error) {
	t.mu.Lock()
	l, ok := t.dirs[dir]
	t.mu.Unlock()
	if ok {
		return l.entries, l.err
	}
	return os.ReadDir(dir)
}

// walk is filepath's walkDir.
func (t *Tree) walk(path string, d fs.DirEntry, fn fs.WalkDirFunc) error {
	if err := fn(path, d, nil); err != nil || !d.IsDir() {
		if err == filepath.SkipDir && d.IsDir() {
			err = nil
		}
		return err
	}
	entries, err := t.readDir(path)
	if err != nil {
		// Second call, to report the failed read.
		if err = fn(path, d, err); err != nil {
			if err == filepath.SkipDir && d.IsDir() {
				err = nil
			}
			return err
		}
	}
	for _, e := range entries {
		if err := t.walk(filepath.Join(path, e.Name()), e, fn); err != nil {
			if err == filepath.SkipDir {
				break
			}
			return err
		}
	}
	return nil
}
