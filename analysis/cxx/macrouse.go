package cxx

import (
	"github.com/extern-lsp/extern-lsp/grammar"
)

// A macro that carries a flag or event id as a parameter (`#define
// SIGNAL(id) AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(id)`) makes its
// calls at each use, with the use's arguments in place of the parameters.
// Its body is a function of a macro shadow (macros.go); this file finds
// the uses of such bodies and binds the parameters, so a rule judges the
// flag or event a use stands for.

// MacroUse is one use of a macro whose body the analysis reads.
type MacroUse struct {
	// Node is the use: the call `NAME(args)`, or the identifier of a
	// statement `NAME;`.
	Node *grammar.Node
	Args []*grammar.Node
	// Def is the body, a function of a macro shadow.
	Def FuncDef
	// Inner are the calls of the body with one of the names asked for,
	// in source order.
	Inner []*grammar.Node
}

// MacroBodies are the macro bodies making calls of some names, by macro
// name (Node and Args unset): found once, then looked up in each file.
type MacroBodies map[string][]MacroUse

// FindMacroBodies lists the bodies shadows hold that make at least one
// call named in names.
func FindMacroBodies(ff FileFacts, shadows []*grammar.File, names ...string) MacroBodies {
	ff = factsOr(ff)
	bodies := MacroBodies{}
	for _, sh := range shadows {
		calls := ff.Calls(sh).Named(names...)
		if len(calls) == 0 {
			continue
		}
		for _, n := range ff.Nodes(sh, "function_definition") {
			var inner []*grammar.Node
			for _, c := range calls {
				if n.Contains(c) {
					inner = append(inner, c)
				}
			}
			if len(inner) > 0 {
				name := FunctionName(n)
				bodies[name] = append(bodies[name], MacroUse{Def: FuncDef{File: sh, Node: n, Name: name}, Inner: inner})
			}
		}
	}
	return bodies
}

// UsesIn lists the uses in f of the bodies.
func (bodies MacroBodies) UsesIn(ff FileFacts, f *grammar.File) []MacroUse {
	if len(bodies) == 0 {
		return nil
	}
	ff = factsOr(ff)
	var out []MacroUse
	add := func(use *grammar.Node, args []*grammar.Node, name string) {
		for _, b := range bodies[name] {
			if b.Def.File == f && b.Def.Node.Contains(use) {
				continue // a macro never expands itself
			}
			b.Node, b.Args = use, args
			out = append(out, b)
		}
	}
	for name := range bodies {
		for _, n := range ff.Calls(f).Named(name) {
			if c, ok := AsCall(n); ok && c.Receiver == nil && !c.HasTArgs && c.Qualified == name {
				add(n, c.Args, name)
			}
		}
	}
	for _, st := range ff.Nodes(f, "expression_statement") {
		if name := StatementMacro(st); name != "" && len(bodies[name]) > 0 {
			if id := st.NamedChildren()[0]; id.Kind() == "identifier" {
				add(id, nil, name)
			}
		}
	}
	return out
}

// Bind binds the body's parameters to the values of the use's arguments.
// vals holds every parameter: nil for one whose argument has no constant
// value (or is missing).
func (u MacroUse) Bind(r *Resolver) (*Resolver, map[string][]int64) {
	vals := map[string][]int64{}
	for i, p := range Params(u.Def.Node) {
		if p.Name == "" {
			continue
		}
		if i < len(u.Args) {
			vals[p.Name] = r.EvalAll(u.Args[i])
		} else {
			vals[p.Name] = nil
		}
	}
	return r.Bind(vals), vals
}

// ArgFor returns the argument of the use a body expression stands for
// when it is just a parameter, else nil.
func (u MacroUse) ArgFor(e *grammar.Node) *grammar.Node {
	e = Unparen(e)
	if e == nil || e.Kind() != "identifier" {
		return nil
	}
	for i, p := range Params(u.Def.Node) {
		if p.Name == e.Text() && i < len(u.Args) {
			return u.Args[i]
		}
	}
	return nil
}

// unbound reports whether an id expression reads a parameter the use
// gives no constant value: the id is unknown, whatever a same-named
// constant says.
func unbound(e *grammar.Node, vals map[string][]int64) bool {
	if root := idRoot(e); root != "" {
		if v, ok := vals[root]; ok && len(v) == 0 {
			return true
		}
	}
	return false
}

// MacroFlagSites decodes the cross-core flag calls the macro uses of f
// make, one site per flag call of the body, at the use: Inner is the
// call in the body, IDNode the use's argument that carries the id (the
// body's own id expression when it is not a parameter).
func MacroFlagSites(ff FileFacts, f *grammar.File, shadows []*grammar.File, r *Resolver) []FlagSite {
	return FlagBodies(ff, shadows).FlagSites(ff, f, r)
}

// FlagBodies are the macro bodies of shadows that make flag calls: found
// once for the files of a unit (FlagSites in each).
func FlagBodies(ff FileFacts, shadows []*grammar.File) MacroBodies {
	return FindMacroBodies(ff, shadows, flagCallNames...)
}

// FlagSites are MacroFlagSites for bodies = FlagBodies(ff, shadows).
func (bodies MacroBodies) FlagSites(ff FileFacts, f *grammar.File, r *Resolver) []FlagSite {
	var out []FlagSite
	for _, u := range bodies.UsesIn(ff, f) {
		br, vals := u.Bind(r)
		for _, in := range u.Inner {
			fc, ok := AsFlagCall(in, br)
			if !ok {
				continue
			}
			if fc.IDNode != nil && unbound(fc.IDNode, vals) {
				fc.Flags = nil
			}
			s := FlagSite{File: f, FlagCall: fc, Inner: in, InnerFile: u.Def.File}
			s.Node = u.Node
			if a := u.ArgFor(fc.IDNode); a != nil {
				s.IDNode = a
			} else if fc.IDNode != nil && mentionsParam(fc.IDNode, u.Def.Node) {
				s.IDNode, s.IDInCfg = nil, false
			}
			out = append(out, s)
		}
	}
	return out
}

// mentionsParam reports whether e reads a parameter of fn.
func mentionsParam(e, fn *grammar.Node) bool {
	return mentionsAny(e, nil, Params(fn))
}
