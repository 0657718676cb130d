package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ArgsSlotNameMismatch flags a named args[] index (or a variable given a
// literal slot) whose name is another parameter of the extern than the one
// at its slot.
var ArgsSlotNameMismatch = register(&analysis.Analyzer{
	Code:     "EXT107",
	Name:     "args-slot-name-mismatch",
	Severity: analysis.SeverityWarning,
	Premise:  analysis.PremiseRuntime,
	Lang:     grammar.CPP,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "an args[] index constant (or a variable read from a literal slot) is named after another parameter than the one at its slot",
		What: "For each index constant the file defines and the extern's reads use (`constexpr`/`#define`/enum member: " +
			"`kScoresArg`, `SCORES_IDX`, `ARG_SCORES`, `scores_arg`; the `k` prefix, `ARG_`/`IDX_` and `Arg`/`Idx` prefixes (`kArgScores`) and " +
			"`Arg`/`Idx`/`Index`/`Slot` suffixes are left out, case and underscores ignored), and for each variable " +
			"initialised from a literal slot (`float *scores = tensor_data<float>(args, 1)`), it compares the name with " +
			"the stub's parameters: when the name is a parameter of the extern, and the slot holds another one, it warns. " +
			"Names that are no parameter say nothing and stay silent, and so does a slot that is right for one of the " +
			"externs the file is compiled under. A constant of a templated body (`constexpr int32_t value_cache_arg = " +
			"WithRope ? 3 : 2;`) is judged in each extern's instantiation, with the value its entry binds, as hovers " +
			"and inlay hints show it; a flag no entry binds says nothing.",
		Why: "args[] is positional (guide §2): a constant named after `scores` that holds `out`'s slot reads the output " +
			"buffer where the kernel means the scores, a swap no compiler sees. Names and slots drift apart when the stub's " +
			"parameters are reordered or one is inserted, and a kernel that reads the wrong tensor of the same shape runs " +
			"and returns wrong numbers.",
		Example:    "# def topk(index: pl.InOut[...], out: pl.Out[...], scores: pl.Tensor[...])\nconstexpr int32_t kScoresArg = 1;   // args[1] is `out`",
		UseInstead: "constexpr int32_t kScoresArg = 2;",
		FixSafety: "Unsafe: renumbers the constant (or the literal slot) to the slot of the parameter it is named after. " +
			"That changes which tensor the kernel reads, which is the point when the name is right and the number is " +
			"stale, and wrong when the name is the stale one: review it.",
		Guide: "§2",
	},
	Run: runArgsSlotNameMismatch,
})

// slotNameKey is what a slot's name says: the name without the markers of
// an index (kFooArg, FOO_IDX, ARG_FOO, foo_arg), lower case, no
// underscores; "" when nothing is left.
func slotNameKey(name string) string {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	if len(name) > 1 && name[0] == 'k' && name[1] >= 'A' && name[1] <= 'Z' {
		name = name[1:]
	}
	for _, p := range []string{"ARG_", "IDX_", "INDEX_", "SLOT_", "arg_", "idx_", "index_", "slot_", "Arg", "Idx", "Index", "Slot"} {
		// A camel-case marker only before the next word (kArgPadLeft,
		// not kArgument).
		if len(name) > len(p) && strings.HasPrefix(name, p) && (strings.HasSuffix(p, "_") || name[len(p)] >= 'A' && name[len(p)] <= 'Z') {
			name = name[len(p):]
			break
		}
	}
	for changed := true; changed; {
		changed = false
		for _, s := range []string{"_ARG", "_IDX", "_INDEX", "_SLOT", "Arg", "Idx", "Index", "Slot", "_arg", "_idx", "_index", "_slot"} {
			if len(name) > len(s) && strings.HasSuffix(name, s) {
				name = name[:len(name)-len(s)]
				changed = true
			}
		}
	}
	return paramKey(name)
}

func paramKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// slotVerdict is one extern's view of a named slot: the parameter the name
// says and the one at the slot.
type slotVerdict struct {
	stub  *abi.Stub
	named *abi.Param
	at    *abi.Param // nil past the end (EXT102's)
}

// judgeSlotName returns the externs under which key names another
// parameter than the one at slot; none when any extern finds it right.
func judgeSlotName(key string, slot int64, stubs []*abi.Stub) []slotVerdict {
	var out []slotVerdict
	for _, s := range stubs {
		var named *abi.Param
		for i := range s.Params {
			if paramKey(s.Params[i].Name) == key {
				named = &s.Params[i]
			}
		}
		if named == nil {
			continue
		}
		at, ok := s.BySlot(int(slot))
		if ok && at == named {
			return nil
		}
		if !ok {
			at = nil
		}
		out = append(out, slotVerdict{stub: s, named: named, at: at})
	}
	// Every extern must agree on where the named parameter is for the
	// finding to say one thing.
	for _, v := range out[min(1, len(out)):] {
		if v.named.Slot != out[0].named.Slot {
			return nil
		}
	}
	return out
}

