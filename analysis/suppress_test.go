package analysis_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestNoqaCodes(t *testing.T) {
	src := "a = 1  # noqa: EXT103  the rest is prose\nb = 2  # noqa:EXT1*,E501\nc = 3  # noqa\nd = 4  # noqa: return-binding, EXT104 see docs\n"
	f, err := grammar.ParseFile(context.Background(), nil, "x.py", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	sups := analysis.ParseSuppressions(f)
	if len(sups) != 4 {
		t.Fatalf("%d suppressions", len(sups))
	}
	for i, want := range [][]string{{"EXT103"}, {"EXT1*", "E501"}, nil, {"return-binding", "EXT104"}} {
		if !reflect.DeepEqual(sups[i].Codes, want) {
			t.Errorf("line %d: codes %q, want %q", i+1, sups[i].Codes, want)
		}
	}
	if got := src[sups[0].Start:sups[0].EndOff]; got != "# noqa: EXT103" {
		t.Errorf("span %q", got)
	}
}

// Suppressed marks which entries of a code list silenced a finding.
func TestSuppressedMarksCodes(t *testing.T) {
	s := &analysis.Suppression{Line: 3, End: 3, Codes: []string{"EXT005", "syncall-aiv-only", "bugprone-x"}}
	d := analysis.Diagnostic{Code: "EXT004", Name: "syncall-aiv-only"}
	if analysis.Suppressed([]*analysis.Suppression{s}, d, 3) != s {
		t.Fatal("not suppressed")
	}
	if !s.Used || s.CodeUsed(0) || !s.CodeUsed(1) || s.CodeUsed(2) || s.CodeUsed(7) {
		t.Errorf("used %v %v", s.Used, s.UsedCodes)
	}
}
