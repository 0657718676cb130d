package rules

import (
	"fmt"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ReturnBinding flags single-return externs whose return binds a different
// buffer than intended.
var ReturnBinding = register(&analysis.Analyzer{
	Code:     "EXT103",
	Name:     "return-binding",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.Python,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a single-return extern returns its first `pl.Out`/`pl.InOut` parameter, which is not the intended output",
		What: "Warns when a single-return extern's first output-like parameter is a `pl.InOut` while a `pl.Out` follows, " +
			"or is not the parameter a `# returns: name` comment (or a string return annotation) names. At info level it " +
			"lists, for any other single-return extern with several output-like parameters, those whose writes are not " +
			"returned (the warning says it itself when it fires).",
		Why: "pypto threads a mixed extern's first `pl.Out` or `pl.InOut` parameter through its single-tensor return (guide " +
			"§2, \"Output-like parameter order is also the return ABI\"). With `query: pl.InOut` before `out: pl.Out`, the " +
			"orchestration binds `attn_out_ssa = q_tnd`: the kernel still writes `out`, but every downstream task reads the " +
			"RoPE-rotated query. Writes to the other output-like parameters reach later tasks only through explicit deps.",
		Example:    "def fused(query: pl.InOut[...], out: pl.Out[...], ...) -> pl.Tensor:",
		UseInstead: "def fused(out: pl.Out[...], query: pl.InOut[...], ...) -> pl.Tensor:",
		FixSafety: "Unsafe: moves the intended parameter before the first output-like one. That renumbers args[] (the " +
			"message lists the indices that change): update the C++ reads and every call site's argument order with it.",
		Guide: "§2, §7",
	},
	Run: runReturnBinding,
})

func runReturnBinding(pass *analysis.Pass) {
	for _, s := range pyStubs(pass) {
		if s.MultiReturn || s.NoReturn || s.SyntaxErrors {
			continue
		}
		outs := s.OutputLike()
		if len(outs) == 0 {
			continue
		}
		first := outs[0]
		var intended *abi.Param
		why := ""
		if s.ReturnsNamed != "" {
			if p, ok := s.Param(s.ReturnsNamed); ok && p != first && p.Kind == abi.Tensor {
				intended = p
				why = fmt.Sprintf("the return is documented as `%s`", p.Name)
			}
		} else if first.Dir == abi.InOut {
			for _, p := range outs[1:] {
				if p.Dir == abi.Out {
					intended = p
					why = fmt.Sprintf("pl.Out `%s` follows it", p.Name)
					break
				}
			}
		}
		if intended != nil {
			d := analysis.Diagnostic{
				Start: first.NameStart, End: first.NameEnd,
				Message: fmt.Sprintf("extern `%s` returns its first output-like parameter, %s `%s`, but %s: callers of the single return read `%s`, not `%s`; declare `%s` first",
					s.Name, dirText(first), first.Name, why, first.Name, intended.Name, intended.Name) + unreturnedText(outs, intended),
				Related: []analysis.Related{paramRelated(s, intended, fmt.Sprintf("`%s` is the intended return buffer", intended.Name))},
			}
			if fix, ok := moveParamFix(pass.File, s, intended, first); ok {
				d.Fixes = []analysis.Fix{fix}
			}
			pass.Report(d)
		}
		if len(outs) > 1 && intended == nil {
			var lost []string
			for _, p := range outs[1:] {
				lost = append(lost, "`"+p.Name+"`")
			}
			pass.Report(analysis.Diagnostic{
				Start: s.Start, End: s.End, Severity: analysis.SeverityInfo,
				Message: fmt.Sprintf("single-return extern `%s` binds its return to `%s`; writes to %s are not returned and reach later tasks only through explicit deps",
					s.Name, first.Name, strings.Join(lost, ", ")),
			})
		}
	}
}

// unreturnedText names the output-like parameters whose writes the return
// will not carry once ret is returned.
func unreturnedText(outs []*abi.Param, ret *abi.Param) string {
	var lost []string
	for _, p := range outs {
		if p != ret {
			lost = append(lost, "`"+p.Name+"`")
		}
	}
	if len(lost) == 0 {
		return ""
	}
	return " (writes to " + strings.Join(lost, ", ") + " then reach later tasks only through explicit deps)"
}

func dirText(p *abi.Param) string {
	if p.Dir == abi.InOut {
		return "pl.InOut"
	}
	return "pl.Out"
}

// moveParamFix moves p right before first in the signature, listing the
// args[] indices that change.
func moveParamFix(f *grammar.File, s *abi.Stub, p, first *abi.Param) (analysis.Fix, bool) {
	k, j := p.Pos, first.Pos
	if j >= k || k >= len(s.Params) {
		return analysis.Fix{}, false
	}
	src := f.Src
	var del analysis.TextEdit
	var moved string
	if k+1 < len(s.Params) {
		next := s.Params[k+1]
		del = analysis.TextEdit{Start: p.Start, End: next.Start}
		moved = string(src[p.Start:next.Start])
	} else {
		prev := s.Params[k-1]
		del = analysis.TextEdit{Start: prev.End, End: p.End}
		moved = string(src[p.Start:p.End]) + string(src[prev.End:p.Start])
	}
	ins := analysis.TextEdit{Start: first.Start, End: first.Start, NewText: moved}
	// The new table: p moves to position j.
	order := make([]abi.Param, 0, len(s.Params))
	for i := range s.Params {
		if i == j {
			order = append(order, s.Params[k])
		}
		if i != k {
			order = append(order, s.Params[i])
		}
	}
	abi.Pack(order)
	var changes []string
	for _, np := range order {
		if op, ok := s.Param(np.Name); ok && op.Slot != np.Slot {
			changes = append(changes, fmt.Sprintf("`%s` args[%d]→args[%d]", np.Name, op.Slot, np.Slot))
		}
	}
	title := fmt.Sprintf("Declare `%s` first (renumbers args[]: %s)", p.Name, strings.Join(changes, ", "))
	return analysis.Fix{Title: title, Applicability: analysis.Unsafe, Edits: []analysis.TextEdit{ins, del}}, true
}
