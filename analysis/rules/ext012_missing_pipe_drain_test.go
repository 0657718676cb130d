package rules

import (
	"os"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

func TestMissingPipeDrain(t *testing.T) {
	results := analysistest.RunWithFixes(t, "testdata/ext012", MissingPipeDrain)
	// The inserted barrier is spelled the way the file can compile it.
	for _, r := range results {
		src, _ := os.ReadFile(r.File)
		raw := !strings.Contains(string(src), "AscendC::")
		for _, d := range r.Diags {
			for _, f := range d.Fixes {
				want := "AscendC::PipeBarrier<PIPE_ALL>();"
				if raw {
					want = "pipe_barrier(PIPE_ALL);"
				}
				var text strings.Builder
				for _, e := range f.Edits {
					text.WriteString(e.NewText)
				}
				if !strings.Contains(text.String(), want) {
					t.Errorf("%s: fix inserts %q, want %q", r.File, text.String(), want)
				}
			}
		}
	}
}
