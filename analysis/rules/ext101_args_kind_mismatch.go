package rules

import (
	"fmt"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ArgsKindMismatch flags an args[] slot read as the wrong kind for an
// extern the file is compiled under.
var ArgsKindMismatch = register(&analysis.Analyzer{
	Code:     "EXT101",
	Name:     "args-kind-mismatch",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	ABI:      true,
	Doc: analysis.Doc{
		Summary: "an args[] slot is read as a scalar but holds a tensor descriptor, or the reverse",
		What: "Checks every read of the extern's args pointer — `args[N]`, and calls of helpers that take the args pointer " +
			"and an index (`tensor_data<T>(args, N)`; the index may be an enum-typed parameter or a template argument, " +
			"`ArgI32<Slot::kN>(args)`; the helper may compute the slot from it, `args[SlotOf<S>()]` or `args[kBase + 2 * i]`, " +
			"evaluated per call; also in a constructor an object's declaration runs; or a function-like macro reading args by " +
			"name, `#define ARG_I32(i) static_cast<int32_t>(args[(i)])`) — against the args[] table of " +
			"every `@pl.jit.extern` the file is " +
			"compiled under (a header shared by two entries is checked against both). A read is a tensor use when it is " +
			"cast to a pointer or passed to a tensor helper, a scalar use when it is cast to a number, used in arithmetic " +
			"or assigned to a numeric variable. `WithRope ? args[17] : args[7]` is checked per extern with the template " +
			"flag bound from the entry's instantiation (`run<true>(args)`), and accepted when each extern has one right branch.",
		Why: "pypto packs all tensors first, in signature order, then all scalars (guide §2): a scalar declared in the middle " +
			"of the signature lands after every tensor. Reading a tensor slot as a scalar gives a descriptor pointer used as " +
			"an offset; reading a scalar slot as a tensor dereferences a number (for layer 0 that is 0: a null descriptor, " +
			"and the next DataCopy hangs the vector core with 507018).",
		Example:    "int64_t cache_row_offset = args[7];   // fused ABI: args[7] is q_proj",
		UseInstead: "int64_t cache_row_offset = WithRope ? args[17] : args[7];",
		FixSafety:  "No fix: the right index depends on intent. The message names the slot's true parameter and, when the receiving variable is named after a parameter, that parameter's index.",
		Guide:      "§2, §7",
	},
	Run: runArgsKindMismatch,
})

func runArgsKindMismatch(pass *analysis.Pass) {
	wrong, _ := fileABI(pass)
	for _, fd := range wrong {
		if fd.Kind != abi.VerdictKindMismatch || fd.Param == nil {
			continue
		}
		a, s, p := fd.Acc, fd.Stub, fd.Param
		var msg string
		if a.Use == abi.UseScalar {
			msg = fmt.Sprintf("%s is tensor `%s` (%s) of extern `%s`, but it is read as a scalar here", accessText(a, fd.Slot), p.Name, s.SlotText(p), s.Name)
			if s.Scalars > 0 {
				first, _ := s.BySlot(s.Tensors)
				msg += fmt.Sprintf("; scalars start at args[%d] (`%s`)", s.Tensors, first.Name)
			} else {
				msg += "; this extern has no scalar parameters"
			}
		} else {
			dt := ""
			if p.DType != "" {
				dt = p.DType + ", "
			}
			msg = fmt.Sprintf("%s is scalar `%s` (%s%s) of extern `%s`, but it is used as a tensor descriptor here", accessText(a, fd.Slot), p.Name, dt, s.SlotText(p), s.Name)
		}
		related := []analysis.Related{paramRelated(s, p, fmt.Sprintf("`%s` is signature parameter %d, packed at args[%d]", p.Name, p.Pos, p.Slot))}
		if vp := paramNamed(s, a.Var); vp != nil && vp != p {
			msg += fmt.Sprintf("; `%s` is args[%d]", a.Var, vp.Slot)
			related = append(related, paramRelated(s, vp, fmt.Sprintf("`%s` is packed at args[%d]", vp.Name, vp.Slot)))
		}
		start, end := a.Range()
		pass.Report(analysis.Diagnostic{Start: start, End: end, Message: msg, Related: related})
	}
}
