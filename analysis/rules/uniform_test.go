package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// localWeb is a kernel whose loop updates k locals, each from two others
// under a test of a third (the running offsets of a flash-attention
// tile loop), and a lane test on one of them.
func localWeb(k int) []byte {
	var b strings.Builder
	b.WriteString("#include \"kernel_operator.h\"\n")
	b.WriteString("extern \"C\" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {\n")
	for i := range k {
		fmt.Fprintf(&b, "  int64_t v%d = args[%d];\n", i, i)
	}
	b.WriteString("  for (int64_t t = 0; t < args[0]; ++t) {\n")
	for i := range k {
		fmt.Fprintf(&b, "    if (v%d > t) {\n      v%d = v%d + v%d;\n    }\n", (i+3)%k, i, (i+1)%k, (i+2)%k)
	}
	b.WriteString("  }\n  if (v0 > get_subblockid()) {\n    AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(3);\n  }\n}\n")
	return []byte(b.String())
}

// varianceVisits is the number of expressions the variance model visits
// to answer the kernel's one lane test.
func varianceVisits(t *testing.T, src []byte) int {
	t.Helper()
	visits := 0
	probe := &analysis.Analyzer{Code: "EXT993", Name: "variance-probe", Severity: analysis.SeverityInfo, Lang: grammar.CPP, Run: func(p *analysis.Pass) {
		vm := p.Closure().Variance(func(n int) bool { visits += n; return p.Spend(n) })
		for _, n := range p.Nodes("if_statement") {
			v := vm.Condition(n, grammar.AIV)
			if lane := strings.Contains(n.ChildByField("condition").Text(), "get_subblockid"); lane != (v&unit.VarLane != 0) {
				p.Report(analysis.Diagnostic{Message: fmt.Sprintf("%s: variance %b", n.ChildByField("condition").Text(), v)})
			}
		}
	}}
	for _, d := range runLargeRules(t, []*analysis.Analyzer{probe}, src) {
		t.Errorf("%s: %s", d.Code, d.Message)
	}
	return visits
}

// TestVarianceOfALocalWebIsLinear: locals updated from each other in a
// loop are a web of cycles; the model answers each question once per
// outermost question, so twice the locals cost about twice the visits.
// Recomputing what a cycle cut short followed every simple path through
// the web (4x per two more locals: 1.5 million visits at 16): four 50-70
// KB ops-transformer headers ran into the 60 s time limit. The visits
// are steps of the asking rule.
func TestVarianceOfALocalWebIsLinear(t *testing.T) {
	small, large := varianceVisits(t, localWeb(8)), varianceVisits(t, localWeb(16))
	if small == 0 {
		t.Fatal("no visits counted: the model no longer spends steps")
	}
	if large > 3*small {
		t.Errorf("8 locals: %d visits, 16 locals: %d (%.1fx); want at most 3x (the text grows 2x)", small, large, float64(large)/float64(small))
	}
}
