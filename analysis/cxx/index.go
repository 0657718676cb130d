package cxx

import (
	"bytes"
	"cmp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// FileFacts gives the per-file facts the unit analyses are built from.
// Each depends on one file's parse alone, so a front end memoizes them per
// parse (unit.Unit does, over its fact store): a unit analysed again
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
	// calls are the file's decodable calls ordered by called name, then
	// in source order, names where their called names are in the source:
	// a name's calls are a run found by binary search.
	calls []*grammar.Node
	names []span
	file  *grammar.File

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
	x := &CallIndex{file: f}
	if f == nil || f.Tree == nil {
		return x
	}
	type named struct {
		name []byte
		n    *grammar.Node
	}
	all := f.Tree.OfKind("call_expression")
	keyed := make([]named, 0, len(all))
	for _, n := range all {
		if nn, ok := callNameNode(n); ok {
			k := named{n: n}
			if nn != nil {
				k.name = nn.Bytes()
			}
			keyed = append(keyed, k)
		}
	}
	// A name's calls in source order (keyed is): by name, then index, an
	// unstable sort (a stable one merged in place, n log² n).
	slices.SortFunc(keyed, func(a, b named) int {
		if c := bytes.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(a.n.Index(), b.n.Index())
	})
	x.calls = make([]*grammar.Node, len(keyed))
	x.names = make([]span, len(keyed))
	for i, k := range keyed {
		x.calls[i] = k.n
		if nn, _ := callNameNode(k.n); nn != nil {
			x.names[i] = span{nn.Start, nn.End}
		}
	}
	return x
}

// named returns the calls of name, in source order (with no room to
// append).
func (x *CallIndex) named(name string) []*grammar.Node {
	if len(x.calls) == 0 {
		return nil
	}
	src := x.file.Tree.Src
	cmp := func(s span, name string) int { return compareBytesString(src[s.start:s.end], name) }
	lo, found := slices.BinarySearchFunc(x.names, name, cmp)
	if !found {
		return nil
	}
	hi := lo + 1
	for hi < len(x.names) && cmp(x.names[hi], name) == 0 {
		hi++
	}
	return x.calls[lo:hi:hi]
}

// Has reports whether the file calls name.
func (x *CallIndex) Has(name string) bool { return len(x.named(name)) > 0 }

// equalRun is the run of the sorted s whose elements compare equal to key
// (nil for none), with no room to append: the lookup of the name-sorted
// lists that stand in for maps of lists.
func equalRun[E, K any](s []E, key K, cmp func(E, K) int) []E {
	lo, found := slices.BinarySearchFunc(s, key, cmp)
	if !found {
		return nil
	}
	hi := lo + 1
	for hi < len(s) && cmp(s[hi], key) == 0 {
		hi++
	}
	return s[lo:hi:hi]
}

// compareBytesString is bytes.Compare(b, []byte(s)) without the copy.
func compareBytesString(b []byte, s string) int {
	for i := 0; i < len(b) && i < len(s); i++ {
		if b[i] != s[i] {
			if b[i] < s[i] {
				return -1
			}
			return 1
		}
	}
	return cmp.Compare(len(b), len(s))
}

