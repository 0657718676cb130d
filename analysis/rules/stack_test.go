package rules

import (
	"runtime/debug"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
)

// TestElseIfChainStack runs the rules that walk statements in order
// (EXT012's drain, EXT015's events) on a 1 MB else-if chain under a 1 MB
// stack limit. A walk that recursed per link of a chain grew the stack
// past 8 MB on 2 MB, and the process kept those pages (else-if-2: 104 MB
// RSS after the parse, 59 MB without the recursion). Past the limit the
// runtime aborts the test binary with the walk's stack.
func TestElseIfChainStack(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	for _, gen := range []string{"else-if", "else-if-returns"} {
		src := shapeGens[gen](1 << 20)
		func() {
			defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
			runLargeRules(t, []*analysis.Analyzer{MissingPipeDrain, EventUnpaired}, src)
		}()
	}
}

// TestCallChainStack runs the rules that follow calls into their callees
// on a 1 MB chain of about 1700 helpers, each calling the one before,
// under a 512 KB stack limit. EXT012's drain summaries and EXT015's event
// walk recursed once per call of the chain, the callee's walk inside its
// caller's: about 2 KB of stack per link, a 4 MB stack (8 MB on 2 MB)
// and the copy it grew from, freed only into the heap the process keeps.
// They follow callees a bounded depth at a time (maxDrainDepth,
// maxWalkDepth).
func TestCallChainStack(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	src := shapeGens["many-functions"](1 << 20)
	defer debug.SetMaxStack(debug.SetMaxStack(512 << 10))
	for _, r := range []*analysis.Analyzer{MissingPipeDrain, EventUnpaired} {
		runLargeRules(t, []*analysis.Analyzer{r}, src)
	}
}
