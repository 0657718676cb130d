package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
)

// `check --fix` (safe fixes only) rewrites the vector-only barrier where
// the analysis saw everything before it, and leaves it alone after a
// macro it cannot read (defined nowhere, or pasting tokens into an
// expansion it cannot read whole or that returns) or a condition on an
// unknown template argument: a
// cube that already returned there would never meet `SyncAll<false>()`.
func TestFixSafetyFollowsCertainty(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "rules", "testdata", "macros"))
	ck, checkAll := fixtureChecker(t, root)
	var demoted []analysis.Diagnostic
	check := func(round int) ([]analysis.Diagnostic, error) {
		all, err := checkAll(round)
		if round == 0 {
			for _, d := range all {
				if len(d.Unseen) > 0 {
					demoted = append(demoted, d)
				}
			}
		}
		return all, err
	}
	fixed, err := (&engine.Fixer{WS: ck.WS, Check: check}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if len(demoted) != 4 {
		t.Fatalf("want 4 findings with demoted fixes, got %d: %v", len(demoted), demoted)
	}
	for _, d := range demoted {
		if d.Fixes[0].Applicability != analysis.Unsafe || len(d.Related) == 0 {
			t.Errorf("%s: fix %v, related %v: want an unsafe fix and the unseen construct as related", d.Message, d.Fixes[0].Applicability, d.Related)
		}
	}
	src, err := ck.WS.Source(filepath.Join(root, "kernels", "guarded.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for fn, want := range map[string]string{
		"setup_stays":    "AscendC::SyncAll<false>();",
		"vendor_setup":   "AscendC::SyncAll();",
		"templated_tail": "AscendC::SyncAll();",
		"pasted":         "AscendC::SyncAll<false>();",
		"pasted_leaves":  "AscendC::SyncAll();",
		"pasted_unknown": "AscendC::SyncAll();",
		"guarded":        "AscendC::SyncAll();",
	} {
		i := strings.Index(text, " "+fn+"(")
		j := strings.Index(text[i:], "SyncAll")
		if i < 0 || j < 0 || !strings.HasPrefix(text[i+j-len("AscendC::"):], want) {
			t.Errorf("%s: want %s after the safe fixes, got:\n%s", fn, want, text)
		}
	}
	if fixed.Count == 0 {
		t.Error("no safe fix applied")
	}
}
