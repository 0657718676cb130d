package rules

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The hardware SyncAll reserves flags only where it runs in the same
// execution as the flag: a kernel that chooses between a hand-made
// barrier on flag 14 and a SyncAll at compile time (`if constexpr
// (isDeterministic)`, a tiling key, an #if) never runs both, and one
// kernel of a file does not run another's code. compilePaths says, for a
// node, under which compile-time choices it can run: alternatives of
// choices (guards), one per way of reaching it from a root, built from
// the branches it sits in and its function's callers.

// guard is one compile-time choice: the test (scoped to the class or
// function whose template parameters it reads) and the branch taken, or
// the kernel entry ("entry", name).
type guard struct{ key, value string }

type guards []guard

// maxPaths bounds the alternatives kept for one node; past it the node
// is taken to run on every path (no finding lost).
const maxPaths = 64

type compilePaths struct {
	u      *unit.Unit
	funcs  *cxx.Funcs
	consts *cxx.Resolver
	files  map[*grammar.Tree]*grammar.File
	byFn   map[*grammar.Node][]guards
}

func newCompilePaths(u *unit.Unit) *compilePaths {
	p := &compilePaths{u: u, funcs: u.FuncIndex(), consts: u.Consts(), files: map[*grammar.Tree]*grammar.File{},
		byFn: map[*grammar.Node][]guards{}}
	for _, f := range u.CodeFiles() {
		p.files[f.Tree] = f
	}
	return p
}

// coRun reports whether a and b can run in one execution: some path to
// each that no compile-time choice tells apart.
func (p *compilePaths) coRun(a, b *grammar.Node) bool {
	pa, pb := p.of(a, 0), p.of(b, 0)
	for _, x := range pa {
		for _, y := range pb {
			if !x.contradicts(y) {
				return true
			}
		}
	}
	return false
}

func (g guards) contradicts(h guards) bool {
	for _, x := range g {
		for _, y := range h {
			if x.key == y.key && x.value != y.value {
				return true
			}
		}
	}
	return false
}

// of returns the paths to n: its own branches, joined with each path to
// its function.
func (p *compilePaths) of(n *grammar.Node, depth int) []guards {
	fn := cxx.EnclosingFunction(n)
	local := p.local(n, fn)
	if fn == nil {
		return []guards{local}
	}
	above := p.function(fn, depth)
	out := make([]guards, 0, len(above))
	for _, a := range above {
		out = append(out, append(append(guards(nil), local...), a...))
	}
	return out
}

// function returns the paths to fn: the kernel entry it is, or those of
// each call of it in the unit.
func (p *compilePaths) function(fn *grammar.Node, depth int) []guards {
	if g, ok := p.byFn[fn]; ok {
		return g
	}
	p.byFn[fn] = []guards{nil} // a recursive call: any path
	var out []guards
	name := cxx.FunctionName(fn)
	if f := p.files[fn.Tree()]; f != nil && unit.IsKernelFunc(f, fn) {
		out = []guards{{{"entry", name}}}
	} else if depth < 6 && name != "" {
		for _, f := range p.u.CodeFiles() {
			for _, site := range p.u.Calls(f).Named(name) {
				if !p.calls(site, fn) {
					continue
				}
				out = append(out, p.of(site, depth+1)...)
				if len(out) > maxPaths {
					out = nil
					break
				}
			}
		}
	}
	if len(out) == 0 {
		out = []guards{nil} // no caller found, or too many paths: any
	}
	p.byFn[fn] = out
	return out
}

// calls reports whether call site may call fn: a method of another class
// is not called through an object declared of this one's, nor
// unqualified from a class that has its own method of that name.
func (p *compilePaths) calls(site, fn *grammar.Node) bool {
	c, ok := cxx.AsCall(site)
	caller := cxx.EnclosingFunction(site)
	if !ok || caller == nil || caller == fn {
		return false
	}
	cls := cxx.ClassOf(fn)
	if cls == "" {
		return c.Receiver == nil
	}
	r := cxx.Unparen(c.Receiver)
	switch {
	case r == nil || r.Kind() == "this":
		from := cxx.ClassOf(caller)
		if from == "" || from == cls {
			return true
		}
		for _, d := range p.funcs.Lookup(c.Name) {
			if cxx.ClassOf(d.Node) == from {
				return false
			}
		}
		return true
	case r.Kind() == "identifier":
		t := localType(caller, r)
		return t == "" || t == "auto" || t == cls
	}
	return true
}

