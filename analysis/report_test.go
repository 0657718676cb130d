package analysis_test

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// A rule's findings that repeat a text (a message, a fix's title or
// inserted text, a related note), each built anew, hold one copy of it;
// texts that differ are kept as reported.
func TestReportSharesRepeatedTexts(t *testing.T) {
	rule := &analysis.Analyzer{Code: "EXT998", Name: "mark", Severity: analysis.SeverityWarning, Lang: grammar.CPP, Run: func(p *analysis.Pass) {
		for i := 0; ; i++ {
			j := bytes.Index(p.File.Src, []byte("mark();"))
			k := bytes.Index(p.File.Src[j+1:], []byte("mark();"))
			if i == 2 || k < 0 {
				return
			}
			start := uint32(j)
			if i == 1 {
				start = uint32(j + 1 + k)
			}
			// Built at run time, so each finding has its own copy.
			same := func(s string) string { return fmt.Sprintf("%s%d", s, 1) }
			p.Report(analysis.Diagnostic{
				Start: start, End: start + 6,
				Message: same("the same message "),
				Related: []analysis.Related{{Start: start, End: start + 4, Message: same("a note ")}},
				Fixes: []analysis.Fix{
					{Title: fmt.Sprintf("fix %d", i), Edits: []analysis.TextEdit{{Start: start, End: start, NewText: same("  text ")}}},
					{Title: same("stage "), Applicability: analysis.DisplayOnly, Edits: []analysis.TextEdit{{Start: start, End: start, NewText: fmt.Sprintf("sketch %d\n", i)}}},
				},
			})
		}
	}}
	ds, _ := runCapped(t, capSource(2, nil), analysis.Options{Analyzers: []*analysis.Analyzer{rule}})
	if len(ds) != 2 {
		t.Fatalf("%d findings, want 2", len(ds))
	}
	a, b := ds[0], ds[1]
	shared := func(what, x, y string) {
		t.Helper()
		if x != y || unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: %q and %q are not one copy", what, x, y)
		}
	}
	shared("message", a.Message, b.Message)
	shared("related", a.Related[0].Message, b.Related[0].Message)
	shared("edit text", a.Fixes[0].Edits[0].NewText, b.Fixes[0].Edits[0].NewText)
	shared("title", a.Fixes[1].Title, b.Fixes[1].Title)
	if a.Fixes[0].Title != "fix 0" || b.Fixes[0].Title != "fix 1" || a.Fixes[1].Edits[0].NewText != "sketch 0\n" || b.Fixes[1].Edits[0].NewText != "sketch 1\n" {
		t.Errorf("texts that differ changed: %+v %+v", a.Fixes, b.Fixes)
	}
}
