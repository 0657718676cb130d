package rules

import (
	"fmt"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ArgsOutOfRange flags an args[] index past the extern's packed arguments.
var ArgsOutOfRange = register(&analysis.Analyzer{
	Code:     "EXT102",
	Name:     "args-out-of-range",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	ABI:      true,
	Doc: analysis.Doc{
		Summary: "an args[] index is negative or not less than the extern's argument count",
		What: "Flags `args[N]` and helper reads (`tensor_data<T>(args, N)`) whose constant index is negative or at least " +
			"the number of tensors plus scalars of an extern the file is compiled under. Reads in code the extern does not " +
			"compile (an `if constexpr` / ternary branch on a template flag its entry binds the other way, or a function its " +
			"entry never reaches) are skipped, and a `c ? a : b` index is accepted when one candidate is in range.",
		Why: "args[] holds exactly the task's tensors then scalars (guide §2). An index past the end reads whatever the " +
			"runtime placed after the payload: garbage offsets or a wild descriptor pointer, which hangs the core (507018). " +
			"It usually means a header written for a larger ABI (the fused one) is compiled into a smaller one.",
		Example:    "int64_t batch = args[18];   // paged_attention_cce packs 8 args",
		UseInstead: "if constexpr (WithRope) { int64_t batch = args[18]; }",
		FixSafety:  "No fix.",
		Guide:      "§2",
	},
	Run: runArgsOutOfRange,
})

func runArgsOutOfRange(pass *analysis.Pass) {
	wrong, _ := fileABI(pass)
	for _, fd := range wrong {
		if fd.Kind != abi.VerdictOutOfRange {
			continue
		}
		a, s := fd.Acc, fd.Stub
		what := "past the end"
		if fd.Slot < 0 {
			what = "negative"
		}
		msg := fmt.Sprintf("%s is %s for extern `%s`: it packs %d args (%s, args[0..%d])", accessText(a, fd.Slot), what, s.Name, s.Count(), s.PackText(), s.Count()-1)
		start, end := a.Range()
		pass.Report(analysis.Diagnostic{Start: start, End: end, Message: msg, Related: []analysis.Related{stubRelated(s)}})
	}
}
