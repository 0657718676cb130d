package analysis

import (
	"context"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// emptyKernel writes an extern with an empty body in a folder of its own.
func emptyKernel(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = dir + "/k.cpp"
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) { (void)args; }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// quickRule reports one finding at once.
var quickRule = &Analyzer{Code: "EXT990", Name: "quick", Severity: SeverityWarning, Lang: grammar.CPP, Run: func(p *Pass) {
	p.Report(Diagnostic{Message: "quick finding"})
}}

func TestRunStopsAtBudgetAndOnCancel(t *testing.T) {
	dir, path := emptyKernel(t)
	quick := quickRule
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

// TestDropFactsAfterLastReader: with DropFacts a closure fact is dropped
// after the last rule that read it in the runs before, not before; a rule
// not yet seen reading it is heard asking and computes it again (and is
// then learned); a run without DropFacts keeps it for the next run.
func TestDropFactsAfterLastReader(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/k.cpp"
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) { (void)args; }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var computed atomic.Int32
	key := &unit.UnitKey[int]{Name: "test.scratch", Compute: func(context.Context, *unit.Unit) int { return int(computed.Add(1)) }}
	reader := func(code string) *Analyzer {
		return &Analyzer{Code: code, Name: code, Lang: grammar.CPP, Run: func(p *Pass) { unit.Fact(p.Closure(), key) }}
	}
	// Runs on one workspace and store share the parse, so the closure's
	// facts.
	ws, s := workspace.New(dir), unit.NewStore()
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
	check := func(what string, heard []string, computes int32, want ...string) {
		t.Helper()
		if computed.Load() != computes || !slices.Equal(heard, want) {
			t.Fatalf("%s: computed %d times in all, heard %v; want %d, %v", what, computed.Load(), heard, computes, want)
		}
	}
	check("a first run learns, drops nothing", run(true, reader("EXT990"), reader("EXT991")), 1)
	check("a second run drops after the last reader", run(true, reader("EXT990"), reader("EXT991")), 1)
	check("dropped", run(false, reader("EXT990")), 2)
	check("without DropFacts the fact is kept", run(false, reader("EXT990")), 2)
	check("a reader not seen before", run(true, reader("EXT990"), reader("EXT992")), 3, "EXT992 test.scratch")
	check("and then learned", run(true, reader("EXT990"), reader("EXT992")), 3)
}