func runArgsSlotNameMismatch(pass *analysis.Pass) {
	if pass.File.Lang != grammar.CPP {
		return
	}
	var stubs []*abi.Stub
	for _, s := range pass.WS.StubsFor(pass.File.Path) {
		if !s.SyntaxErrors {
			stubs = append(stubs, s)
		}
	}
	if len(stubs) == 0 {
		return
	}
	for _, a := range pass.ArgsAccesses() {
		if a.Via != "constant" || a.Index == nil || len(a.Slots) == 0 {
			continue
		}
		name := a.Index.Text()
		key := slotNameKey(name)
		if key == "" {
			continue
		}
		if len(a.Slots) > 1 {
			reportPerInstance(pass, &a, name, key, stubs)
			continue
		}
		vs := judgeSlotName(key, a.Slots[0], stubs)
		if len(vs) == 0 {
			continue
		}
		d := slotNameDiagnostic("index constant `"+name+"` = "+strconv.FormatInt(a.Slots[0], 10), a.Slots[0], vs)
		d.Start, d.End = a.Start, a.End
		if lit := constLiteral(a.Node); lit != nil {
			d.Fixes = []analysis.Fix{{
				Title:         fmt.Sprintf("Renumber `%s` to %d (`%s`)", name, vs[0].named.Slot, vs[0].named.Name),
				Applicability: analysis.Unsafe,
				Edits:         []analysis.TextEdit{{Start: lit.Start, End: lit.End, NewText: strconv.Itoa(vs[0].named.Slot)}},
			}}
		}
		pass.Report(d)
	}
	// Variables read from a literal slot, judged under the externs that
	// compile the read.
	byAcc := map[*abi.Access][]*abi.Stub{}
	var order []*abi.Access
	_, uses := fileABI(pass)
	for _, u := range uses {
		a := u.Acc
		if a.Var == "" || a.Index == nil || a.Index.Kind() != "number_literal" || len(a.Slots) != 1 {
			continue
		}
		if byAcc[a] == nil {
			order = append(order, a)
		}
		byAcc[a] = append(byAcc[a], u.Stub)
	}
	for _, a := range order {
		key := slotNameKey(a.Var)
		if key == "" {
			continue
		}
		vs := judgeSlotName(key, a.Slots[0], byAcc[a])
		if len(vs) == 0 {
			continue
		}
		d := slotNameDiagnostic(fmt.Sprintf("`%s` reads args[%d]", a.Var, a.Slots[0]), a.Slots[0], vs)
		d.Start, d.End = a.Range()
		lit := a.Index
		n, ok := cxx.ParseInt(strings.TrimSpace(lit.Text()))
		if !ok || a.Computed {
			// A helper computing its slot from the index (`args[kBase +
			// 2 * I]`): no index to write follows from the slot.
			pass.Report(d)
			continue
		}
		offset := a.Slots[0] - n // helpers that add to the index
		d.Fixes = []analysis.Fix{{
			Title:         fmt.Sprintf("Read `%s`'s slot, args[%d]", vs[0].named.Name, vs[0].named.Slot),
			Applicability: analysis.Unsafe,
			Edits:         []analysis.TextEdit{{Start: lit.Start, End: lit.End, NewText: strconv.FormatInt(int64(vs[0].named.Slot)-offset, 10)}},
		}}
		pass.Report(d)
	}
}

func slotNameDiagnostic(what string, slot int64, vs []slotVerdict) analysis.Diagnostic {
	v := vs[0]
	holds := "is past the end"
	if v.at != nil {
		holds = "is `" + v.at.Name + "`"
	}
	var externs []string
	for _, x := range vs {
		externs = append(externs, "`"+x.stub.Name+"`")
	}
	d := analysis.Diagnostic{
		Message: fmt.Sprintf("%s is named after `%s`, but args[%d] of extern %s %s and `%s` is args[%d]: the kernel reads another tensor than its name says",
			what, v.named.Name, slot, strings.Join(externs, ", "), holds, v.named.Name, v.named.Slot),
		Related: []analysis.Related{paramRelated(v.stub, v.named, fmt.Sprintf("`%s` is args[%d]", v.named.Name, v.named.Slot))},
	}
	if v.at != nil {
		d.Related = append(d.Related, paramRelated(v.stub, v.at, fmt.Sprintf("args[%d] is `%s`", slot, v.at.Name)))
	}
	return d
}

// reportPerInstance judges a constant whose value depends on a template
// flag (`constexpr int32_t value_arg = WithRope ? 3 : 2;` in a templated
// body) in each extern's instantiation, as the editor shows it: the value
// the extern's entry binds, against that extern's table. A flag no entry
// binds says nothing.
func reportPerInstance(pass *analysis.Pass, a *abi.Access, name, key string, stubs []*abi.Stub) {
	for _, s := range stubs {
		for _, u := range pass.WS.UnitsOfStub(pass.File.Path, s) {
			sl := abi.SlotsUnder(a, pass.Bindings(u), pass.Consts)
			if len(sl) != 1 {
				continue
			}
			vs := judgeSlotName(key, sl[0], []*abi.Stub{s})
			if len(vs) == 0 {
				continue
			}
			d := slotNameDiagnostic(fmt.Sprintf("index constant `%s` (%d where extern `%s` instantiates it)", name, sl[0], s.Name), sl[0], vs)
			d.Start, d.End = a.Start, a.End
			pass.Report(d)
			return
		}
	}
}
