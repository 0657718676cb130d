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
		What: "Warns when a single-return extern's first output-like parameter is a `pl.InOut` while a `pl.Out` follows " +
			"(unless the workspace's calls assign the return to a name like the `pl.InOut`'s and none like the `pl.Out`'s: " +
			"`acc = accumulate(acc, x, scratch)` means the in-place buffer), " +
			"or is not the parameter a `# returns: name` comment (or a string return annotation) names. At info level it " +
			"lists, for any other single-return extern with several output-like parameters, those whose writes are not " +
			"returned (the warning says it itself when it fires).",
		Why: "pypto threads a mixed extern's first `pl.Out` or `pl.InOut` parameter through its single-tensor return (guide " +
			"§2, \"Output-like parameter order is also the return ABI\"). With `query: pl.InOut` before `out: pl.Out`, the " +
			"orchestration binds `attn_out_ssa = q_tnd`: the kernel still writes `out`, but every downstream task reads the " +
			"RoPE-rotated query. Writes to the other output-like parameters reach later tasks only through explicit deps.",
		Example:    "def fused(query: pl.InOut[...], out: pl.Out[...], ...) -> pl.Tensor:",
		UseInstead: "def fused(out: pl.Out[...], query: pl.InOut[...], ...) -> pl.Tensor:",
		FixSafety: "Unsafe: moves the intended parameter before the first output-like one, which renumbers args[] (the " +
			"title lists the slots that change), and in the same edit reorders the positional arguments of every call of " +
			"the extern in the workspace (or passes the shifted ones by name) and renumbers every C++ read of a moved slot " +
			"(a literal index in place, a named index at its constant's definition), so callers and kernel mean what they " +
			"meant. It is not offered (the message says why) when a use cannot follow: a read whose index is computed or " +
			"may be several slots, a read or constant another extern compiles too, a call passing `*args`.",
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
			if intended != nil {
				// The callers say which they mean: `y = f(y, ..., xs)`
				// binds the return to the InOut `y`, the pl.Out `xs`
				// being scratch.
				if targets := returnTargets(pass, s); targets[first.Name] && !targets[intended.Name] {
					intended = nil
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
			if fix, why := moveParamFix(pass, s, intended, first); why == "" {
				d.Fixes = []analysis.Fix{fix}
			} else {
				d.Message += "; no fix is offered: reordering the parameters would need every use of args[] to move with them, and " + why
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
func moveParamFix(pass *analysis.Pass, s *abi.Stub, p, first *abi.Param) (analysis.Fix, string) {
	k, j := p.Pos, first.Pos
	if j >= k || k >= len(s.Params) {
		return analysis.Fix{}, "the parameters are not in the order the fix expects"
	}
	src := pass.File.Src
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
	// The callers and the C++ move with the signature, or no fix.
	uses, why := signatureEdits(pass, s, k, j, order)
	if why != "" {
		return analysis.Fix{}, why
	}
	title := fmt.Sprintf("Declare `%s` first (renumbers args[]: %s; call sites and C++ reads follow)", p.Name, strings.Join(changes, ", "))
	return analysis.Fix{Title: title, Applicability: analysis.Unsafe, Edits: append([]analysis.TextEdit{ins, del}, uses...)}, ""
}

// returnTargets are the names the workspace's calls of s assign its
// return to (`y = f(...)`, `y, = f(...)` aside).
func returnTargets(pass *analysis.Pass, s *abi.Stub) map[string]bool {
	out := map[string]bool{}
	for path, f := range stubCallFiles(pass, s) {
		if f == nil {
			continue
		}
		for _, c := range stubCalls(pass, s, path, f) {
			if a := c.call.Parent(); a != nil && a.Kind() == "assignment" && a.ChildByField("right") == c.call {
				if l := a.ChildByField("left"); l != nil && l.Kind() == "identifier" {
					out[l.Text()] = true
				}
			}
		}
	}
	return out
}
