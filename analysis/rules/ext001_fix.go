package rules

import (
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// EXT001's unsafe dcci fix: where the dcci goes, and which form.
//
// Before the statement, a dcci of the exact lines runs as often as the read.
// Inside a loop that is once per iteration, so the fix moves it out of every
// enclosing loop it can: a loop-invariant address keeps its
// SINGLE_CACHE_LINE dcci, now before the loop; an address that changes in the
// loop (an index) becomes one ENTIRE_DATA_CACHE dcci before it, which covers
// every line the loop reads. It never moves past a loop in which something
// can make the memory stale again (a wait for another core, a DMA write to
// it): there the next iteration needs its own dcci.

// dcciFix returns the fix for a group of reads of one pointer in one
// statement (a is the first, reads the accessed expressions, addrs their
// dcci addresses), or false when no placement is correct.
func dcciFix(pass *analysis.Pass, sum *cxx.Summaries, ix *loopIndex, a *cxx.Access, reads, addrs []string, cores grammar.Cores) (analysis.Fix, bool) {
	target := a.Stmt()
	entire := false // the ENTIRE_DATA_CACHE form
	var ptr string
	hoisted := false
	var loops []*grammar.Node
	if a.Func() != nil {
		loops = ix.loops.enclosingLoops(a.Node, a.Func())
	}
	o := cxx.Origin{}
	if len(loops) > 0 {
		o = sum.OriginOf(a.Ptr())
	}
	for _, loop := range loops {
		if pass.Stopped() {
			return analysis.Fix{}, false
		}
		// A loop the statement itself is (or contains) repeats the read
		// with the dcci still before it: the dcci must cover every
		// iteration's lines even when it cannot move.
		inside := a.Stmt().Contains(loop)
		if ix.staleIn(sum, a, o, loop, cores) {
			if inside {
				return analysis.Fix{}, false
			}
			break
		}
		ok := false
		if !entire && ix.invariantIn(loop, append(reads, addrs...)) {
			ok = true
		} else if p := dcciPointer(a); p != "" && ix.invariantIn(loop, []string{p}) {
			entire, ptr, ok = true, p, true
		}
		if !ok {
			if inside {
				return analysis.Fix{}, false
			}
			break
		}
		if !inside {
			target, hoisted = loop, true
		}
	}
	var text strings.Builder
	var title string
	switch {
	case entire:
		text.WriteString("dcci(" + ptr + ", ENTIRE_DATA_CACHE);\n")
		title = "Insert `dcci(" + ptr + ", ENTIRE_DATA_CACHE);` before the loop (`" + addrs[0] + "` changes in it; this invalidates every line it reads)"
	default:
		for _, addr := range addrs {
			text.WriteString("dcci(" + addr + ", SINGLE_CACHE_LINE);\n")
		}
		title = "Insert `dcci(" + addrs[0] + ", SINGLE_CACHE_LINE);` before the statement"
		if hoisted {
			title = "Insert `dcci(" + addrs[0] + ", SINGLE_CACHE_LINE);` before the loop (the address does not change in it)"
		}
	}
	return analysis.Fix{
		Title:         title,
		Applicability: analysis.Unsafe,
		Edits:         []analysis.TextEdit{insertLinesBeforeStmt(pass.File, target, text.String())},
	}, true
}

// loopIndex answers the fix's questions about a loop (is the read's memory
// made stale in it, is a name changed in it) by position lookups instead
// of a walk of the loop per read and per enclosing loop: that walk made the
// rule quadratic in the size of a loop, and worse in its nesting.
type loopIndex struct {
	changes map[*grammar.Tree]map[string][]uint32
	loops   *loopAncestry
}

func newLoopIndex() *loopIndex {
	return &loopIndex{changes: map[*grammar.Tree]map[string][]uint32{}, loops: newLoopAncestry()}
}

// staleIn reports whether something in the loop can make the read's memory
// stale again for the next iteration: a wait for other cores (when the task
// writes the memory, or its origin is unknown) or a DMA write to it.
func (ix *loopIndex) staleIn(sum *cxx.Summaries, a *cxx.Access, o cxx.Origin, loop *grammar.Node, cores grammar.Cores) bool {
	x := sum.Index(a.Func())
	if x.In(cxx.Wait, cxx.Origin{}, cores, loop.Start, loop.End) && (!o.Known() || sum.WrittenInTask(a.Func(), o)) {
		return true
	}
	return x.In(cxx.DMAWrite, o, cores, loop.Start, loop.End)
}

// invariantIn reports whether every name in the expressions is the same on
// every iteration of loop: declared outside it and never assigned (=, op=,
// ++, --) inside it.
func (ix *loopIndex) invariantIn(loop *grammar.Node, exprs []string) bool {
	changes := ix.changes[loop.Tree()]
	if changes == nil {
		changes = nameChanges(loop.Tree())
		ix.changes[loop.Tree()] = changes
	}
	for _, e := range exprs {
		for _, w := range identifiers(e) {
			at := changes[w]
			i := sort.Search(len(at), func(i int) bool { return at[i] >= loop.Start })
			if i < len(at) && at[i] < loop.End {
				return false
			}
		}
	}
	return true
}

// nameChanges lists, by name, where a tree declares (a declarator, also
// nested: pointer, for-range) or assigns (=, op=, ++, --) it, in source
// order.
func nameChanges(t *grammar.Tree) map[string][]uint32 {
	out := map[string][]uint32{}
	for i := range t.Nodes {
		d := &t.Nodes[i]
		var name string
		switch {
		case d.Kind() == "identifier" && (d.Field() == "declarator" || d.Parent() != nil && strings.HasSuffix(d.Parent().Kind(), "declarator")):
			name = d.Text()
		case d.Kind() == "assignment_expression":
			if l := d.ChildByField("left"); l != nil {
				name = cxx.Unparen(l).Text()
			}
		case d.Kind() == "update_expression":
			if arg := d.ChildByField("argument"); arg != nil {
				name = cxx.Unparen(arg).Text()
			}
		}
		if name != "" {
			out[name] = append(out[name], d.Start)
		}
	}
	return out
}

// identifiers lists the C++ identifiers written in an expression's text.
func identifiers(expr string) []string {
	var out []string
	for i := 0; i < len(expr); {
		c := expr[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j := i
			for j < len(expr) && isIdentByte(expr[j]) {
				j++
			}
			// A member after -> or . is not a variable.
			if !(i >= 1 && expr[i-1] == '.' || i >= 2 && expr[i-2:i] == "->") {
				out = append(out, expr[i:j])
			}
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			for i < len(expr) && isIdentByte(expr[i]) {
				i++
			}
			continue
		}
		i++
	}
	return out
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// dcciPointer is the pointer itself as a dcci argument (the GlobalTensor's
// physical address), cast when it points to const; "" when unknown.
func dcciPointer(a *cxx.Access) string {
	if a.Ptr() == nil {
		return ""
	}
	p := gmOneLine(cxx.Unparen(a.Ptr()).Text())
	if a.Via == cxx.ViaGetValue || a.Via == cxx.ViaCall {
		p += ".GetPhyAddr()"
	}
	if a.Var != nil && constPointee(a.Var) {
		p = "(__gm__ void *)(" + p + ")"
	}
	return p
}
