package rules

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func TestTPipeDouble(t *testing.T) {
	analysistest.RunWithFixes(t, "testdata/ext003", TPipeDouble)
}

// TestTPipeAndGMRulesOnBrokenSources cuts the fixtures of EXT001-EXT003 at
// many points (unbalanced braces, half declarations, dangling #if) and
// checks that the rules never crash on the error trees.
func TestTPipeAndGMRulesOnBrokenSources(t *testing.T) {
	var srcs [][]byte
	for _, dir := range []string{"testdata/ext001", "testdata/ext002", "testdata/ext003"} {
		for _, p := range analysistest.Files(dir) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, b)
		}
	}
	root := t.TempDir()
	path := filepath.Join(root, "entry.cpp")
	ws := workspace.New(root)
	opts := analysis.Options{Analyzers: []*analysis.Analyzer{GMScalarRead, TPipeOutsideVec, TPipeDouble}}
	head := "// mixed: Mmad PIPE_V\nextern \"C\" __global__ __aicore__ void e(__gm__ int64_t *args) { AscendC::Mmad(c, a, b, p); AscendC::PipeBarrier<PIPE_V>(); }\n"
	for _, src := range srcs {
		for cut := 0; cut < len(src); cut += 97 {
			text := append([]byte(head), src[:cut]...)
			ws.SetOverlay(path, text, int32(cut+1))
			diags, err := analysis.Run(ws, path, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diags {
				if d.Code == analysis.InternalCode {
					t.Fatalf("cut at %d: %s\n%s", cut, d.Message, src[:cut])
				}
			}
		}
	}
}
