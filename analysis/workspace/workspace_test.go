package workspace

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestContextAndKinds(t *testing.T) {
	root, _ := filepath.Abs("testdata/ws")
	w := New(root)
	p := func(rel string) string { return filepath.Join(root, rel) }

	body := w.Context(p("kernels/common/body.hpp"))
	if !body.Extern || body.Entry {
		t.Fatalf("body.hpp: %+v", body)
	}
	wantUnits := []string{p("kernels/attn/entry.cpp"), p("kernels/attn/vec_entry.cpp")}
	if !reflect.DeepEqual(body.Units, wantUnits) {
		t.Errorf("units %v, want %v", body.Units, wantUnits)
	}
	// entry.cpp has cube evidence and includes vector evidence: mixed. The
	// header takes the most demanding kind of its units.
	if body.Kind != KindMixed {
		t.Errorf("body kind %s", body.Kind)
	}
	if k, src := w.UnitKind(p("kernels/attn/vec_entry.cpp")); k != KindAIV || src != "heuristic" {
		t.Errorf("vec_entry kind %s %s", k, src)
	}
	tiles := w.Context(p("kernels/common/tiles.hpp"))
	if !tiles.Extern || len(tiles.Units) != 2 {
		t.Errorf("transitive include: %+v", tiles)
	}
	if c := w.Context(p("other/plain.cpp")); c.Extern {
		t.Errorf("plain.cpp is not an extern source: %+v", c)
	}

	// An overlay that drops the include detaches the header from that unit.
	w.SetOverlay(p("kernels/attn/vec_entry.cpp"), []byte(`extern "C" __global__ __aicore__ void vec_entry(__gm__ int64_t *args) {}`), 2)
	if got := w.Context(p("kernels/common/body.hpp")).Units; len(got) != 1 {
		t.Errorf("after overlay, units %v", got)
	}
	if w.Version(p("kernels/attn/vec_entry.cpp")) != 2 {
		t.Error("overlay version")
	}
	w.ClearOverlay(p("kernels/attn/vec_entry.cpp"))
	if got := w.Context(p("kernels/common/body.hpp")).Units; len(got) != 2 {
		t.Errorf("after clearing overlay, units %v", got)
	}
}

func TestClosureToleratesMissingHeaders(t *testing.T) {
	root, _ := filepath.Abs("testdata/ws")
	w := New(root)
	got := w.Closure(filepath.Join(root, "kernels/attn/entry.cpp"))
	if len(got) != 3 {
		t.Errorf("closure %v", got)
	}
	f, err := w.File(got[1])
	if err != nil || f == nil {
		t.Fatal(err)
	}
	if _, err := w.File(filepath.Join(root, "missing.cpp")); err == nil {
		t.Error("missing file should fail")
	}
}

// An include closure stops at the unit byte cap; the headers left out are
// reported, and nothing past a FIFO or device is ever read.
func TestClosureByteCapAndIrregularIncludes(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("// padding\n", 20)
	files := map[string]string{
		"entry.cpp": "#include \"a.h\"\n#include \"b.h\"\n#include \"zero.h\"\nextern \"C\" __aicore__ void k(__gm__ int64_t *args) {}\n",
		"a.h":       big,
		"b.h":       big,
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.h"))
	ws := New(dir)
	ws.SetLimits(nil, int64(len(files["entry.cpp"])+len(big)+10))
	got := ws.Closure(filepath.Join(dir, "entry.cpp"))
	if len(got) != 2 || filepath.Base(got[1]) != "a.h" {
		t.Fatalf("closure %v, want entry.cpp and a.h", got)
	}
	probs := map[string]string{}
	for _, p := range ws.Problems() {
		probs[filepath.Base(p.Path)] = p.Err.Error()
	}
	if !strings.Contains(probs["b.h"], "its includes exceed") {
		t.Errorf("b.h: %q", probs["b.h"])
	}
	if _, err := ws.File(filepath.Join(dir, "zero.h")); err == nil || !strings.Contains(err.Error(), "character device") {
		t.Errorf("zero.h read: %v", err)
	}
}

// TestConcurrentReadsShareOneParse: goroutines reading the same file at
// once (the server's indexer and a request) get one parse. Facts are keyed
// by the parse, so two would give a header's unit one copy and its pass
// another, and the unit's macro state would not apply to the pass.
func TestConcurrentReadsShareOneParse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "body.h")
	if err := os.WriteFile(path, []byte("#pragma once\nint x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 50; round++ {
		w := New(dir)
		got := make(chan any, 8)
		for i := 0; i < cap(got); i++ {
			go func() {
				f, err := w.File(path)
				if err != nil {
					got <- err
					return
				}
				got <- f
			}()
		}
		first := <-got
		for i := 1; i < cap(got); i++ {
			if f := <-got; f != first {
				t.Fatalf("round %d: two parses of one file: %v and %v", round, first, f)
			}
		}
	}
}

