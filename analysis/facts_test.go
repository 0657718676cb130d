package analysis

import (
	"context"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	u := s.newUnit(f.Path, []*grammar.File{f}, nil, 0, "closure")
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v := FileFactIn(context.Background(), u, f, key); v != 7 {
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
	u := s.newUnit("/e.cpp", nil, nil, 0, "")
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
	if v := UnitFactOf(ctx, u, key); v != -1 {
		t.Fatalf("cancelled compute returned %d", v)
	}
	if v := UnitFactOf(context.Background(), u, key); v != 2 {
		t.Fatalf("a value computed under a cancelled context was kept: got %d", v)
	}
	if v := UnitFactOf(context.Background(), u, key); v != 2 {
		t.Fatalf("not memoized: got %d", v)
	}
}

// TestCancelledRunComputesFactsOnce: a run whose context is cancelled
// keeps the facts it computes for itself (not in the store): a rule
// abandoned at the cancel that asks a fact per node must not compute it
// per node.
func TestCancelledRunComputesFactsOnce(t *testing.T) {
	s := NewStore()
	u := s.newUnit("/e.cpp", nil, nil, 0, "")
	n := 0
	key := &UnitKey[int]{Name: "test.cancelled-once", Compute: func(context.Context, *Unit) int { n++; return n }}
	ctx, cancel := context.WithCancel(withRunFacts(context.Background()))
	cancel()
	for i := 0; i < 3; i++ {
		if v := UnitFactOf(ctx, u, key); v != 1 {
			t.Fatalf("ask %d of a cancelled run: got %d, want the run's first value 1", i, v)
		}
	}
	if v := UnitFactOf(context.Background(), u, key); v != 2 {
		t.Fatalf("the cancelled run's value reached the store: got %d", v)
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
	if s.newUnit("/e", []*grammar.File{a}, nil, 0, "").Key != s.newUnit("/e", []*grammar.File{a}, nil, 0, "").Key {
		t.Fatal("same inputs, different keys")
	}
	if s.newUnit("/e", []*grammar.File{a}, nil, 0, "").Key == s.newUnit("/e", []*grammar.File{b}, nil, 0, "").Key {
		t.Fatal("a new parse of a file must give its units new keys")
	}
}

func TestRunStopsAtBudgetAndOnCancel(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/k.cpp"
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) { (void)args; }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	quick := &Analyzer{Code: "EXT990", Name: "quick", Severity: SeverityWarning, Lang: grammar.CPP, Run: func(p *Pass) {
		p.Report(Diagnostic{Message: "quick finding"})
	}}
	slow := &Analyzer{Code: "EXT991", Name: "slow", Severity: SeverityWarning, Lang: grammar.CPP, Run: func(p *Pass) {
		for p.Context().Err() == nil {
			time.Sleep(time.Millisecond)
		}
		p.Report(Diagnostic{Message: "finding of a rule cut short"})
	}}
	// The budget covers parsing and the quick rule too: long enough that a
	// loaded machine finishes them in time, as the slow rule never does.
	opts := Options{Analyzers: []*Analyzer{quick, slow}, Budget: time.Second}
	ds, err := Run(workspace.New(dir), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Code+" "+d.Name)
	}
	if want := []string{"EXT000 analysis-budget", "EXT990 quick"}; !slices.Equal(got, want) {
		t.Fatalf("past the budget: got %v, want %v", got, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunContext(ctx, workspace.New(dir), path, opts); err != context.Canceled {
		t.Fatalf("cancelled run: err %v, want context.Canceled", err)
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
	if got := UnitPaths(ws, e); !slices.Equal(got, []string{e, h}) {
		t.Fatalf("UnitPaths = %v", got)
	}
	f1, err := ws.File(h)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	key := &FileKey[int]{Name: "test.release", Compute: func(context.Context, *grammar.File) int { return int(calls.Add(1)) }}
	s := NewStore()
	u := s.newUnit(h, []*grammar.File{f1}, nil, 0, "closure")
	FileFactIn(context.Background(), u, f1, key)
	// A macro shadow of the file (cxx.ScanMacros) has facts of its own.
	shadow := &grammar.File{Path: f1.Path, Lang: f1.Lang, Src: f1.Src, Tree: f1.Tree, MacroOf: f1}
	FileFactIn(context.Background(), u, shadow, key)
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
	if s.newUnit(h, []*grammar.File{f2}, nil, 0, "closure").Key == u.Key {
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
	acc := ArgsAccesses(ctx, ws, s, header)
	if len(acc) != 2 || acc[0].Slots[0] != 1 || acc[1].Via != "constant" {
		t.Fatalf("accesses = %+v", acc)
	}
	if again := ArgsAccesses(ctx, ws, s, header); &again[0] != &acc[0] {
		t.Errorf("unchanged inputs: the reads were computed again")
	}
	if b := EntryBindings(ctx, ws, s, entry); b == nil || b.Values["body"]["R"] != 1 {
		t.Errorf("bindings = %+v", b)
	}
	ws.SetOverlay(header, []byte("enum { N_SLOT = 1 };\ntemplate <bool R> __aicore__ inline void body(__gm__ int64_t *args) { int64_t n = args[0] + args[N_SLOT]; }\n"), 2)
	if acc := ArgsAccesses(ctx, ws, s, header); len(acc) != 3 {
		t.Errorf("after the header edit: %+v", acc)
	}
}

// TestDropFactsAfterLastReader: with DropFacts a closure fact is dropped
// after the last rule listing it, not before; a rule asking for it later
// without listing it is heard and computes it again; a run without
// DropFacts keeps it for the next run.
func TestDropFactsAfterLastReader(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/k.cpp"
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) { (void)args; }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var computed atomic.Int32
	key := &UnitKey[int]{Name: "test.scratch", Compute: func(context.Context, *Unit) int { return int(computed.Add(1)) }}
	reader := func(code string, facts ...FactKey) *Analyzer {
		return &Analyzer{Code: code, Name: code, Lang: grammar.CPP, Facts: facts, Run: func(p *Pass) { UnitFact(p, p.Closure(), key) }}
	}
	// Runs on one workspace and store share the parse, so the closure's
	// facts.
	ws, s := workspace.New(dir), NewStore()
	run := func(drop bool, as ...*Analyzer) []string {
		var heard []string
		opts := Options{Analyzers: as, Store: s, DropFacts: drop, OnDroppedFact: func(rule, fact string) {
			heard = append(heard, rule+" "+fact)
		}}
		if _, err := Run(ws, path, opts); err != nil {
			t.Fatal(err)
		}
		return heard
	}
	heard := run(true, reader("EXT990", key), reader("EXT991", key))
	if computed.Load() != 1 || len(heard) != 0 {
		t.Fatalf("two listing readers: computed %d times, heard %v; want once, nothing", computed.Load(), heard)
	}
	run(false, reader("EXT990"))
	if computed.Load() != 2 {
		t.Fatalf("the fact was kept after its last reader: computed %d times, want 2", computed.Load())
	}
	run(false, reader("EXT990"))
	if computed.Load() != 2 {
		t.Fatalf("without DropFacts the fact was not kept: computed %d times, want 2", computed.Load())
	}
	heard = run(true, reader("EXT990", key), reader("EXT991"))
	if want := []string{"EXT991 test.scratch"}; computed.Load() != 3 || !slices.Equal(heard, want) {
		t.Fatalf("a reader not listing it: computed %d times in all, heard %v; want 3, %v", computed.Load(), heard, want)
	}
}
