package unit

import (
	"context"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestStoreComputesOnceAcrossGoroutines(t *testing.T) {
	f, err := grammar.ParseFile(context.Background(), nil, "/k.cpp", []byte("int x = 1;\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	key := &FileKey[int]{Name: "test.count", Compute: func(context.Context, *grammar.File) int { calls.Add(1); return 7 }}
	s := NewStore()
	u := s.New(context.Background(), nil, f.Path, []*grammar.File{f}, nil, 0, "closure")
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := FileFact(u, f, key); v != 7 {
				t.Errorf("got %d", v)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("computed %d times, want once", calls.Load())
	}
}

func TestStoreDropsCancelledValues(t *testing.T) {
	s := NewStore()
	n := 0
	key := &UnitKey[int]{Name: "test.cancel", Compute: func(ctx context.Context, _ *Unit) int {
		n++
		if ctx.Err() != nil {
			return -1 // partial
		}
		return n
	}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if v := Fact(s.New(ctx, nil, "/e.cpp", nil, nil, 0, ""), key); v != -1 {
		t.Fatalf("cancelled compute returned %d", v)
	}
	if v := Fact(s.New(context.Background(), nil, "/e.cpp", nil, nil, 0, ""), key); v != 2 {
		t.Fatalf("a value computed under a cancelled context was kept: got %d", v)
	}
	if v := Fact(s.New(context.Background(), nil, "/e.cpp", nil, nil, 0, ""), key); v != 2 {
		t.Fatalf("not memoized: got %d", v)
	}
}

// TestCancelledRunComputesFactsOnce: a run whose context is cancelled
// keeps the facts it computes for itself (not in the store): a rule
// abandoned at the cancel that asks a fact per node must not compute it
// per node.
func TestCancelledRunComputesFactsOnce(t *testing.T) {
	s := NewStore()
	n := 0
	key := &UnitKey[int]{Name: "test.cancelled-once", Compute: func(context.Context, *Unit) int { n++; return n }}
	ctx, cancel := context.WithCancel(WithRun(context.Background(), 0))
	cancel()
	for i := 0; i < 3; i++ {
		if v := Fact(s.New(ctx, nil, "/e.cpp", nil, nil, 0, ""), key); v != 1 {
			t.Fatalf("ask %d of a cancelled run: got %d, want the run's first value 1", i, v)
		}
	}
	if v := Fact(s.New(context.Background(), nil, "/e.cpp", nil, nil, 0, ""), key); v != 2 {
		t.Fatalf("the cancelled run's value reached the store: got %d", v)
	}
}

// TestCancelledRunReadsFinishedFacts: a run cancelled after the store
// finished a fact reads that fact, not a copy computed for itself (the
// rules abandoned at a cancel each re-summarised a one-function file's
// effects: up to 40% of the run's work after the cancel).
func TestCancelledRunReadsFinishedFacts(t *testing.T) {
	s := NewStore()
	n := 0
	key := &UnitKey[int]{Name: "test.cancelled-reads", Compute: func(context.Context, *Unit) int { n++; return n }}
	if v := Fact(s.New(context.Background(), nil, "/e.cpp", nil, nil, 0, ""), key); v != 1 {
		t.Fatalf("first ask: got %d, want 1", v)
	}
	ctx, cancel := context.WithCancel(WithRun(context.Background(), 0))
	cancel()
	if v := Fact(s.New(ctx, nil, "/e.cpp", nil, nil, 0, ""), key); v != 1 || n != 1 {
		t.Fatalf("a cancelled run computed the finished fact again: got %d after %d computations, want 1 after 1", v, n)
	}
}

func TestUnitKeysFollowInputs(t *testing.T) {
	parse := func(src string) *grammar.File {
		f, err := grammar.ParseFile(context.Background(), nil, "/h.h", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	s := NewStore()
	a, b := parse("int a;"), parse("int a;")
	if s.New(context.Background(), nil, "/e", []*grammar.File{a}, nil, 0, "").Key != s.New(context.Background(), nil, "/e", []*grammar.File{a}, nil, 0, "").Key {
		t.Fatal("same inputs, different keys")
	}
	if s.New(context.Background(), nil, "/e", []*grammar.File{a}, nil, 0, "").Key == s.New(context.Background(), nil, "/e", []*grammar.File{b}, nil, 0, "").Key {
		t.Fatal("a new parse of a file must give its units new keys")
	}
}

// A released parse takes its facts with it: the workspace parses the text
// again and the store computes afresh for the new parse (check releases a
// header once no file left to check reads it).
func TestReleaseDropsParseAndFacts(t *testing.T) {
	dir := t.TempDir()
	h, e := dir+"/h.h", dir+"/e.cpp"
	os.WriteFile(h, []byte("int a;\n"), 0o644)
	os.WriteFile(e, []byte("#include \"h.h\"\nint b;\n"), 0o644)
	ws := workspace.New(dir)
	if got := Paths(ws, e); !slices.Equal(got, []string{e, h}) {
		t.Fatalf("Paths = %v", got)
	}
	f1, err := ws.File(h)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	key := &FileKey[int]{Name: "test.release", Compute: func(context.Context, *grammar.File) int { return int(calls.Add(1)) }}
	s := NewStore()
	u := s.New(context.Background(), nil, h, []*grammar.File{f1}, nil, 0, "closure")
	FileFact(u, f1, key)
	// A macro shadow of the file (cxx.ScanMacros) has facts of its own.
	shadow := &grammar.File{Path: f1.Path, Lang: f1.Lang, Src: f1.Src, Tree: f1.Tree, MacroOf: f1}
	FileFact(u, shadow, key)
	if ws.Release(h) != f1 || ws.Release(h) != nil {
		t.Fatal("Release returns the current parse once")
	}
	s.Release(f1)
	if s.Len() != 0 {
		t.Fatalf("%d facts of a released parse kept", s.Len())
	}
	f2, err := ws.File(h)
	if err != nil || f2 == f1 || string(f2.Src) != "int a;\n" {
		t.Fatalf("after release: %v, same parse %v", err, f2 == f1)
	}
	if s.New(context.Background(), nil, h, []*grammar.File{f2}, nil, 0, "closure").Key == u.Key {
		t.Fatal("a unit over the new parse reuses the released one's key")
	}
	ws.SetOverlay(e, []byte("int c;\n"), 1)
	if _, err := ws.File(e); err != nil || ws.Release(e) != nil {
		t.Fatal("an open document's parse is never released")
	}
}

// The args[] tables are facts of the unit model: an edit of a header
// recomputes its reads; a stored value is reused while nothing changes.
func TestArgsAccessesFollowEdits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := dir + "/" + name
		if err := os.MkdirAll(dir+"/k", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("ops.py", "import pypto.language as pl\n\n@pl.jit.extern(source=\"k/entry.cpp\")\ndef kern(a: pl.Tensor, n: pl.INDEX):\n    ...\n")
	entry := write("k/entry.cpp", "#include \"body.h\"\nextern \"C\" __aicore__ void kern(__gm__ int64_t *args) { body<true>(args); }\n")
	header := write("k/body.h", "enum { N_SLOT = 1 };\ntemplate <bool R> __aicore__ inline void body(__gm__ int64_t *args) { int64_t n = args[N_SLOT]; }\n")
	ws := workspace.New(dir)
	s := NewStore()
	ctx := context.Background()
	acc := s.ArgsAccesses(ctx, ws, header)
	if len(acc) != 2 || acc[0].Slots[0] != 1 || acc[1].Via != "constant" {
		t.Fatalf("accesses = %+v", acc)
	}
	if again := s.ArgsAccesses(ctx, ws, header); &again[0] != &acc[0] {
		t.Errorf("unchanged inputs: the reads were computed again")
	}
	if b := s.EntryBindings(ctx, ws, entry); b == nil || b.Values["body"]["R"] != 1 {
		t.Errorf("bindings = %+v", b)
	}
	ws.SetOverlay(header, []byte("enum { N_SLOT = 1 };\ntemplate <bool R> __aicore__ inline void body(__gm__ int64_t *args) { int64_t n = args[0] + args[N_SLOT]; }\n"), 2)
	if acc := s.ArgsAccesses(ctx, ws, header); len(acc) != 3 {
		t.Errorf("after the header edit: %+v", acc)
	}
}
