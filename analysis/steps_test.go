package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
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

// TestSharedFactSteps (issue 26 item 5): a fact the rules share counts its
// work on its own steps, not on the asking rule's, so the findings are the
// same whichever rule, and whichever file, asks it first. Two kernels
// include one header; a fact of the header's parse (shared by both files'
// runs) costs 3,000 steps, a lazy fact of each file's closure 600 per
// rule asking. At 100 steps a rule (1,000 a shared fact) the rules reading
// either are cut in both files, whatever the order of the rules and of the
// files; the rule reading neither keeps its finding. At 1,000 nothing is.
func TestSharedFactSteps(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"common.h": "#pragma once\nconstexpr int kN = 4;\n",
		"a.cpp":    "#include \"common.h\"\nextern \"C\" __global__ __aicore__ void a(__gm__ int64_t *args) { (void)args; }\n",
		"b.cpp":    "#include \"common.h\"\nextern \"C\" __global__ __aicore__ void b(__gm__ int64_t *args) { (void)args; }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	header := &unit.FileKey[int]{Name: "test.header-fact", Compute: func(ctx context.Context, _ *grammar.File) int {
		m := cxx.MeterOf(ctx)
		n := 0
		for ; n < 3000 && !m.Spend(1); n++ {
		}
		return n
	}, Steps: true}
	// lazy answers each question once, on the steps of the fact.
	type lazy struct {
		m    *cxx.Meter
		done map[string]bool
	}
	closure := &unit.UnitKey[*lazy]{Name: "test.closure-fact", Compute: func(ctx context.Context, _ *unit.Unit) *lazy {
		return &lazy{m: cxx.MeterOf(ctx), done: map[string]bool{}}
	}, Steps: true}
	reader := func(code, question string) *Analyzer {
		return &Analyzer{Code: code, Name: "reader", Severity: SeverityWarning, Lang: grammar.CPP, Run: func(p *Pass) {
			if question == "" {
				hf := p.Includes[0]
				p.Report(Diagnostic{Message: fmt.Sprint("header fact ", unit.FileFact(p.Closure(), hf, header))})
				return
			}
			l := unit.Fact(p.Closure(), closure)
			if !l.done[question] {
				l.done[question] = true
				l.m.Spend(600)
			}
			p.Report(Diagnostic{Message: "asked " + question})
		}}
	}
	h1, h2 := reader("EXT993", ""), reader("EXT994", "")
	l1, l2 := reader("EXT995", "x"), reader("EXT996", "y")
	run := func(steps int64, files []string, rules ...*Analyzer) string {
		t.Helper()
		ws, store := workspace.New(dir), unit.NewStore()
		var out []string
		for _, f := range files {
			ds, err := Run(ws, filepath.Join(dir, f), Options{Analyzers: rules, Steps: steps, Store: store})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				// The note lists the rules cut in the order they ran.
				parts := strings.Split(strings.TrimPrefix(d.Message, "not fully analysed: "), "; ")
				sort.Strings(parts)
				out = append(out, filepath.Base(d.File)+" "+d.Code+" "+strings.Join(parts, "; "))
			}
		}
		sort.Strings(out)
		return strings.Join(out, "\n")
	}
	for _, steps := range []int64{100, 1000} {
		want := run(steps, []string{"a.cpp", "b.cpp"}, quickRule, h1, h2, l1, l2)
		for _, files := range [][]string{{"a.cpp", "b.cpp"}, {"b.cpp", "a.cpp"}} {
			for _, rules := range [][]*Analyzer{{h2, l2, quickRule, h1, l1}, {l1, h1, quickRule, l2, h2}} {
				if got := run(steps, files, rules...); got != want {
					t.Errorf("%d steps, files %v, rules %s first: got\n%s\nwant\n%s", steps, files, rules[0].Code, got, want)
				}
			}
		}
		if steps == 100 {
			for _, w := range []string{"EXT993 reader did not finish (the shared test.header-fact it reads passed its 1,000 analysis steps)", "EXT994 reader did not finish (the shared test.header-fact", "EXT995 reader did not finish (the shared test.closure-fact", "EXT996 reader did not finish (the shared test.closure-fact", "EXT990 quick finding"} {
				if strings.Count(want, w) != 2 {
					t.Errorf("100 steps: want %q in both files, got\n%s", w, want)
				}
			}
		}
		if steps == 1000 && (strings.Contains(want, "did not finish") || strings.Count(want, "header fact 3000") != 4) {
			t.Errorf("1000 steps: want every finding, got\n%s", want)
		}
	}
}
