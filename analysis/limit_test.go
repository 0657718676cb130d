package analysis_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// markRule reports a warning at every `mark();` of the file, last first
// (so the cap keeps what is reported first, and the note goes to the
// first position it did not list).
func markRule() *analysis.Analyzer {
	return &analysis.Analyzer{Code: "EXT998", Name: "mark", Severity: analysis.SeverityWarning, Lang: grammar.CPP, Run: func(p *analysis.Pass) {
		var at []int
		for i := 0; ; {
			j := bytes.Index(p.File.Src[i:], []byte("mark();"))
			if j < 0 {
				break
			}
			at = append(at, i+j)
			i += j + 1
		}
		for k := len(at) - 1; k >= 0; k-- {
			start := uint32(at[k])
			p.Report(analysis.Diagnostic{Start: start, End: start + 6, Message: fmt.Sprintf("mark %d", k)})
		}
	}}
}

// capSource is an extern with n marks, one a line; the lines listed in
// suppressed carry a NOLINT for the rule.
func capSource(n int, suppressed map[int]bool) string {
	var b strings.Builder
	b.WriteString("extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {\n")
	for i := range n {
		b.WriteString("  mark();")
		if suppressed[i] {
			b.WriteString(" // NOLINT(EXT998)")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func runCapped(t *testing.T, src string, opts analysis.Options) ([]analysis.Diagnostic, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cpp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := analysis.Run(workspace.New(dir), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ds, path
}

// Past max-findings-per-rule a rule's findings are counted, not listed,
// and one note says how many, at the first one not listed; CapFindings
// over the uncapped list gives the same.
func TestMaxFindingsPerRule(t *testing.T) {
	const n, max = 1200, 500
	src := capSource(n, nil)
	{
		ds, path := runCapped(t, src, analysis.Options{Analyzers: []*analysis.Analyzer{markRule()}, MaxFindingsPerRule: max})
		if len(ds) != max+1 {
			t.Fatalf("%d findings, want %d listed and a note", len(ds), max)
		}
		var note *analysis.Diagnostic
		for i := range ds {
			if ds[i].Unlisted != nil {
				note = &ds[i]
			}
		}
		if note == nil {
			t.Fatalf("no note in %v", ds)
		}
		want := "EXT998: 700 more findings of mark in this file are not listed (max-findings-per-rule = 500)"
		if note.Message != want || note.Code != analysis.InternalCode || note.Name != analysis.UnlistedName || note.Severity != analysis.SeverityInfo || note.File != path {
			t.Errorf("note %+v", *note)
		}
		// Reported last first: the 500 listed are the last marks, the
		// note is at the first mark.
		if first := strings.Index(src, "mark();"); note.Start != uint32(first) {
			t.Errorf("note at %d, want %d", note.Start, first)
		}
		if u := note.Unlisted; u.Total() != n-max || u.BySeverity[analysis.SeverityWarning] != n-max || u.Code != "EXT998" || u.Max != max {
			t.Errorf("unlisted %+v", *u)
		}
		counts, unlisted := analysis.SeverityCounts(ds)
		if counts[analysis.SeverityWarning] != n || unlisted != n-max || counts[analysis.SeverityInfo] != 0 {
			t.Errorf("counts %v, %d unlisted", counts, unlisted)
		}
	}
	all, _ := runCapped(t, src, analysis.Options{Analyzers: []*analysis.Analyzer{markRule()}})
	if len(all) != n {
		t.Fatalf("uncapped: %d findings", len(all))
	}
	capped := analysis.CapFindings(all, func(string) int { return max })
	_, unlisted := analysis.SeverityCounts(capped)
	if len(capped) != max+1 || unlisted != n-max {
		t.Errorf("CapFindings: %d findings, %d unlisted", len(capped), unlisted)
	}
	if got := analysis.CapFindings(all, func(string) int { return 0 }); len(got) != n {
		t.Errorf("CapFindings with no cap dropped findings")
	}
}

// Suppressed findings do not use up the cap: with every other line
// suppressed, max unsuppressed findings are still listed; kept suppressed
// findings are listed too, marked.
func TestMaxFindingsSuppressed(t *testing.T) {
	const n, max = 40, 10
	sup := map[int]bool{}
	for i := 0; i < n; i += 2 {
		sup[i] = true
	}
	for _, keep := range []bool{false, true} {
		ds, _ := runCapped(t, capSource(n, sup), analysis.Options{Analyzers: []*analysis.Analyzer{markRule()}, MaxFindingsPerRule: max, KeepSuppressed: keep})
		active, suppressed := 0, 0
		var note *analysis.Diagnostic
		for i, d := range ds {
			switch {
			case d.Unlisted != nil:
				note = &ds[i]
			case d.Suppressed != "":
				suppressed++
			default:
				active++
			}
		}
		if active != max || note == nil || note.Unlisted.Total() != n/2-max {
			t.Errorf("keep=%v: %d active, note %+v", keep, active, note)
		}
		if want := map[bool]int{false: 0, true: n / 2}[keep]; suppressed != want {
			t.Errorf("keep=%v: %d suppressed findings, want %d", keep, suppressed, want)
		}
	}
}

// The note's counts take the configured severity of the rule, and the
// demotion of a generated file's warnings to info.
func TestMaxFindingsSeverity(t *testing.T) {
	const n, max = 30, 10
	ds, _ := runCapped(t, capSource(n, nil), analysis.Options{Analyzers: []*analysis.Analyzer{markRule()}, MaxFindingsPerRule: max,
		Severity: map[string]analysis.Severity{"EXT998": analysis.SeverityError}})
	counts, _ := analysis.SeverityCounts(ds)
	if counts[analysis.SeverityError] != n || counts[analysis.SeverityWarning] != 0 {
		t.Errorf("severity override: counts %v", counts)
	}
	ds, _ = runCapped(t, "// @generated by a tool\n"+capSource(n, nil), analysis.Options{Analyzers: []*analysis.Analyzer{markRule()}, MaxFindingsPerRule: max})
	counts, unlisted := analysis.SeverityCounts(ds)
	if counts[analysis.SeverityInfo] != n || counts[analysis.SeverityWarning] != 0 || unlisted != n-max {
		t.Errorf("generated file: counts %v, %d unlisted", counts, unlisted)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 15884: "15,884", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := analysis.Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// Findings the driver drops because no unit holding the rule's premise
// compiles their line do not use up the cap: a runtime rule's marks in
// header code only a standalone kernel compiles (the runtime entry
// defines RT before including it) are dropped, and the marks both
// compile are listed, with no note of unlisted findings.
func TestMaxFindingsPremise(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"h.h":    "inline __aicore__ void both() {\n  mark();\n  mark();\n}\n#ifndef RT\ninline __aicore__ void standaloneOnly() {\n  mark();\n  mark();\n  mark();\n}\n#endif\n",
		"rt.cpp": "#define RT\n#include \"h.h\"\nextern \"C\" __global__ __aicore__ void rt(__gm__ int64_t *args) { both(); }\n",
		"sa.cpp": "#include \"h.h\"\nextern \"C\" __global__ __aicore__ void sa(__gm__ float *x) { both(); standaloneOnly(); }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rule := markRule()
	rule.Premise = analysis.PremiseRuntime
	ds, err := analysis.Run(workspace.New(dir), filepath.Join(dir, "h.h"), analysis.Options{Analyzers: []*analysis.Analyzer{rule}, MaxFindingsPerRule: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Message)
	}
	if want := []string{"mark 0", "mark 1"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q (the marks both units compile, no note)", got, want)
	}
}
