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

// TestDropFactsWhenRunEnds: with DropFacts the facts of a file's closure
// are gone once its run ends (the next run computes them again); without,
// the store keeps them for the next run.
func TestDropFactsWhenRunEnds(t *testing.T) {
	dir, path := emptyKernel(t)
	var computed atomic.Int32
	key := &unit.UnitKey[int]{Name: "test.scratch", Compute: func(context.Context, *unit.Unit) int { return int(computed.Add(1)) }}
	reader := &Analyzer{Code: "EXT990", Name: "reader", Lang: grammar.CPP, Run: func(p *Pass) { unit.Fact(p.Closure(), key) }}
	ws, s := workspace.New(dir), unit.NewStore()
	for i, c := range []struct {
		drop bool
		want int32
	}{{false, 1}, {false, 1}, {true, 1}, {true, 2}} {
		if _, err := Run(ws, path, Options{Analyzers: []*Analyzer{reader}, Store: s, DropFacts: c.drop}); err != nil {
			t.Fatal(err)
		}
		if got := computed.Load(); got != c.want {
			t.Fatalf("run %d (drop %v): computed %d times, want %d", i, c.drop, got, c.want)
		}
	}
}
