package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestStepsStopARule: a rule past its steps stops, its findings in the
// file are dropped and a note says the file was not fully analysed, while
// the other rules keep theirs; the same steps give the same answer every
// time (no clock involved); a rule that gives up part of its work says so
// the same way.
func TestStepsStopARule(t *testing.T) {
	dir, path := emptyKernel(t)
	quick := quickRule
	// long reports a finding early, then works 1000 steps.
	long := &Analyzer{Code: "EXT991", Name: "long", Severity: SeverityWarning, Lang: grammar.CPP, Run: func(p *Pass) {
		p.Report(Diagnostic{Message: "finding before the work"})
		for i := 0; i < 1000; i++ {
			if p.Stopped() {
				return
			}
		}
	}}
	gaveUp := &Analyzer{Code: "EXT992", Name: "gave-up", Severity: SeverityWarning, Lang: grammar.CPP, Run: func(p *Pass) {
		p.Report(Diagnostic{Message: "finding of a search cut short"})
		p.Incomplete("its search passed 10 nodes")
	}}
	run := func(steps int64, rules ...*Analyzer) []string {
		t.Helper()
		ds, err := Run(workspace.New(dir), path, Options{Analyzers: rules, Steps: steps})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, d.Code+" "+d.Name+": "+d.Message)
		}
		return got
	}
	for range 3 {
		got := run(500, quick, long)
		if len(got) != 2 || !strings.HasPrefix(got[0], "EXT000 "+IncompleteName+": not fully analysed: EXT991 long did not finish (it spent its 500 analysis steps)") || got[1] != "EXT990 quick: quick finding" {
			t.Fatalf("500 steps: got %q, want the note on EXT991 and EXT990's finding", got)
		}
	}
	if got := run(5000, quick, long); len(got) != 2 || !slices.Contains(got, "EXT991 long: finding before the work") {
		t.Errorf("5000 steps: got %q, want both findings and no note", got)
	}
	if got := run(0, gaveUp); len(got) != 1 || !strings.Contains(got[0], "EXT992 gave-up did not finish (its search passed 10 nodes)") {
		t.Errorf("a rule that gave up: got %q, want the note alone", got)
	}
}
