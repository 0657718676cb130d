package engine_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

func TestRegistry(t *testing.T) {
	if err := engine.ValidateRules(rules.All()); err != nil {
		t.Fatal(err)
	}
	dup := []*analysis.Analyzer{rules.SyncAllAIVOnly, {Code: "ext004", Name: "other", Run: func(*analysis.Pass) {}}}
	if err := engine.ValidateRules(dup); err == nil || !strings.Contains(err.Error(), "also EXT004") {
		t.Errorf("a duplicate code passes: %v", err)
	}
}

var wantRE = regexp.MustCompile(`(//|#).*\bwant\s+["` + "`" + `]`)

// Every rule has a fixture folder testdata/<code> with lines that flag
// (`want`) and lines that stay silent.
func TestEveryRuleHasFixtures(t *testing.T) {
	for _, a := range rules.All() {
		dir := filepath.Join("..", "rules", "testdata", strings.ToLower(a.Code))
		files := analysistest.Files(dir)
		if len(files) == 0 {
			t.Errorf("%s %s: no fixtures in %s", a.Code, a.Name, dir)
			continue
		}
		wants, silent := 0, 0
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(string(src), "\n") {
				if wantRE.MatchString(l) {
					wants++
				} else if strings.TrimSpace(l) != "" {
					silent++
				}
			}
		}
		if wants == 0 || silent == 0 {
			t.Errorf("%s %s: %d flagged and %d silent fixture lines; want both", a.Code, a.Name, wants, silent)
		}
		if a.Fixable && !hasGolden(dir) {
			t.Errorf("%s %s: offers fixes but no fixture pins a fixed text (%s/**/*.golden; see TestFixesSettle)", a.Code, a.Name, dir)
		}
	}
}

func hasGolden(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".golden") {
			found = true
		}
		return nil
	})
	return found
}
