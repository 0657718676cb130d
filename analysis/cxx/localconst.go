package cxx

import "github.com/extern-lsp/extern-lsp/grammar"

// maxLocalDepth bounds how far a local's initialiser is followed through
// other locals (`int base = 2; int id = base + 1;`).
const maxLocalDepth = 4

// BindLocals returns r with the locals that the arguments of call read
// bound to their values at the call: a local declared in a block around
// the call before it, initialised, and never assigned, incremented or
// address-taken after (`int id = 3;`, `const uint16_t id = kBase + 1;`) is
// that constant there. A local that is assigned again, declared without
// an initialiser, or initialised from something not constant is bound to
// no value, so a constant of the same name elsewhere in the unit is not
// read for it. r itself when the call reads no local.
func BindLocals(call *grammar.Node, r *Resolver) *Resolver {
	if r == nil || call == nil {
		return r
	}
	return bindLocals(call, call, r, 0)
}

func bindLocals(at, expr *grammar.Node, r *Resolver, depth int) *Resolver {
	fn := EnclosingFunction(at)
	if fn == nil || fn.Kind() != "function_definition" || depth > maxLocalDepth {
		return r
	}
	var vals map[string][]int64
	declared := r.localNames(fn)
	ids := []*grammar.Node{expr}
	if expr.Kind() != "identifier" {
		ids = expr.Inside(expr.Tree().OfKind("identifier"))
	}
	for _, id := range ids {
		name := id.Text()
		if _, done := vals[name]; done || declared != nil && !declared[name] {
			continue
		}
		if p := id.Parent(); p != nil && (p.Kind() == "call_expression" && id.Field() == "function" ||
			p.Kind() == "field_expression" && id.Field() == "field" || p.Kind() == "qualified_identifier") {
			continue
		}
		decl, scope := LocalDecl(name, at, fn)
		if decl == nil {
			continue
		}
		if vals == nil {
			vals = map[string][]int64{}
		}
		init := decl.ChildByField("value")
		if decl.Kind() != "init_declarator" || init == nil || assignedIn(scope, name, decl) {
			vals[name] = nil
			continue
		}
		if init.Kind() == "initializer_list" || init.Kind() == "argument_list" {
			c := init.NamedChildren()
			if len(c) != 1 {
				vals[name] = nil
				continue
			}
			init = c[0]
		}
		vals[name] = bindLocals(decl, init, r, depth+1).EvalAll(init)
	}
	if vals == nil {
		return r
	}
	return r.Bind(vals)
}

// localNames are the names declared in fn (a superset of those localDecl
// finds in it), once per function: localDecl's walk over every statement
// before a call, at each call, was quadratic in a function's length, and
// most names a flag call reads (its function, a pipe) are no local. nil
// for a resolver that keeps no memo.
func (r *Resolver) localNames(fn *grammar.Node) map[string]bool {
	if r.locals == nil {
		return nil
	}
	if v, ok := r.locals.Load(fn); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	for _, k := range [...]string{"declaration", "condition_clause"} {
		for _, c := range fn.Inside(fn.Tree().OfKind(k)) {
			for d := c.FirstChild(); d != nil; d = d.NextSibling() {
				if d.Field() != "declarator" {
					continue
				}
				if n, _, _, _, _ := Declarator(d); n != nil {
					names[n.Text()] = true
				}
			}
		}
	}
	r.locals.Store(fn, names)
	return names
}

// LocalDecl finds the declarator of a local name visible at node at: the
// last one before at in the innermost block (or for statement) of fn
// around at that declares it, and that block. nil for parameters, members
// and names declared outside fn.
func LocalDecl(name string, at, fn *grammar.Node) (decl, scope *grammar.Node) {
	for p := at.Parent(); p != nil && p != fn; p = p.Parent() {
		switch p.Kind() {
		case "compound_statement", "for_statement", "for_range_loop", "if_statement", "while_statement", "switch_statement":
		case "lambda_expression":
			return nil, nil
		default:
			continue
		}
		for c := p.FirstChild(); c != nil && c.Start < at.Start; c = c.NextSibling() {
			if c.Kind() != "declaration" && c.Kind() != "condition_clause" {
				continue
			}
			for d := c.FirstChild(); d != nil; d = d.NextSibling() {
				if d.Field() != "declarator" {
					continue
				}
				if n, _, _, _, _ := Declarator(d); n != nil && n.Text() == name {
					decl = d
				} else if n := d.ChildByField("declarator"); d.Kind() == "function_declarator" && n != nil && n.Text() == name {
					// `ns::Op<T> op(tiling, pipe);` in a body reads as a
					// function's declaration: it constructs a local.
					decl = d
				}
			}
		}
		if decl != nil {
			return decl, p
		}
	}
	return nil, nil
}

// assignedIn reports whether name is written in scope after its
// declarator (WritesOf).
func assignedIn(scope *grammar.Node, name string, decl *grammar.Node) bool {
	for _, w := range WritesOf(scope, name) {
		if w.Start >= decl.End {
			return true
		}
	}
	return false
}

// WritesOf returns the places in scope where name is written, each the
// written identifier: assigned, incremented or decremented, or its address
// taken (a pointer or reference could write it).
func WritesOf(scope *grammar.Node, name string) []*grammar.Node {
	t := scope.Tree()
	var out []*grammar.Node
	add := func(n *grammar.Node) {
		if n = Unparen(n); n != nil && n.Kind() == "identifier" && n.Text() == name {
			out = append(out, n)
		}
	}
	for _, e := range scope.Inside(t.OfKind("assignment_expression")) {
		add(e.ChildByField("left"))
	}
	for _, e := range scope.Inside(t.OfKind("update_expression")) {
		add(e.ChildByField("argument"))
	}
	for _, e := range scope.Inside(t.OfKind("pointer_expression")) {
		if operatorText(e) == "&" {
			add(e.ChildByField("argument"))
		}
	}
	return out
}

// LocalInit is the initialiser of the local an identifier names when
// BindLocals would read it as a constant (declared once before the use in
// a block around it, initialised, never written after): the place a fix
// edits to change its value. nil for anything else.
func LocalInit(id *grammar.Node) *grammar.Node {
	id = Unparen(id)
	if id == nil || id.Kind() != "identifier" {
		return nil
	}
	fn := EnclosingFunction(id)
	if fn == nil || fn.Kind() != "function_definition" {
		return nil
	}
	decl, scope := LocalDecl(id.Text(), id, fn)
	if decl == nil || decl.Kind() != "init_declarator" || assignedIn(scope, id.Text(), decl) {
		return nil
	}
	init := decl.ChildByField("value")
	if init != nil && (init.Kind() == "initializer_list" || init.Kind() == "argument_list") {
		if c := init.NamedChildren(); len(c) == 1 {
			return c[0]
		}
		return nil
	}
	return init
}
