package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A fork made while a parse of one of its files is under way waits for
// that parse instead of repeating it (the server forks on every edit: a
// header parsed for the previous snapshot is the next one's too), and
// never spins on it.
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
	var parses atomic.Int32
	parseHook = func(p string) {
		if p == path && parses.Add(1) == 1 {
			close(entered)
			<-release
		}
	}
	t.Cleanup(func() { parseHook = nil })
	orig := make(chan *grammar.File, 1)
	go func() {
		f, err := w.File(path)
		if err != nil {
			t.Error(err)
		}
		orig <- f
	}()
	<-entered
	fork := w.Fork() // the original's parse is in flight
	forked := make(chan *grammar.File, 1)
	go func() {
		f, err := fork.File(path)
		if err != nil {
			t.Error(err)
		}
		forked <- f
	}()
	close(release)
	a, b := <-orig, <-forked
	if a == nil || a != b {
		t.Errorf("the fork's parse %p is not the original's %p", b, a)
	}
	if n := parses.Load(); n != 1 {
		t.Errorf("%d parses of one text, want 1", n)
	}
}

// A fork's edit stays its own: the parent keeps its text, parse, include
// graph and units, and the fork sees its new include at once although it
// started from the parent's memoized closures.
func TestForkEditStaysOwn(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.h", "#pragma once\nint a;\n")
	b := write("b.h", "#pragma once\nint b;\n")
	entry := write("k.cpp", "#include \"a.h\"\nextern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {}\n")
	w := New(root)
	pa, _ := w.File(a)
	if got := w.Closure(entry); !slices.Equal(got, []string{entry, a}) {
		t.Fatalf("closure %v", got)
	}
	if got := w.Context(b).Units; len(got) != 0 {
		t.Fatalf("b.h units %v before the edit", got)
	}
	fork := w.Fork()
	if f, _ := fork.File(a); f != pa {
		t.Error("the fork parsed a.h again")
	}
	fork.SetOverlay(entry, []byte("#include \"a.h\"\n#include \"b.h\"\nextern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {}\n"), 2)
	if got := fork.Closure(entry); !slices.Equal(got, []string{entry, a, b}) {
		t.Errorf("fork closure %v, want the new include", got)
	}
	if got := fork.Context(b).Units; !slices.Equal(got, []string{entry}) {
		t.Errorf("fork: b.h units %v", got)
	}
	if got := w.Closure(entry); !slices.Equal(got, []string{entry, a}) {
		t.Errorf("parent closure %v after the fork's edit", got)
	}
	if got := w.Context(b).Units; len(got) != 0 {
		t.Errorf("parent: b.h units %v after the fork's edit", got)
	}
	if w.Version(entry) != -1 || fork.Version(entry) != 2 {
		t.Errorf("versions: parent %d fork %d", w.Version(entry), fork.Version(entry))
	}
}

// An overlay parsed by its owner's parse function is parsed once, when
// first asked, and shared by the forks holding that text.
func TestOverlayParseOnce(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "k.cpp")
	src := []byte("int f() { return 1; }\n")
	var calls atomic.Int32
	w := New(root)
	w.SetOverlayParse(path, src, 1, func() (*grammar.File, error) {
		calls.Add(1)
		return grammar.ParseFile(t.Context(), nil, path, src, nil)
	})
	fork := w.Fork()
	if calls.Load() != 0 {
		t.Fatal("parsed before anyone asked")
	}
	f1, err := fork.File(path)
	if err != nil {
		t.Fatal(err)
	}
	f2, _ := w.File(path)
	w.SetOverlayParse(path, src, 2, nil) // the same text, a new version
	f3, _ := w.File(path)
	if f1 != f2 || f2 != f3 || calls.Load() != 1 {
		t.Errorf("parses %p %p %p, %d calls: want one parse", f1, f2, f3, calls.Load())
	}
}

// An overlay whose parse was given up (its parse func's context ended)
// and one not yet parsed are parsed again, with the new parse func, when
// the same text is set again.
func TestOverlayParseGivenUp(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "k.cpp")
	src := []byte("int f() { return 1; }\n")
	w := New(root)
	w.SetOverlayParse(path, src, 1, func() (*grammar.File, error) { return nil, context.Canceled })
	if _, err := w.File(path); err != context.Canceled {
		t.Fatalf("given-up parse: %v", err)
	}
	var calls atomic.Int32
	parse := func() (*grammar.File, error) {
		calls.Add(1)
		return grammar.ParseFile(t.Context(), nil, path, src, nil)
	}
	w.SetOverlayParse(path, src, 2, func() (*grammar.File, error) { return nil, context.Canceled }) // never run
	w.SetOverlayParse(path, src, 3, parse)
	if f, err := w.File(path); err != nil || f == nil || calls.Load() != 1 {
		t.Errorf("the same text again: %v, %d parses, want the new func's one", err, calls.Load())
	}
}

// A workspace that read a given-up parse says so (its results are stale);
// a fork given the newer text, and a workspace that read no given-up
// parse, do not.
func TestGaveUpMarksTheReader(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "k.cpp")
	other := filepath.Join(root, "o.cpp")
	w := New(root)
	w.SetOverlayParse(path, []byte("int f();\n"), 1, func() (*grammar.File, error) { return nil, context.Canceled })
	w.SetOverlay(other, []byte("int g();\n"), 1)
	newer := w.Fork()
	newer.SetOverlay(path, []byte("int f2();\n"), 2)
	if _, err := w.File(other); err != nil || w.GaveUp() {
		t.Fatalf("a parse that ran: %v, gave up %v", err, w.GaveUp())
	}
	if _, err := w.File(path); !errors.Is(err, context.Canceled) || !w.GaveUp() {
		t.Errorf("a given-up parse: %v, gave up %v; want the workspace marked", err, w.GaveUp())
	}
	if _, err := newer.File(path); err != nil || newer.GaveUp() {
		t.Errorf("the fork with the newer text: %v, gave up %v", err, newer.GaveUp())
	}
}