// Named returns the calls of any of names, in source order.
func (x *CallIndex) Named(names ...string) []*grammar.Node {
	if len(names) == 1 {
		return x.named(names[0])
	}
	// Most names are not called in a given file: look each up, and check
	// for a repeated name only among the few that are.
	var out []*grammar.Node
	var hit []string
	var seen map[string]bool // for many names (every function of a file): a scan of hit per name is quadratic
	for _, name := range names {
		ns := x.named(name)
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
	defs []FuncDef
	// byName are defs' indexes in name order (stable): a unit's index
	// merges its files' runs, sorting none of an unchanged file's again.
	byName []int32
	// decls are the preorder indexes in file's tree of the declarations
	// with a type (declarations, members, parameters); types and fields
	// their names' and classes' type texts (declTypes).
	file          *grammar.File
	decls         []int32
	declsOnce     sync.Once
	fieldsOnce    sync.Once
	types, fields map[string][]string
	// objects are the names of objects constructed in function bodies
	// with arguments (`Block blk(res, helper);`), which the grammar reads
	// as function declarations: their type is unknown, their calls opaque.
	objects []string
	// sites are the calls the file's functions make, ordered by called
	// name (callSites), built on first need; siteNames are their called
	// names, where they stand in the caller's source (a unit merges its
	// files' lists by them: read again per comparison, the names were
	// most of an edit's CPU in the GM read rule).
	sitesOnce sync.Once
	sites     []siteRef
	siteNames []span
	// externs are the indexes in defs of the C-linkage functions taking
	// the extern args pointer, found once per parse: a unit's summaries
	// asked it of every function of every file on each edit.
	externsOnce sync.Once
	externs     []int32
}

// externEntries are the indexes in defs of the C-linkage functions taking
// the extern args pointer.
func (p *FileFuncs) externEntries() []int32 {
	p.externsOnce.Do(func() {
		for i, d := range p.defs {
			if _, ok := ArgsParam(d.File, d.Node); ok && IsExternC(d.Node) {
				p.externs = append(p.externs, int32(i))
			}
		}
	})
	return p.externs
}

// siteRef is a call site of a file's function: the call, by its index in
// the caller's tree, and the caller (defs[def]); 8 bytes, a sixth of a
// CallSite: a file fact kept for every call of a file, and a unit keeps
// one for each call of a function it asks about.
type siteRef struct {
	call uint32
	def  int32
}

// compareSites orders sites by caller, then in source order.
func compareSites(a, b siteRef) int {
	if c := cmp.Compare(a.def, b.def); c != 0 {
		return c
	}
	return cmp.Compare(a.call, b.call)
}

// callOf is ref's call node.
func (p *FileFuncs) callOf(ref siteRef) *grammar.Node {
	return &p.defs[ref.def].Node.Tree().Nodes[ref.call]
}

// callSites returns the calls of name that each function of the file
// makes itself (not a lambda's or a local class's in it) in code some
// core compiles by the file's own guards, by caller then in source order;
// a unit narrows them by its guards. A macro shadow's functions make none:
// they run at their uses. The sites are one list ordered by called name
// (a map of names cost an entry and a list per name, most called once).
func (p *FileFuncs) callSites(name string) []siteRef {
	return equalRun(p.allSites(), name, func(r siteRef, name string) int {
		return compareBytesString(callNameBytes(p.callOf(r)), name)
	})
}

// allSites are the file's call sites (callSites), ordered by called name.
func (p *FileFuncs) allSites() []siteRef {
	p.sitesOnce.Do(func() {
		type named struct {
			name *grammar.Node
			ref  siteRef
		}
		var all []named
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
				if nn := calledIdent(n); nn != nil && nn.Start < nn.End {
					all = append(all, named{nn, siteRef{uint32(n.Index()), int32(i)}})
				}
			}
		}
		// A name's sites by caller, then in source order (as appended).
		slices.SortFunc(all, func(a, b named) int {
			if c := bytes.Compare(a.name.Bytes(), b.name.Bytes()); c != 0 {
				return c
			}
			return compareSites(a.ref, b.ref)
		})
		p.sites = make([]siteRef, len(all))
		p.siteNames = make([]span, len(all))
		for i, x := range all {
			p.sites[i], p.siteNames[i] = x.ref, span{x.name.Start, x.name.End}
		}
	})
	return p.sites
}

// siteName is the called name of allSites()[i].
func (p *FileFuncs) siteName(i int) []byte {
	sp := p.siteNames[i]
	return p.defs[p.sites[i].def].Node.Tree().Src[sp.start:sp.end]
}

// site is the CallSite of ref.
func (p *FileFuncs) site(ref siteRef) CallSite {
	d := p.defs[ref.def]
	return CallSite{File: d.File, Call: p.callOf(ref), Caller: d}
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

// declTypes maps each name the file's declarations declare to its type
// texts (each class to its fields' when fields is set), in source order
// without repeats; made once per parse, so a unit joins the files' maps.
// The two maps are made apart: a unit asking for classes' fields only
// (a drain rule's TPipe member) reads the members, not every local.
func (p *FileFuncs) declTypes(fields bool) map[string][]string {
	if fields {
		p.fieldsOnce.Do(func() { p.fields = p.indexDecls(true) })
		return p.fields
	}
	p.declsOnce.Do(func() { p.types = p.indexDecls(false) })
	return p.types
}

// indexDecls makes declTypes's map of names (of classes when fields is
// set).
func (p *FileFuncs) indexDecls(fields bool) map[string][]string {
	out := map[string][]string{}
	var buf []typeDecl
	strs := map[string]string{}
	str := func(b []byte) string {
		if s, ok := strs[string(b)]; ok {
			return s
		}
		s := string(b)
		strs[s] = s
		return s
	}
	for _, i := range p.decls {
		n := &p.file.Tree.Nodes[i]
		if fields && n.Kind() != "field_declaration" {
			continue // only a member has a class
		}
		buf = appendDecls(buf[:0], n, str)
		for _, d := range buf {
			switch {
			case fields && d.class != "":
				out[d.class] = appendString(out[d.class], d.typ)
			case !fields && d.name != "":
				out[d.name] = appendString(out[d.name], d.typ)
			}
		}
	}
	return out
}

// typeDecl is one declared name (and, for a field, its class) with its
// type text.
type typeDecl struct {
	name, class, typ string
}

// IndexFileFuncs indexes the function definitions and declarations of f.
func IndexFileFuncs(f *grammar.File) *FileFuncs {
	ff := &FileFuncs{file: f}
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
		case "declaration", "field_declaration", "parameter_declaration", "optional_parameter_declaration", "alias_declaration":
			if n.ChildByField("type") != nil {
				ff.decls = append(ff.decls, int32(i))
			}
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
	// At their size: a file fact, kept for the parse's life.
	if cap(ff.defs) > len(ff.defs)+len(ff.defs)/8 {
		ff.defs = slices.Clone(ff.defs)
	}
	ff.byName = make([]int32, len(ff.defs))
	for i := range ff.byName {
		ff.byName[i] = int32(i)
	}
	slices.SortStableFunc(ff.byName, func(a, b int32) int { return strings.Compare(ff.defs[a].Name, ff.defs[b].Name) })
	if cap(ff.decls) > len(ff.decls)+len(ff.decls)/8 {
		ff.decls = slices.Clone(ff.decls)
	}
	return ff
}
