package abi

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// SlotsUnder narrows the candidate slots of an access to what its index
// is in one unit: an index (or the local constant it names, or an index
// constant's own definition) written as `WithRope ? 2 : 1` on a template
// flag the unit's entry binds is one slot there. It returns the access's
// slots when there is only one candidate, and nil when the unit's value
// cannot be known (the flag is unbound, or the index is computed another
// way): the caller says "unknown", never a guess. r resolves the unit's
// other named constants (nil: none).
func SlotsUnder(a *Access, b *Bindings, r *cxx.Resolver) []int64 {
	if len(a.Slots) <= 1 {
		return a.Slots
	}
	expr := a.Index
	if a.Via == "constant" {
		expr = constValue(a.Node)
	}
	if expr == nil || b == nil {
		return nil
	}
	fn := expr.Ancestor("function_definition")
	var tps map[string]string
	if fn != nil {
		tps = templateParams(fn)
	}
	v, ok := evalUnder(expr, fn, tps, b, r, 0)
	if !ok {
		return nil
	}
	for _, s := range a.Slots {
		if s == v {
			return []int64{v}
		}
	}
	return nil
}

// constValue is the initialiser of a constant's declaration.
func constValue(decl *grammar.Node) *grammar.Node {
	if decl == nil {
		return nil
	}
	if v := decl.ChildByField("value"); v != nil {
		return v
	}
	for _, c := range decl.NamedChildren() {
		if c.Kind() == "init_declarator" {
			return c.ChildByField("value")
		}
	}
	return nil
}

// evalUnder evaluates an integer expression of a function body with the
// unit's template bindings: literals, the function's template flags, its
// local constants declared before the expression, `?:`, `!`, unary minus,
// and the arithmetic and comparison operators.
func evalUnder(n, fn *grammar.Node, tps map[string]string, b *Bindings, r *cxx.Resolver, depth int) (int64, bool) {
	if n == nil || depth > 8 {
		return 0, false
	}
	n = cxx.Unparen(n)
	switch n.Kind() {
	case "number_literal":
		return cxx.ParseInt(strings.TrimSpace(n.Text()))
	case "true":
		return 1, true
	case "false":
		return 0, true
	case "conditional_expression":
		c, ok := evalUnder(n.ChildByField("condition"), fn, tps, b, r, depth+1)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return evalUnder(n.ChildByField("consequence"), fn, tps, b, r, depth+1)
		}
		return evalUnder(n.ChildByField("alternative"), fn, tps, b, r, depth+1)
	case "unary_expression":
		v, ok := evalUnder(n.ChildByField("argument"), fn, tps, b, r, depth+1)
		if !ok {
			return 0, false
		}
		switch op := n.ChildByField("operator"); {
		case op != nil && op.Text() == "!":
			return boolInt(v == 0), true
		case op != nil && op.Text() == "-":
			return -v, true
		case op != nil && op.Text() == "+":
			return v, true
		}
		return 0, false
	case "binary_expression":
		l, ok1 := evalUnder(n.ChildByField("left"), fn, tps, b, r, depth+1)
		r, ok2 := evalUnder(n.ChildByField("right"), fn, tps, b, r, depth+1)
		op := n.ChildByField("operator")
		if !ok1 || !ok2 || op == nil {
			return 0, false
		}
		switch op.Text() {
		case "+":
			return l + r, true
		case "-":
			return l - r, true
		case "*":
			return l * r, true
		case "==":
			return boolInt(l == r), true
		case "!=":
			return boolInt(l != r), true
		case "<":
			return boolInt(l < r), true
		case ">":
			return boolInt(l > r), true
		case "<=":
			return boolInt(l <= r), true
		case ">=":
			return boolInt(l >= r), true
		case "&&":
			return boolInt(l != 0 && r != 0), true
		case "||":
			return boolInt(l != 0 || r != 0), true
		}
		return 0, false
	case "identifier", "qualified_identifier":
		name := n.Text()
		if scope, ok := tps[name]; ok {
			return b.Value(scope, name)
		}
		if v := localConst(fn, name, n.Start); v != nil {
			return evalUnder(v, fn, tps, b, r, depth+1)
		}
		if r != nil {
			if vals := r.EvalAll(n); len(vals) == 1 {
				return vals[0], true
			}
		}
	}
	return 0, false
}

// localConst is the initialiser of the last declaration of name in fn
// before off.
func localConst(fn *grammar.Node, name string, off uint32) *grammar.Node {
	if fn == nil {
		return nil
	}
	var out *grammar.Node
	ds := fn.Descendants()
	for i := range ds {
		d := &ds[i]
		if d.Start >= off {
			break
		}
		if d.Kind() != "init_declarator" {
			continue
		}
		if id := d.ChildByField("declarator"); id != nil && id.Kind() == "identifier" && id.Text() == name {
			out = d.ChildByField("value")
		}
	}
	return out
}
