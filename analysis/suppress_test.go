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

// SuppressEdit adds a code to the line's list or appends a suppression, and
// reads the list as ParseSuppressions does (globs included).
func TestSuppressEdit(t *testing.T) {
	cases := []struct {
		path, line, code, want string
		ok                     bool
	}{
		{"k.cpp", "  AscendC::SyncAll();", "EXT004", "  AscendC::SyncAll(); // NOLINT(EXT004)", true},
		{"k.cpp", "  AscendC::SyncAll();  ", "EXT004", "  AscendC::SyncAll(); // NOLINT(EXT004)  ", true},
		{"k.cpp", "  x(); // NOLINT(EXT001)", "EXT004", "  x(); // NOLINT(EXT001, EXT004)", true},
		{"k.cpp", "  x(); // NOLINT(EXT00*)", "EXT104", "  x(); // NOLINT(EXT00*, EXT104)", true},
		{"k.cpp", "  x(); // NOLINT()", "EXT004", "  x(); // NOLINT(EXT004)", true},
		{"k.cpp", "  x(); // note", "EXT004", "  x(); // note // NOLINT(EXT004)", true},
		{"k.cpp", "#define F() AscendC::SyncAll(); \\", "EXT004", "", false},
		{"s.py", "    cache_row_offset: pl.Scalar[pl.INDEX],", "EXT004", "    cache_row_offset: pl.Scalar[pl.INDEX],  # noqa: EXT004", true},
		{"s.py", "    x: pl.Tensor,  # noqa: EXT101", "EXT004", "    x: pl.Tensor,  # noqa: EXT101, EXT004", true},
		// The glob is one entry: the new code goes after it, not into it.
		{"s.py", "    x: pl.Tensor,  # noqa: EXT9*", "EXT104", "    x: pl.Tensor,  # noqa: EXT9*, EXT104", true},
		{"s.py", "    x: pl.Tensor,  # noqa: EXT9*  see the guide", "EXT104", "    x: pl.Tensor,  # noqa: EXT9*, EXT104  see the guide", true},
		{"s.py", "    x: pl.Tensor,  # noqa:EXT1*,E501", "EXT9", "    x: pl.Tensor,  # noqa:EXT1*,E501, EXT9", true},
	}
	for _, tc := range cases {
		src := tc.line + "\n"
		f, err := grammar.ParseFile(context.Background(), nil, tc.path, []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := analysis.SuppressEdit(f, 0, tc.code)
		if ok != tc.ok {
			t.Errorf("%q: ok = %v", tc.line, ok)
			continue
		}
		if !ok {
			continue
		}
		out, _ := analysis.ApplyEdits([]byte(src), f.Path, []analysis.TextEdit{e})
		if string(out) != tc.want+"\n" {
			t.Errorf("%q: got %q, want %q", tc.line, out, tc.want)
			continue
		}
		// The written suppression reads back with both codes.
		g, _ := grammar.ParseFile(context.Background(), nil, tc.path, out, nil)
		sups := analysis.ParseSuppressions(g)
		if len(sups) != 1 || sups[0].Codes[len(sups[0].Codes)-1] != tc.code {
			t.Errorf("%q: reads back as %+v", out, sups)
		}
	}
}
