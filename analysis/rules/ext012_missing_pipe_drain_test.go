package rules

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
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

// TestMissingPipeDrainSettled runs the fixtures and a chain of helpers
// with summaries walked at most a few callees deep: settle's attempts,
// run again from the memo the unwound ones left, find what one recursive
// walk finds, with the memo's cap biting or not.
func TestMissingPipeDrainSettled(t *testing.T) {
	defer func(depth, memoCap int) { maxDrainDepth, drainMemoCap = depth, memoCap }(maxDrainDepth, drainMemoCap)
	maxDrainDepth = 0
	analysistest.RunWithFixes(t, "testdata/ext012", MissingPipeDrain)

	src := storeChain(300)
	capped := ""
	for _, memoCap := range []int{4096, 150} {
		drainMemoCap = memoCap
		maxDrainDepth = 1 << 30
		want := drainFindings(t, src)
		if want == "[]" || want == capped {
			// A cap of 150 finds other stores.
			t.Fatalf("cap %d: the chain no longer exercises the walk and its cap: %s", memoCap, want)
		}
		capped = want
		for _, depth := range []int{0, 1, 3} {
			maxDrainDepth = depth
			if got := drainFindings(t, src); got != want {
				t.Errorf("cap %d, depth %d: findings differ from the recursive walk's\ngot  %s\nwant %s", memoCap, depth, got, want)
			}
		}
	}
}

// drainFindings are EXT012's findings on src, the temporary directory
// left out.
func drainFindings(t *testing.T, src []byte) string {
	ds := runLargeRules(t, []*analysis.Analyzer{MissingPipeDrain}, src)
	return regexp.MustCompile(`/\S*/big\.cpp`).ReplaceAllString(fmt.Sprint(ds), "big.cpp")
}

// storeChain is n helpers, each calling the one before (and one half-way
// down) and returning early before the barrier some of them end with;
// the first one and every seventh store to GM.
func storeChain(n int) []byte {
	var b bytes.Buffer
	b.WriteString(shapePrelude)
	b.WriteString("__aicore__ inline void h0(AscendC::GlobalTensor<float> &g, AscendC::LocalTensor<float> &ub, int64_t i) {\n  AscendC::DataCopy(g[0], ub, 64);\n}\n")
	for k := 1; k < n; k++ {
		fmt.Fprintf(&b, "__aicore__ inline void h%d(AscendC::GlobalTensor<float> &g, AscendC::LocalTensor<float> &ub, int64_t i) {\n", k)
		fmt.Fprintf(&b, "  h%d(g, ub, i);\n  if (i == %d) return;\n  h%d(g, ub, i);\n", k-1, k, k/2)
		if k%5 == 0 {
			b.WriteString("  AscendC::PipeBarrier<PIPE_ALL>();\n")
		}
		if k%7 == 0 {
			fmt.Fprintf(&b, "  AscendC::DataCopy(g[%d], ub, 64);\n", k)
		}
		b.WriteString("}\n")
	}
	shapeEntryHead(&b, "big")
	fmt.Fprintf(&b, "  h%d(outGm, ub, idx);\n  if (idx == 1) return;\n  h%d(outGm, ub, idx);\n}\n", n-1, n/3)
	return b.Bytes()
}