// TrimParses releases the least recently used parses the caller does not
// claim until the others fit the budget; overlays and claimed files stay.
func TestTrimParses(t *testing.T) {
	dir := t.TempDir()
	w := New(dir)
	var paths []string
	for _, name := range []string{"a.h", "b.h", "c.h", "d.h"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("int "+strings.TrimSuffix(name, ".h")+"_x = 1;\n"), 0o644)
		paths = append(paths, p)
	}
	w.SetOverlay(filepath.Join(dir, "open.cpp"), []byte("int y = 2;\n"), 1)
	for _, p := range append(paths, filepath.Join(dir, "open.cpp")) {
		if _, err := w.File(p); err != nil {
			t.Fatal(err)
		}
	}
	w.File(paths[0]) // a.h used last: b.h is the least recent
	size := int64(len("int a_x = 1;\n"))
	keep := func() func(string) bool { return func(p string) bool { return p == paths[3] } }
	if got := w.TrimParses(4*size, keep); got != nil {
		t.Fatalf("within the budget: released %d", len(got))
	}
	released := w.TrimParses(size, keep)
	var names []string
	for _, f := range released {
		names = append(names, filepath.Base(f.Path))
	}
	if !reflect.DeepEqual(names, []string{"b.h", "c.h"}) {
		t.Errorf("released %v, want the two least recent unclaimed parses [b.h c.h]", names)
	}
	want := []string{paths[0], paths[3], filepath.Join(dir, "open.cpp")}
	if got := w.Parsed(); !reflect.DeepEqual(got, want) {
		t.Errorf("held %v, want %v", got, want)
	}
}

// TestUnparsed: Unparsed lists what File would still parse (never read,
// read but not parsed, an overlay's new text, a parse under way) and
// nothing File would return at once.
func TestUnparsed(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.h", "b.h", "c.h", "open.cpp"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("int x = 1;\n"), 0o644)
		paths = append(paths, p)
	}
	w := New(dir)
	w.File(paths[0])
	w.Source(paths[1])
	w.SetOverlay(paths[3], []byte("int y = 2;\n"), 1)
	w.File(paths[3])
	w.SetOverlay(paths[3], []byte("int y = 3;\n"), 2)
	if got, want := w.Unparsed(paths), paths[1:]; !reflect.DeepEqual(got, want) {
		t.Errorf("unparsed %v, want %v", got, want)
	}
	w.File(paths[3])
	ec, _ := w.entry(paths[2])
	ec.c.mu.Lock()
	ec.c.parsing = make(chan struct{})
	ec.c.mu.Unlock()
	if got, want := w.Unparsed(paths), paths[1:3]; !reflect.DeepEqual(got, want) {
		t.Errorf("unparsed %v, want %v (c.h's parse is under way)", got, want)
	}
}

// TestFilesParsesWhatNobodyStarted: Files waits for a header another
// goroutine is parsing only after parsing the headers nobody had started,
// so workers checking files of one unit share its parses instead of
// queueing behind the first.
func TestFilesParsesWhatNobodyStarted(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.h"), filepath.Join(dir, "b.h")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("#pragma once\nint x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := New(dir)
	ea, err := w.entry(a)
	if err != nil {
		t.Fatal(err)
	}
	// Another goroutine is parsing a.h.
	busy := make(chan struct{})
	ea.c.mu.Lock()
	ea.c.parsing = busy
	ea.c.mu.Unlock()
	done := make(chan []*grammar.File)
	go func() {
		files, _ := w.Files([]string{a, b})
		done <- files
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		w.mu.Lock()
		eb := w.files[b]
		parsed := eb != nil && eb.parsed() != nil
		w.mu.Unlock()
		if parsed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b.h was not parsed while a.h's parse was under way")
		}
	}
	select {
	case <-done:
		t.Fatal("Files returned before a.h's parse finished")
	default:
	}
	fa, err := grammar.ParseFile(context.Background(), nil, a, ea.src, nil)
	if err != nil {
		t.Fatal(err)
	}
	ea.c.mu.Lock()
	ea.c.file = fa
	close(busy)
	ea.c.mu.Unlock()
	files := <-done
	fb, _ := w.File(b)
	if files[0] != fa || files[1] != fb {
		t.Errorf("Files = %v, want the parses of a.h (%p) and b.h (%p)", files, fa, fb)
	}
	if _, errs := w.Files([]string{filepath.Join(dir, "missing.h")}); errs[0] == nil {
		t.Error("a missing file has no error")
	}
}

