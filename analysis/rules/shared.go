package rules

import (
	"bytes"
	"slices"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Helpers several rules share over the unit's models.

// fileFlagOps returns the file's flag calls and the flag calls its macro
// uses make, in source order.
func fileFlagOps(pass *analysis.Pass) []cxx.FlagCall {
	out := append([]cxx.FlagCall(nil), pass.Closure().FlagCalls()...)
	for _, s := range pass.Closure().MacroFlagSites() {
		out = append(out, s.FlagCall)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Node.Start < out[j].Node.Start })
	return out
}

// unitFlagCalls returns the flag calls of the other files of the file's
// extern units (see unitFiles).
func unitFlagCalls(pass *analysis.Pass) []cxx.FlagCall {
	return pass.Reach().HeaderFlagCalls()
}

// hangCode is how a hang at offset at surfaces: as the runtime scheduler's
// timeout, 507018, for code the pypto/simpler runtime runs as a task; an
// ordinary kernel's launch just never completes (its host's stream
// synchronisation times out), so no code is named there.
func hangCode(pass *analysis.Pass, at uint32) string {
	if pass.CompiledUnder(at, analysis.PremiseRuntime) {
		return " (507018)"
	}
	return ""
}

// kindCores is the cores the file's extern kind compiles it for: one for an
// AIV- or AIC-only extern, both otherwise.
func kindCores(pass *analysis.Pass) grammar.Cores {
	if pass.Ctx != nil {
		switch pass.Ctx.Kind {
		case workspace.KindAIV:
			return grammar.AIV
		case workspace.KindAIC:
			return grammar.AIC
		}
	}
	return grammar.Both
}

