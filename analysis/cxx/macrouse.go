package cxx

import (
	"slices"

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
	var pasting map[string]*Macro
	if p, ok := ff.(PastingMacros); ok {
		pasting = p.PastingMacros()
	}
	for name := range bodies {
		// An instance of a pasting macro is reached by the uses with its
		// pasted arguments.
		called, m := name, (*Macro)(nil)
		if base := pastedBase(name); base != "" {
			if m = pasting[base]; m == nil {
				continue
			}
			called = base
		}
		for _, n := range ff.Calls(f).Named(called) {
			if c, ok := AsCall(n); ok && c.Receiver == nil && !c.HasTArgs && c.Qualified == called && (m == nil || PastedName(m, ArgTexts(c.Args)) == name) {
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

// A macro that forwards its arguments to a call (`#define INTRINSIC(NAME,
// ...) NAME(__VA_ARGS__)`, `#define SET(...) set_flag(__VA_ARGS__)`) is
// that call at each use: `INTRINSIC(dcci, p, 1)` is `dcci(p, 1)`. Its
// shadow function (`NAME(__VA_ARGS__)`) calls a parameter, or passes the
// whole argument pack as one, so the effects are read off the use with
// the callee and arguments the expansion names (Forward).

// maxForward bounds forwarding through forwarding macros (`#define
// CALL(f, ...) INTRINSIC(f, __VA_ARGS__)`).
const maxForward = 3

// Forward returns the call a use of a forwarding macro expands to: its
// callee (a parameter's argument, or the body's own callee) with the
// use's arguments the body passes on. ok is false for a call that is not
// such a use. A macro with another definition the unit compiles is not
// forwarding: which one the build takes is unknown.
func (fs *Funcs) Forward(c Call) (Call, bool) {
	out, ok := c, false
	for range maxForward {
		next, fwd := fs.forward1(out)
		if !fwd {
			break
		}
		out, ok = next, true
	}
	return out, ok
}

func (fs *Funcs) forward1(c Call) (Call, bool) {
	if c.Receiver != nil || c.HasTArgs || c.Qualified != c.Name || c.Name == "" {
		return c, false
	}
	if fs.macroDefs != nil {
		compiled := 0
		for _, m := range fs.macroDefs(c.Name) {
			if fs.compiledAt(m.File, m.At) {
				compiled++
			}
		}
		if compiled != 1 {
			return c, false
		}
	}
	var body *grammar.Node
	var def FuncDef
	name := c.Name
	if pn, ok := fs.pastedCallee(c); ok {
		name = pn
	}
	for _, d := range fs.Lookup(name) {
		if d.File.MacroOf == nil || !fs.macroCompiled(d) {
			continue
		}
		if body != nil {
			return c, false
		}
		def, body = d, forwardedCall(d.Node)
		if body == nil {
			return c, false
		}
	}
	if body == nil {
		return c, false
	}
	inner, ok := AsCall(body)
	if !ok || inner.Receiver != nil {
		return c, false
	}
	params := Params(def.Node)
	index := func(n *grammar.Node) int {
		if n == nil || n.Kind() != "identifier" {
			return -1
		}
		for i, p := range params {
			if p.Name == n.Text() {
				return i
			}
		}
		return -1
	}
	out := Call{Node: c.Node, NameNode: c.NameNode, Name: inner.Name, Qualified: inner.Qualified, TArgs: inner.TArgs, HasTArgs: inner.HasTArgs}
	if k := index(inner.NameNode); k >= 0 && inner.Qualified == inner.Name && !inner.HasTArgs {
		// The callee is an argument: `NAME(...)` with NAME a parameter.
		if k >= len(c.Args) {
			return c, false
		}
		// It may be qualified and carry template arguments
		// (`CALL(AscendC::SyncAll<false>)`), but not be a member.
		var callee Call
		if !callee.decodeCallee(Unparen(c.Args[k])) || callee.Receiver != nil || callee.NameNode == nil || callee.NameNode.Kind() != "identifier" {
			return c, false
		}
		out.Name, out.Qualified, out.NameNode = callee.Name, callee.Qualified, callee.NameNode
		out.TArgs, out.HasTArgs = callee.TArgs, callee.HasTArgs
	} else if index(inner.NameNode) >= 0 {
		return c, false
	}
	// A body whose arguments are the parameters one for one reaches its
	// call through the shadow, as a helper's body does (the chain to the
	// call names the #define).
	spread := out.NameNode != c.NameNode
	for _, a := range inner.Args {
		i := index(a)
		if i < 0 {
			return c, false
		}
		if params[i].Name == "__VA_ARGS__" {
			spread = true
			if i < len(c.Args) {
				out.Args = append(out.Args, c.Args[i:]...)
			}
			continue
		}
		if i >= len(c.Args) {
			return c, false
		}
		out.Args = append(out.Args, c.Args[i])
	}
	return out, spread
}

// forwardedCall is the call a macro shadow's body is, when that is all it
// is (`{ NAME(__VA_ARGS__); }`), else nil.
func forwardedCall(fn *grammar.Node) *grammar.Node {
	body := fn.ChildByField("body")
	if body == nil {
		return nil
	}
	stmts := namedNonComments(body)
	if len(stmts) != 1 || stmts[0].Kind() != "expression_statement" {
		return nil
	}
	e := stmts[0].NamedChildren()
	if len(e) != 1 {
		return nil
	}
	if x := Unparen(e[0]); x.Kind() == "call_expression" {
		return x
	}
	return nil
}

// macroCompiled reports whether a macro shadow's definition is compiled
// on some core in the unit's guard model: its body sits at the offsets of
// the #define in the file holding it.
func (fs *Funcs) macroCompiled(d FuncDef) bool {
	at := d.Node.Start
	if b := d.Body(); b != nil {
		at = b.Start + 1
	}
	return fs.compiledAt(d.File.MacroOf, at)
}

// compiledAt reports whether the unit compiles offset at of f on some
// core.
func (fs *Funcs) compiledAt(f *grammar.File, at uint32) bool {
	if f == nil {
		return false
	}
	g := f.Guards
	if fs.unitGuards != nil {
		if ug := fs.unitGuards(f); ug != nil {
			g = ug
		}
	}
	return g != nil && g.CoresAt(at) != grammar.None
}

// MacroTable gives a unit's #defines by name (Funcs.Forward counts the
// definitions a unit compiles, shadowed or not).
type MacroTable interface {
	MacroDefs(name string) []*Macro
}

// ForwardedCalls is implemented by a unit that reads its forwarding
// macros: the one door through which rules that decode calls by name (a
// flag set, an event, a barrier) see `INTRINSIC(set_flag, ...)` as the
// `set_flag(...)` the summaries and call chains see (Funcs.Forward).
type ForwardedCalls interface {
	// ForwardedUses are the uses in f of forwarding macros whose
	// expansion calls one of names, each as the call it expands to (Node
	// is the use), in source order.
	ForwardedUses(f *grammar.File, names ...string) []Call
}

// ForwardingMacros are the names of the macros among shadows' functions
// whose body forwards to a call its arguments name (the callee a
// parameter, or the argument pack passed on): the macros Forward may
// rewrite a use of.
func ForwardingMacros(ff FileFacts, shadows []*grammar.File) []string {
	var out []string
	for _, sh := range shadows {
		for _, fn := range factsOr(ff).Nodes(sh, "function_definition") {
			body := forwardedCall(fn)
			if body == nil {
				continue
			}
			inner, ok := AsCall(body)
			if !ok {
				continue
			}
			params := Params(fn)
			isParam := func(n *grammar.Node) bool {
				return n != nil && n.Kind() == "identifier" && slices.ContainsFunc(params, func(p Param) bool { return p.Name == n.Text() })
			}
			if isParam(inner.NameNode) && inner.Qualified == inner.Name || slices.ContainsFunc(inner.Args, func(a *grammar.Node) bool { return a.Text() == "__VA_ARGS__" }) {
				if name := FunctionName(fn); !slices.Contains(out, name) {
					out = append(out, name)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// ForwardedUses are the uses in f of the forwarding macros (names from
// ForwardingMacros) that Forward expands to a call of one of want, each
// as that call, in source order.
func (fs *Funcs) ForwardedUses(f *grammar.File, forwarding []string, want ...string) []Call {
	if len(forwarding) == 0 {
		return nil
	}
	var out []Call
	for _, n := range factsOr(fs.ff).Calls(f).Named(forwarding...) {
		c, ok := AsCall(n)
		if !ok {
			continue
		}
		if fc, ok := fs.Forward(c); ok && slices.Contains(want, fc.Name) {
			out = append(out, fc)
		}
	}
	slices.SortStableFunc(out, func(a, b Call) int { return int(a.Node.Start) - int(b.Node.Start) })
	return out
}