// localType is the class a local named like r is declared with before r
// in fn (`Kernel<T, 2> op;`), "" when none is.
func localType(fn, r *grammar.Node) string {
	body := fn.ChildByField("body")
	if body == nil {
		return ""
	}
	out := ""
	body.Walk(func(n *grammar.Node) bool {
		if n.Start >= r.Start {
			return false
		}
		if n.Kind() != "declaration" {
			return true
		}
		if blk := n.Parent(); blk != nil && !blk.Contains(r) {
			return false
		}
		for _, d := range n.ChildrenByField("declarator") {
			if cxx.DeclaredName(d) == r.Text() {
				if t := n.ChildByField("type"); t != nil {
					out = cxx.BaseName(t.Text())
				}
			}
		}
		return false
	})
	return out
}

// local lists the compile-time choices of the branches n sits in, up to
// its function: `if constexpr`, an `if` on template parameters, constants
// or tiling keys alone, and #if groups.
func (p *compilePaths) local(n, fn *grammar.Node) guards {
	var out guards
	for child, q := n, n.Parent(); q != nil && q != fn; child, q = q, q.Parent() {
		switch q.Kind() {
		case "if_statement":
			branch := child.Field()
			if branch != "consequence" && branch != "alternative" || !p.compileTime(q, fn) {
				continue
			}
			key, on := testKey(cxx.ConditionOf(q).Text())
			if branch == "alternative" {
				on = !on
			}
			out = append(out, guard{p.scope(q, fn) + key, onOff(on)})
		case "preproc_if", "preproc_elif", "preproc_ifdef":
			if child.Field() == "condition" || child.Field() == "name" {
				continue
			}
			var key string
			on := child.Field() != "alternative"
			if q.Kind() == "preproc_ifdef" {
				name := q.ChildByField("name")
				if name == nil {
					continue
				}
				key = "defined(" + name.Text() + ")"
				if strings.HasPrefix(q.Text(), "#ifndef") {
					on = !on
				}
			} else {
				cond := q.ChildByField("condition")
				if cond == nil {
					continue
				}
				var pos bool
				key, pos = testKey(cond.Text())
				on = on == pos
			}
			out = append(out, guard{"#" + key, onOff(on)})
		}
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "1"
	}
	return "0"
}

// testKey normalises a test: no spaces or outer parentheses, a leading
// `!` read as the other branch.
func testKey(t string) (string, bool) {
	t = strings.Join(strings.Fields(t), "")
	on := true
	for {
		switch {
		case strings.HasPrefix(t, "!"):
			t, on = t[1:], !on
		case strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && balanced(t[1:len(t)-1]):
			t = t[1 : len(t)-1]
		default:
			return t, on
		}
	}
}

func balanced(s string) bool {
	d := 0
	for _, c := range s {
		switch c {
		case '(':
			d++
		case ')':
			if d--; d < 0 {
				return false
			}
		}
	}
	return d == 0
}

// compileTime reports whether if statement q is decided when the kernel
// is compiled: `if constexpr`, or a test of template parameters,
// constants and tiling keys (`TILING_KEY_IS(k)`) alone.
func (p *compilePaths) compileTime(q, fn *grammar.Node) bool {
	if q.ChildOfKind("constexpr") != nil {
		return true
	}
	cond := cxx.ConditionOf(q)
	if cond == nil {
		return false
	}
	ok := true
	cond.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "call_expression":
			c, isCall := cxx.AsCall(n)
			ok = ok && isCall && c.Receiver == nil && strings.HasPrefix(c.Name, "TILING_KEY_")
			return false
		case "identifier":
			if _, known := p.consts.Eval(n); !known && (fn == nil || !cxx.IsTemplateParam(fn, n.Text())) {
				ok = false
			}
		case "field_expression", "subscript_expression", "pointer_expression", "assignment_expression", "update_expression":
			ok = false
		}
		return ok
	})
	return ok
}

// scope names what a test's template parameters belong to: the class of
// a method (its out-of-class definitions share them), else the function.
func (p *compilePaths) scope(q, fn *grammar.Node) string {
	if fn == nil {
		return ""
	}
	if cls := cxx.ClassOf(fn); cls != "" {
		return cls + ":"
	}
	return cxx.FunctionName(fn) + ":"
}
