package analysis_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// markRule reports a warning at every `mark();` of the file, last first
// (so the cap keeps what is reported first, and the note goes to the
// first position it did not list); with skip it asks Pass.Unlisted before
// building each finding, as the heavy rules do.
func markRule(skip bool, built *int) *analysis.Analyzer {
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
			if skip && p.Unlisted(start, 0) {
				continue
			}
			*built++
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
// and one note says how many, at the first one not listed; whether the rule
// asks Pass.Unlisted first or reports everything, the result is the same,
// and CapFindings over the uncapped list gives it too.
func TestMaxFindingsPerRule(t *testing.T) {
	const n, max = 1200, 500
	src := capSource(n, nil)
	var results [][]analysis.Diagnostic
	for _, skip := range []bool{false, true} {
		built := 0
		ds, path := runCapped(t, src, analysis.Options{Analyzers: []*analysis.Analyzer{markRule(skip, &built)}, MaxFindingsPerRule: max})
		if len(ds) != max+1 {
			t.Fatalf("skip=%v: %d findings, want %d listed and a note", skip, len(ds), max)
		}
		if skip && built != max {
			t.Errorf("the rule built %d findings, want %d", built, max)
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
		results = append(results, ds)
	}
	if render(results[0]) != render(results[1]) {
		t.Error("asking Pass.Unlisted first changed the result")
	}
	built := 0
	all, _ := runCapped(t, src, analysis.Options{Analyzers: []*analysis.Analyzer{markRule(true, &built)}})
	if len(all) != n || built != n {
		t.Fatalf("uncapped: %d findings (%d built)", len(all), built)
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
		built := 0
		ds, _ := runCapped(t, capSource(n, sup), analysis.Options{Analyzers: []*analysis.Analyzer{markRule(true, &built)}, MaxFindingsPerRule: max, KeepSuppressed: keep})
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
	built := 0
	ds, _ := runCapped(t, capSource(n, nil), analysis.Options{Analyzers: []*analysis.Analyzer{markRule(true, &built)}, MaxFindingsPerRule: max,
		Severity: map[string]analysis.Severity{"EXT998": analysis.SeverityError}})
	counts, _ := analysis.SeverityCounts(ds)
	if counts[analysis.SeverityError] != n || counts[analysis.SeverityWarning] != 0 {
		t.Errorf("severity override: counts %v", counts)
	}
	ds, _ = runCapped(t, "// @generated by a tool\n"+capSource(n, nil), analysis.Options{Analyzers: []*analysis.Analyzer{markRule(false, &built)}, MaxFindingsPerRule: max})
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

func render(ds []analysis.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s:%d-%d %s %s %v %q", filepath.Base(d.File), d.Start, d.End, d.Code, d.Name, d.Severity, d.Message)
		if d.Unlisted != nil {
			fmt.Fprintf(&b, " %+v", *d.Unlisted)
		}
		b.WriteString("\n")
	}
	return b.String()
}
