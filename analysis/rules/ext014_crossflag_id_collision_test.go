package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestCrossFlagIDCollision(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext014", CrossFlagIDCollision)
	root, _ := filepath.Abs("testdata/ext014")
	// The fix edits the named constant of the later synchronisation (in the
	// header that defines it), to the lowest id no flag call uses.
	want := map[string]string{
		"collide/entry.cpp:VEC_ALL_DONE": "collide/flags.h:  VEC_ALL_DONE = 5, // every vector finished its rows",
		"wrapper/entry.cpp:ROW_BARRIER":  "wrapper/entry.cpp:constexpr uint64_t ROW_BARRIER = 9;",
		"wrapper/entry.cpp:kStage":       "wrapper/entry.cpp:constexpr uint16_t kStage = 9;",
		"macro/entry.cpp:kRowsDone":      "macro/entry.cpp:constexpr uint16_t kRowsDone = 6;",
		"locals/attn_kernel.cpp:vecDone": "locals/attn_kernel.cpp:  int vecDone = 4;",
	}
	seen := 0
	for _, r := range results {
		for _, d := range r.Diags {
			if strings.Contains(d.Message, "(kShared)") {
				if len(d.Fixes) != 0 {
					t.Errorf("%s: a constant both synchronisations use cannot be split, got fix %q", d.Message, d.Fixes[0].Title)
				}
				continue
			}
			if len(d.Fixes) != 1 {
				t.Errorf("%s: %d fixes, want 1", d.Message, len(d.Fixes))
				continue
			}
			fix := d.Fixes[0]
			if fix.Applicability != analysis.Unsafe {
				t.Errorf("%s: fix is %v, want unsafe", fix.Title, fix.Applicability)
			}
			rel, _ := filepath.Rel(root, r.File)
			for key, line := range want {
				file, name, _ := strings.Cut(key, ":")
				if file != filepath.ToSlash(rel) || !strings.Contains(fix.Title, "`"+name+"`") {
					continue
				}
				seen++
				wfile, wline, _ := strings.Cut(line, ":")
				got := fixedText(t, root, fix, filepath.Join(root, wfile))
				if !strings.Contains(got, wline+"\n") {
					t.Errorf("%s: fix %q: %s does not contain %q:\n%s", rel, fix.Title, wfile, wline, got)
				}
			}
		}
	}
	if seen < len(want) {
		t.Errorf("checked %d fixes, want at least %d", seen, len(want))
	}
}
