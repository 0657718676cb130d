package engine

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
)

func TestOverlaps(t *testing.T) {
	taken := map[string][]analysis.TextEdit{"f": {{File: "f", Start: 10, End: 20}, {File: "f", Start: 30, End: 30}}}
	for _, tc := range []struct {
		e    analysis.TextEdit
		want bool
	}{
		{analysis.TextEdit{File: "f", Start: 0, End: 10}, false},
		{analysis.TextEdit{File: "f", Start: 20, End: 25}, false},
		{analysis.TextEdit{File: "f", Start: 19, End: 21}, true},
		{analysis.TextEdit{File: "f", Start: 15, End: 15}, true},
		{analysis.TextEdit{File: "f", Start: 30, End: 30}, true},
		{analysis.TextEdit{File: "f", Start: 25, End: 35}, true},
		{analysis.TextEdit{File: "g", Start: 10, End: 20}, false},
	} {
		if got := overlaps(taken, []analysis.TextEdit{tc.e}); got != tc.want {
			t.Errorf("%+v: overlaps = %v", tc.e, got)
		}
	}
}

func TestDiffEdit(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"abc", "abc"}, {"abc", "abXc"}, {"", "x"}, {"x", ""}, {"aaa", "aa"}, {"é1", "è1"}, {"ab漢字cd", "ab漢cd"},
	} {
		edits := DiffEdit("f", []byte(tc.a), []byte(tc.b))
		if tc.a == tc.b {
			if edits != nil {
				t.Errorf("%q: edits for equal texts", tc.a)
			}
			continue
		}
		out, _ := analysis.ApplyEdits([]byte(tc.a), "f", edits)
		if string(out) != tc.b {
			t.Errorf("%q -> %q: got %q", tc.a, tc.b, out)
		}
		for _, off := range []uint32{edits[0].Start, edits[0].End} {
			if int(off) < len(tc.a) && tc.a[off]&0xC0 == 0x80 {
				t.Errorf("%q -> %q: edit cuts a character at %d", tc.a, tc.b, off)
			}
		}
	}
}
