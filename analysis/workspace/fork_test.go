package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A fork made while a parse of one of its files is under way parses that
// file itself: its copy of the entry never receives the original's result,
// and waiting on the original's finished parse used to spin forever.
func TestForkDuringParse(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "k.cpp")
	if err := os.WriteFile(path, []byte("int f() { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := New(root)
	if _, err := w.Source(path); err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	parseHook = func(p string) {
		if p == path {
			parseHook = nil
			close(entered)
			<-release
		}
	}
	t.Cleanup(func() { parseHook = nil })
	orig := make(chan error, 1)
	go func() {
		_, err := w.File(path)
		orig <- err
	}()
	<-entered
	fork := w.Fork() // the original's parse is in flight
	close(release)
	if err := <-orig; err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		f, err := fork.File(path)
		if err == nil && (f == nil || f.Tree == nil) {
			t.Error("the fork's parse has no tree")
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the fork's File never returned (spinning on the original's finished parse)")
	}
}
