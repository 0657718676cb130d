package grammar

import (
	"sort"
	"strings"
	"sync"
)

// CoresOf returns the cores that compile and run n: the preprocessor guards
// at its start narrowed by enclosing C++ core-type conditions
// (`if ASCEND_IS_AIV {`, `if (g_coreType == AscendC::AIC)`, `if constexpr`).
// A plain `if` on g_coreType compiles on both cores, but its branch is dead
// on the other one, so it narrows the same way.
func (f *File) CoresOf(n *Node) Cores {
	if n == nil {
		return Both
	}
	c := f.Guards.CoresAt(n.Start)
	if f.Tree == nil || n.Tree() != f.Tree {
		return c & coresUp(n)
	}
	f.coreIfs.once.Do(func() { f.coreIfs.spans = coreBranches(f.Tree) })
	spans := f.coreIfs.spans
	i := sort.Search(len(spans), func(i int) bool { return spans[i].pos > n.Start }) - 1
	if i >= 0 {
		c &= spans[i].mask
	}
	return c
}

// coresUp walks up from n through the core tests around it.
func coresUp(n *Node) Cores {
	c := Both
	for child, p := n, n.Parent(); p != nil; child, p = p, p.Parent() {
		if p.Kind() != "if_statement" {
			continue
		}
		core, ok := CoreCondition(p.ChildByField("condition"))
		if !ok {
			continue
		}
		switch child.Field() {
		case "consequence":
			c &= core
		case "alternative":
			c &= Both &^ core
		}
	}
	return c
}

// coreSpan: from pos on (to the next span), code runs only on mask as far
// as the core tests of if statements say.
type coreSpan struct {
	pos  uint32
	mask Cores
}

// coreIndex holds a file's core spans, built on first use: a walk up
// through every if statement around a node per question is as long as the
// chain of else-ifs around it.
type coreIndex struct {
	once  sync.Once
	spans []coreSpan
}

// coreBranches lists where the branches of core tests start and end, with
// the cores that run there, in source order.
func coreBranches(t *Tree) []coreSpan {
	type branch struct {
		start, end uint32
		mask       Cores
	}
	var bs []branch
	for i := range t.Nodes {
		p := &t.Nodes[i]
		if p.Kind() != "if_statement" {
			continue
		}
		core, ok := CoreCondition(p.ChildByField("condition"))
		if !ok {
			continue
		}
		for c := p.FirstChild(); c != nil; c = c.NextSibling() {
			switch c.Field() {
			case "consequence":
				bs = append(bs, branch{c.Start, c.End, core})
			case "alternative":
				bs = append(bs, branch{c.Start, c.End, Both &^ core})
			}
		}
	}
	if len(bs) == 0 {
		return nil
	}
	// Branches nest like the tree: sweep them outermost first, with the
	// mask of each the intersection of those around it.
	sort.Slice(bs, func(i, j int) bool {
		return bs[i].start < bs[j].start || bs[i].start == bs[j].start && bs[i].end > bs[j].end
	})
	out := []coreSpan{{0, Both}}
	emit := func(pos uint32, mask Cores) {
		if l := len(out) - 1; out[l].pos == pos {
			out[l].mask = mask
		} else {
			out = append(out, coreSpan{pos, mask})
		}
	}
	type open struct {
		end  uint32
		mask Cores
	}
	var stack []open
	cur := func() Cores {
		if len(stack) == 0 {
			return Both
		}
		return stack[len(stack)-1].mask
	}
	closeTo := func(pos uint32) {
		for len(stack) > 0 && stack[len(stack)-1].end <= pos {
			end := stack[len(stack)-1].end
			stack = stack[:len(stack)-1]
			emit(end, cur())
		}
	}
	for _, b := range bs {
		closeTo(b.start)
		m := cur() & b.mask
		stack = append(stack, open{b.end, m})
		emit(b.start, m)
	}
	closeTo(^uint32(0))
	return out
}

// CoreCondition returns the core a C++ condition selects, when it is a
// core-type test: `ASCEND_IS_AIV` and its kin, `g_coreType == AscendC::AIC`
// either way round, `!=`, negations and parentheses, read from the tree.
func CoreCondition(cond *Node) (Cores, bool) {
	neg := false
	for cond != nil {
		// The masker parses `if ASCEND_IS_AIV {` as `if (ASCENDISAIV) {` of
		// the same length: the node spanning it reads the macro's name.
		if _, ok := ascendIs[strings.TrimSpace(cond.Text())]; ok {
			break
		}
		switch cond.Kind() {
		case "condition_clause":
			cond = cond.ChildByField("value")
			continue
		case "parenthesized_expression":
			cond = onlyNamedChild(cond)
			continue
		case "unary_expression":
			if op := cond.ChildByField("operator"); op != nil && (op.Text() == "!" || op.Text() == "not") {
				neg = !neg
				cond = cond.ChildByField("argument")
				continue
			}
			return None, false
		}
		break
	}
	if cond == nil {
		return None, false
	}
	var core Cores
	if c, ok := ascendIs[strings.TrimSpace(cond.Text())]; ok {
		core = c
	} else if c, ok := ascendIs[unqualified(cond)]; ok {
		core = c
	} else if cond.Kind() == "binary_expression" {
		op := cond.ChildByField("operator")
		if op == nil || (op.Text() != "==" && op.Text() != "!=") {
			return None, false
		}
		l, r := unqualified(cond.ChildByField("left")), unqualified(cond.ChildByField("right"))
		if r == "g_coreType" {
			l, r = r, l
		}
		if l != "g_coreType" {
			return None, false
		}
		switch r {
		case "AIV":
			core = AIV
		case "AIC":
			core = AIC
		default:
			return None, false
		}
		if op.Text() == "!=" {
			neg = !neg
		}
	} else {
		return None, false
	}
	if neg {
		core = Both &^ core
	}
	return core, true
}

// ascendIs are AscendC's core-type macros and the core each selects.
var ascendIs = map[string]Cores{
	"ASCEND_IS_AIV": AIV, "ASCEND_IS_NOT_AIC": AIV,
	"ASCEND_IS_AIC": AIC, "ASCEND_IS_NOT_AIV": AIC,
	"ASC_IS_AIV": AIV, "ASC_IS_NOT_AIC": AIV,
	"ASC_IS_AIC": AIC, "ASC_IS_NOT_AIV": AIC,
}

// unqualified is the name an identifier or `AscendC::`-qualified
// identifier spells (parentheses around it looked through), or "".
func unqualified(n *Node) string {
	for n != nil && n.Kind() == "parenthesized_expression" {
		n = onlyNamedChild(n)
	}
	if n == nil {
		return ""
	}
	switch n.Kind() {
	case "identifier":
		return n.Text()
	case "qualified_identifier":
		if scope := n.ChildByField("scope"); scope == nil || scope.Text() != "AscendC" {
			return ""
		}
		return unqualified(n.ChildByField("name"))
	}
	return ""
}

func onlyNamedChild(n *Node) *Node {
	var only *Node
	for _, c := range n.NamedChildren() {
		if c.Kind() == "comment" {
			continue
		}
		if only != nil {
			return nil
		}
		only = c
	}
	return only
}
