package cxx

import (
	"slices"
	"sort"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// FileFacts gives the per-file facts the unit analyses are built from.
// Each depends on one file's parse alone, so a front end memoizes them per
// parse (analysis.Unit does, over its fact store): a unit analysed again
// after an edit rebuilds only the edited file's part and joins it with the
// others'. Direct computes them on the spot.
type FileFacts interface {
	// Nodes lists f's named nodes of the given kinds in source order.
	Nodes(f *grammar.File, kinds ...string) []*grammar.Node
	Calls(f *grammar.File) *CallIndex
	Funcs(f *grammar.File) *FileFuncs
	// FileConsts are the constants f defines (IndexConsts).
	FileConsts(f *grammar.File) *FileConsts
}

// Direct is FileFacts without memoization.
var Direct FileFacts = direct{}

type direct struct{}

func (direct) Calls(f *grammar.File) *CallIndex { return IndexCalls(f) }

func (direct) FileConsts(f *grammar.File) *FileConsts { return IndexConsts(f) }

func (direct) Nodes(f *grammar.File, kinds ...string) []*grammar.Node {
	var out []*grammar.Node
	if f == nil || f.Tree == nil {
		return nil
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		for _, k := range kinds {
			if n.Kind() == k && n.IsNamed() {
				out = append(out, n)
				break
			}
		}
	}
	return out
}
func (direct) Funcs(f *grammar.File) *FileFuncs { return IndexFileFuncs(f) }

func factsOr(ff FileFacts) FileFacts {
	if ff == nil {
		return Direct
	}
	return ff
}

// CallIndex is a file's call expressions by called name (Call.Name), so an
// analysis looking for a few APIs decodes only the calls that name them.
type CallIndex struct {
	byName map[string][]*grammar.Node
	file   *grammar.File

	eventsOnce sync.Once
	events     []fileEventOp
}

// fileEventOp is an event op decoded from its file alone: its ids are
// known when written as EVENT_IDn (literal), else resolved per unit.
type fileEventOp struct {
	op      EventOp
	literal bool
	// cores are the cores the file's own guards compile the op on.
	cores grammar.Cores
}

// eventOps decodes the file's event calls once.
func (x *CallIndex) eventOps() []fileEventOp {
	x.eventsOnce.Do(func() {
		for _, n := range x.Named(eventOpNames...) {
			if op, ok := decodeEventOp(n); ok {
				op.IDs, ok = literalEventIDs(op.IDNode)
				x.events = append(x.events, fileEventOp{op, ok, x.file.CoresOf(n)})
			}
		}
		// At its size: a file fact, kept for the file's life.
		x.events = slices.Clip(append([]fileEventOp(nil), x.events...))
	})
	return x.events
}

// IndexCalls indexes the calls of f.
func IndexCalls(f *grammar.File) *CallIndex {
	x := &CallIndex{byName: map[string][]*grammar.Node{}, file: f}
	if f == nil || f.Tree == nil {
		return x
	}
	for _, n := range f.Tree.OfKind("call_expression") {
		if c, ok := decodeCall(n, false); ok {
			x.byName[c.Name] = append(x.byName[c.Name], n)
		}
	}
	return x
}

// Named returns the calls of any of names, in source order.
func (x *CallIndex) Named(names ...string) []*grammar.Node {
	if len(names) == 1 {
		return x.byName[names[0]]
	}
	// Most names are not called in a given file: look each up, and check
	// for a repeated name only among the few that are.
	var out []*grammar.Node
	var hit []string
	var seen map[string]bool // for many names (every function of a file): a scan of hit per name is quadratic
	for _, name := range names {
		ns := x.byName[name]
		if len(ns) == 0 {
			continue
		}
		if seen != nil {
			if seen[name] {
				continue
			}
			seen[name] = true
		} else if slices.Contains(hit, name) {
			continue
		} else if len(hit) == 16 {
			seen = map[string]bool{}
			for _, h := range hit {
				seen[h] = true
			}
			seen[name] = true
		}
		hit = append(hit, name)
		out = append(out, ns...)
	}
	if len(hit) > 1 {
		sort.Slice(out, func(i, j int) bool { return out[i].Index() < out[j].Index() })
	}
	return out
}

// FileFuncs is one file's share of a Funcs index.
type FileFuncs struct {
	defs  []FuncDef
	decls []typeDecl
	// objects are the names of objects constructed in function bodies
	// with arguments (`Block blk(res, helper);`), which the grammar reads
	// as function declarations: their type is unknown, their calls opaque.
	objects []string
	// sites are the calls the file's functions make, by called name
	// (callSites), built on first need.
	sitesOnce sync.Once
	sites     map[string][]siteRef
}

// siteRef is a call site of a file's function: the call and the caller
// (defs[def]), a quarter of a CallSite's size: a file fact kept for every
// call of a file.
type siteRef struct {
	call *grammar.Node
	def  int32
}

// callSites indexes by called name the calls each function of the file
// makes itself (not a lambda's or a local class's in it) in code some core
// compiles by the file's own guards; a unit narrows them by its guards.
// A macro shadow's functions make none: they run at their uses.
func (p *FileFuncs) callSites() map[string][]siteRef {
	p.sitesOnce.Do(func() {
		type named struct {
			name string
			ref  siteRef
		}
		var all []named
		counts := map[string]int{}
		for i, d := range p.defs {
			if d.File.MacroOf != nil {
				break
			}
			var calls []*grammar.Node
			if body := d.Node.ChildByField("body"); body != nil {
				calls = body.Inside(body.Tree().OfKind("call_expression"))
			}
			for _, n := range ownCalls(d.Node, calls) {
				if d.File.CoresOf(n) == grammar.None {
					continue
				}
				if cn := CallName(n); cn != "" {
					all = append(all, named{cn, siteRef{n, int32(i)}})
					counts[cn]++
				}
			}
		}
		// Each name's list cut from one array, without append's room.
		p.sites = make(map[string][]siteRef, len(counts))
		refs := make([]siteRef, 0, len(all))
		for _, x := range all {
			l, ok := p.sites[x.name]
			if !ok {
				l, refs = refs[len(refs):len(refs):len(refs)+counts[x.name]], refs[:len(refs)+counts[x.name]]
			}
			p.sites[x.name] = append(l, x.ref)
		}
	})
	return p.sites
}

// site is the CallSite of ref.
func (p *FileFuncs) site(ref siteRef) CallSite {
	d := p.defs[ref.def]
	return CallSite{File: d.File, Call: ref.call, Caller: d}
}

// Defines reports whether the file defines a function called name.
func (ff *FileFuncs) Defines(name string) bool {
	for _, d := range ff.defs {
		if d.Name == name {
			return true
		}
	}
	return false
}

// typeDecl is one declared name (and, for a field, its class) with its
// type text.
type typeDecl struct {
	name, class, typ string
}

// IndexFileFuncs indexes the function definitions and declarations of f.
func IndexFileFuncs(f *grammar.File) *FileFuncs {
	ff := &FileFuncs{}
	if f == nil || f.Tree == nil {
		return ff
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		switch n.Kind() {
		case "function_definition":
			if name := FunctionName(n); name != "" {
				ff.defs = append(ff.defs, FuncDef{File: f, Node: n, Name: name})
			}
		case "declaration", "field_declaration", "parameter_declaration", "optional_parameter_declaration":
			ff.decls = appendDecls(ff.decls, n)
		case "function_declarator":
			p := n.Parent()
			if p == nil || p.Kind() != "declaration" || p.Ancestor("function_definition") == nil {
				continue
			}
			if d := n.ChildByField("declarator"); d != nil && d.Kind() == "identifier" {
				ff.objects = append(ff.objects, d.Text())
			}
		}
	}
	return ff
}
