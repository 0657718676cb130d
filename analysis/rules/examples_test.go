package rules

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// exampleCodeRE finds the `// EXT004: ...` / `# EXT104: ...` comments that
// document, in examples/traps, which rule fires on a line.
var exampleCodeRE = regexp.MustCompile(`(?://|#)\s*(EXT\d{3}):`)

func checkExample(t *testing.T, dir string) map[string][]string {
	t.Helper()
	root, _ := filepath.Abs(dir)
	ws := workspace.New(root)
	got := map[string][]string{} // code -> "file:line"
	for _, path := range analysistest.Files(root) {
		diags, err := analysis.Run(ws, path, analysis.Options{Analyzers: All()})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		src, _ := os.ReadFile(path)
		lines := grammar.NewLines(src)
		for _, d := range diags {
			line, _ := lines.Position(d.Start)
			rel, _ := filepath.Rel(root, d.File)
			where := rel + ":" + strconv.Itoa(line+1)
			got[d.Code] = append(got[d.Code], where)
			text := lines.LineText(line)
			if m := exampleCodeRE.FindStringSubmatch(text); m == nil || m[1] != d.Code {
				t.Errorf("%s: %s reported on a line that does not document it: %s", where, d.Code, d.Message)
			}
		}
	}
	return got
}

// TestExampleTraps keeps examples/traps honest: every rule that is on by
// default fires exactly once, on the line whose comment names it.
func TestExampleTraps(t *testing.T) {
	got := checkExample(t, "../../examples/traps")
	for _, a := range All() {
		if a.DefaultOff {
			continue
		}
		if n := len(got[a.Code]); n != 1 {
			t.Errorf("%s %s fires %d times in examples/traps (want once): %v", a.Code, a.Name, n, got[a.Code])
		}
	}
}

// TestExampleClean: the same shape done right reports nothing.
func TestExampleClean(t *testing.T) {
	for code, where := range checkExample(t, "../../examples/clean") {
		t.Errorf("%s reported in examples/clean: %v", code, where)
	}
}