// derivedNames follows a unit's definitions to the names whose value reads
// a seed (as reads judges it, given the names found so far) or another such
// name, over three rounds (as far as chains in real kernels go). added is
// told of each name with the definition that made it one.
func derivedNames(defs []unit.NameDef, reads func(names map[string]bool, value *grammar.Node) bool, added func(name string, d unit.NameDef)) map[string]bool {
	names := map[string]bool{}
	for round := 0; round < 3; round++ {
		changed := false
		for _, d := range defs {
			name := cxx.DeclaredName(d.Name)
			if name == "" {
				name = laneRootName(d.Name)
			}
			if name == "" || names[name] || !reads(names, d.Value) {
				continue
			}
			names[name] = true
			if added != nil {
				added(name, d)
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	return names
}

// elseIfTops memoizes, per if statement of an else-if chain, the chain's
// first if (the statement holding the rest of the chain). A walk up from
// a statement of the chain's last branch climbs every if before it: per
// store of an else-if chain of thousands of branches, that was quadratic
// (EXT009: 70% of a 512 KB chain).
type elseIfTops map[*grammar.Node]*grammar.Node

// top returns the first if of the else-if chain whose if statement n is
// (n itself when it is the first): every statement up to it is an if or
// its else clause, and ends where n ends.
func (m elseIfTops) top(n *grammar.Node) *grammar.Node {
	var path []*grammar.Node
	t := n
	for {
		if u, ok := m[t]; ok {
			t = u
			break
		}
		e := t.Parent()
		if e == nil || e.Kind() != "else_clause" {
			break
		}
		p := e.Parent()
		if p == nil || p.Kind() != "if_statement" {
			break
		}
		path = append(path, t)
		t = p
	}
	for _, v := range path {
		m[v] = t
	}
	return t
}

// blockReturns memoizes, per block, the starts of the return statements
// directly in it, for exitAfter, and the else-if chains it climbs.
type blockReturns struct {
	rets   map[*grammar.Node][]uint32
	chains elseIfTops
}

func newBlockReturns() blockReturns {
	return blockReturns{rets: map[*grammar.Node][]uint32{}, chains: elseIfTops{}}
}

// exitAfter is the offset of the first `return` that every path from n
// takes before anything after it in fn: a return statement of a block
// holding n, after n (fn's end when there is none). Each block's returns
// are listed once: a walk over the statements after n, per store, was
// quadratic in a function's length.
func (x blockReturns) exitAfter(fn, n *grammar.Node) uint32 {
	exit := fn.End
	for c, b := n, n.Parent(); b != nil && b != fn; c, b = b, b.Parent() {
		if b.Kind() == "if_statement" {
			// An else-if chain holds no block up to its first if.
			c = x.chains.top(b)
			b = c
			continue
		}
		if b.Kind() != "compound_statement" {
			continue
		}
		rets, ok := x.rets[b]
		if !ok {
			for st := b.FirstChild(); st != nil; st = st.NextSibling() {
				if st.Kind() == "return_statement" {
					rets = append(rets, st.Start)
				}
			}
			x.rets[b] = rets
		}
		if i, _ := slices.BinarySearch(rets, c.Start+1); i < len(rets) {
			exit = min(exit, rets[i])
		}
	}
	return exit
}

// funcHead is the text before fn's body that its qualifiers are in: from
// the end of what precedes it (the previous declaration, or its block's
// start) to the body; nil for a declaration without a body.
func funcHead(f *grammar.File, fn *grammar.Node) (start, end uint32, ok bool) {
	body := fn.ChildByField("body")
	if body == nil {
		return 0, 0, false
	}
	head := fn
	if p := fn.Parent(); p != nil && p.Kind() == "template_declaration" {
		head = p
	}
	if prev := head.PrevSibling(); prev != nil {
		start = prev.End
	} else if p := head.Parent(); p != nil {
		start = p.Start
	}
	return start, body.Start, true
}

// simtFunc reports whether fn (of f) is SIMT vector code (`__simt_vf__`,
// `__simt_callee__`, `__cce_simt_entry__`): its threads load and store GM
// through the vector unit's SIMT path, not the scalar unit's data cache
// the cache rules are about.
func simtFunc(f *grammar.File, fn *grammar.Node) bool {
	start, end, ok := funcHead(f, fn)
	if !ok {
		return false
	}
	for _, q := range f.QualifiersIn(start, end) {
		switch q {
		case "__simt_vf__", "__simt_callee__", "__cce_simt_entry__":
			return true
		}
	}
	return false
}

// hostFunc reports whether fn (of f) is host code in a file the device
// compile includes (`inline void QueueInit(Queue *q) { ... }` next to the
// kernel's helpers): ccec runs only `__aicore__` functions on the core, and
// its head names no `__aicore__`, `__global__` or `aicore` macro, nor any
// all-capitals macro that could stand for one.
func hostFunc(f *grammar.File, fn *grammar.Node) bool {
	start, end, ok := funcHead(f, fn)
	if !ok || int(end) > len(f.Src) || start > end {
		return false
	}
	// A device qualifier makes it device code; `__host__` alone (Ascend C
	// sources) says host.
	host := false
	for _, q := range f.QualifiersIn(start, end) {
		if q != "__host__" {
			return false
		}
		host = true
	}
	if host {
		return true
	}
	head := f.Src[start:end]
	if i := bytes.IndexByte(head, '('); i >= 0 {
		head = head[:i]
	}
	for _, w := range bytes.FieldsFunc(head, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		lw := bytes.ToLower(w)
		if bytes.Contains(lw, []byte("aicore")) || bytes.Contains(lw, []byte("global")) || bytes.Contains(lw, []byte("device")) {
			return false
		}
		if len(w) > 1 && bytes.Equal(bytes.ToUpper(w), w) && bytes.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			// An all-capitals word before the name: a macro that may
			// expand to the device qualifier.
			return false
		}
	}
	return true
}

// notScalarCode reports whether fn's GM accesses are not the core's scalar
// unit's: SIMT vector code, or host code (the cache rules judge neither).
func notScalarCode(f *grammar.File, fn *grammar.Node) bool {
	return simtFunc(f, fn) || hostFunc(f, fn)
}
