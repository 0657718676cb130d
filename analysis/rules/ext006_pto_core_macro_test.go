package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func TestPTOCoreMacro(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext006", PTOCoreMacro)
	for _, r := range results {
		for _, d := range r.Diags {
			// Where another chip builds the file the rename is unsafe;
			// elsewhere it is safe.
			if len(d.Fixes) == 1 {
				want := analysis.Safe
				if filepath.Base(d.File) == "split_kernel.cpp" {
					want = analysis.Unsafe
				}
				if d.Fixes[0].Applicability != want {
					t.Errorf("%s: fix %s, want %s", filepath.Base(d.File), d.Fixes[0].Applicability, want)
				}
			}
			if filepath.Base(d.File) == "pto_barrier.h" {
				if len(d.Related) != 1 || filepath.Base(d.Related[0].File) != "entry.cpp" {
					t.Errorf("pto_barrier.h: related %+v, want the C220 guard in entry.cpp", d.Related)
				}
			}
		}
	}
}

// The family policy comes from the project's core-macro-family setting.
func TestPTOCoreMacroPolicy(t *testing.T) {
	path, _ := filepath.Abs("testdata/ext006_policy/entry.cpp")
	for _, c := range []struct {
		family string
		want   []string // the macros flagged, in order
		fixTo  string
	}{
		{"", []string{"__DAV_CUBE__", "__DAV_VEC__"}, "__DAV_C220_CUBE__"},
		{"consistent", []string{"__DAV_CUBE__", "__DAV_VEC__"}, "__DAV_C220_CUBE__"},
		{"c220", []string{"__DAV_CUBE__", "__DAV_VEC__"}, "__DAV_C220_CUBE__"},
		{"pto", []string{"__DAV_C220_VEC__"}, "__DAV_VEC__"},
		{"any", nil, ""},
	} {
		ws := workspace.New(filepath.Dir(path))
		diags, err := analysis.Run(ws, path, analysis.Options{
			Analyzers: []*analysis.Analyzer{PTOCoreMacro},
			Settings:  analysis.Settings{CoreMacroFamily: c.family},
		})
		if err != nil {
			t.Fatal(err)
		}
		src, _ := ws.Source(path)
		var got []string
		for _, d := range diags {
			got = append(got, string(src[d.Start:d.End]))
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("family %q: flagged %v, want %v", c.family, got, c.want)
		}
		if len(diags) > 0 && diags[0].Fixes[0].Edits[0].NewText != c.fixTo {
			t.Errorf("family %q: first fix %q, want %q", c.family, diags[0].Fixes[0].Edits[0].NewText, c.fixTo)
		}
	}
	// A pto-only file is consistent by default but not under "c220".
	pto, _ := filepath.Abs("testdata/ext006/pto_only/entry.cpp")
	for family, want := range map[string]int{"": 0, "consistent": 0, "c220": 2, "pto": 0} {
		diags, err := analysis.Run(workspace.New(filepath.Dir(pto)), pto, analysis.Options{
			Analyzers: []*analysis.Analyzer{PTOCoreMacro},
			Settings:  analysis.Settings{CoreMacroFamily: family},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(diags) != want {
			t.Errorf("pto_only, family %q: %d findings, want %d", family, len(diags), want)
		}
	}
}