// TestPreload: a run's files and the headers they reach are read (and
// the stubs parsed) before the run, as far as the unit cap lets the
// closures read; so is every file of the roots, whose scans the include
// units are built from, and the units are built.
func TestPreload(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("// padding\n", 20)
	files := map[string]string{
		"ws/entry.cpp":   "#include \"inc/a.h\"\nextern \"C\" __aicore__ void k(__gm__ int64_t *args) {}\n",
		"ws/inc/a.h":     "#include \"b.h\"\n" + big,
		"ws/inc/b.h":     big,
		"ws/far.cpp":     "#include \"c.h\"\n",
		"ws/ops.py":      "import pypto.language as pl\n\n@pl.jit.extern(source=\"entry.cpp\")\ndef k(a): ...\n",
		"ws/unrelated.h": big,
		// Outside the roots, on the include path: read only when an
		// include of the run is followed to it.
		"sdk/c.h": "#include \"d.h\"\n" + big,
		"sdk/d.h": big,
	}
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	read := func(w *Workspace) []string {
		w.mu.Lock()
		defer w.mu.Unlock()
		var out []string
		for p, e := range w.files {
			rel, _ := filepath.Rel(dir, p)
			e.c.mu.Lock()
			held := e.c.scan != nil || e.c.file != nil
			e.c.mu.Unlock()
			if held {
				out = append(out, rel)
			}
		}
		sort.Strings(out)
		return out
	}
	open := func() *Workspace {
		w := New(filepath.Join(dir, "ws"))
		w.SetIncludeDirs([]string{filepath.Join(dir, "sdk")})
		return w
	}
	roots := []string{"ws/entry.cpp", "ws/far.cpp", "ws/inc/a.h", "ws/inc/b.h", "ws/ops.py", "ws/unrelated.h"}
	w := open()
	w.Preload([]string{filepath.Join(dir, "ws/entry.cpp"), filepath.Join(dir, "ws/ops.py")}, 2)
	if got := read(w); !reflect.DeepEqual(got, roots) {
		t.Errorf("preloaded %v, want %v", got, roots)
	}
	if e := w.files[filepath.Join(dir, "ws/ops.py")]; e == nil || e.parsed() == nil {
		t.Error("the stub file is not parsed")
	}
	if w.units == nil {
		t.Error("the include units are not built")
	}
	if got := w.Context(filepath.Join(dir, "ws/inc/b.h")).Units; !reflect.DeepEqual(got, []string{filepath.Join(dir, "ws/entry.cpp")}) {
		t.Errorf("units of b.h: %v", got)
	}

	has := func(w *Workspace, rel string) bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.files[filepath.Join(dir, rel)] != nil
	}
	w = open()
	w.Preload([]string{filepath.Join(dir, "ws/far.cpp")}, 2)
	if !has(w, "sdk/c.h") || !has(w, "sdk/d.h") {
		t.Errorf("the includes of the run are not followed: preloaded %v", read(w))
	}
	// A unit cap of one file: the run's includes are followed no further.
	w = open()
	w.SetLimits(nil, int64(len(files["ws/far.cpp"])))
	w.Preload([]string{filepath.Join(dir, "ws/far.cpp")}, 2)
	if has(w, "sdk/d.h") {
		t.Errorf("capped: preloaded %v", read(w))
	}
}

// TestAbsAsFilepath: Abs's shortcut for clean absolute paths answers as
// filepath.Abs does.
func TestAbsAsFilepath(t *testing.T) {
	for _, p := range []string{"/", "//", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/b/.", "/a/b/..", "/.", "/..", "/a/.b", "/a/..b", "/a/b..", "/abc/def.h", "rel/x", "", "/a/b/c/"} {
		want, err := filepath.Abs(p)
		if err != nil {
			want = filepath.Clean(p)
		}
		if got := Abs(p); got != want {
			t.Errorf("Abs(%q) = %q, want %q", p, got, want)
		}
	}
}
