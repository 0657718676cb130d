// Package cxx is the C++ semantics of AscendC kernels that the unit model
// (analysis/unit) builds its facts from, over grammar's trees:
//
//   - constants: integer constants and template flags resolved across a
//     unit's files (Resolver, consts.go) and constant arguments followed
//     into callees (argflow.go);
//   - functions: per-file indexes of calls and definitions (index.go,
//     calls.go) and #define bodies read as functions (macros.go,
//     macrouse.go);
//   - the GM model (gm.go: which pointers and tensors address global
//     memory, through structs, aliases and helpers) and the function
//     summaries (summary.go, effect*.go, touch.go, preceding.go: loads,
//     stores, DMA, cache maintenance, barriers and what callers
//     guarantee);
//   - synchronisation: hardware barriers (barriers.go), cross-core flags
//     (flags.go, peerwindow.go) and intra-core events (events.go).
//
// It knows no rule and no workspace: a FileFacts (a unit) hands it the
// per-file indexes it memoizes.
package cxx

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Def is a named integer constant's definition.
type Def struct {
	Name  string
	File  *grammar.File
	Node  *grammar.Node // the value expression (nil for #define and implicit enum values)
	Decl  *grammar.Node // the declaring node (init_declarator, enumerator, preproc_def)
	Text  string        // #define replacement text
	Value int64         // for implicit enumerators
	Impl  bool          // Value is authoritative (implicit enumerator)
	// base is the enumerator a later one counts on from (off past it),
	// when base's value needs other files' constants.
	base *Def
	off  int64
}

// Resolver evaluates integer constant expressions against the constants of a
// file and the files it includes.
type Resolver struct {
	defs  map[string][]*Def
	depth int
	// bound are names with known values in one context (a template's
	// parameters at an instantiation, a wrapper's arguments at a call); they
	// shadow constants of the same name.
	bound map[string][]int64
	// names are the names valued in one evaluation (a fork), nil while
	// one is under way: each is valued once, and a name whose value names
	// itself (`static constexpr uint32_t M = Shape::M;`, every `M` of the
	// unit a definition of it) is cut at once. Valued again at every use,
	// a name of many definitions made an expression exponential.
	names map[string]nameVal
	// under counts the names under way in the evaluation; low is the
	// least index (their order) of one the valuing of the current name
	// met under way, -1 after a cut at the depth limit. A name that met
	// none below its own index was valued as it would be from scratch:
	// it is kept in known. Others hold for this evaluation alone.
	under, low int
	// known are the names valued from scratch, shared by every
	// evaluation with this resolver (nil: none kept): a name of many
	// definitions is valued once, not at each use. plain are those whose
	// valuing read no bound name, shared with every resolver Bind makes
	// from the same constants (a helper's body bound at each of
	// thousands of calls reads the same constants). readBound is set in
	// an evaluation once the current name's valuing read a bound name.
	known, plain *sync.Map
	readBound    bool
	// locals are the names each function declares (localNames), shared
	// like plain.
	locals *sync.Map
	// spaces holds, per name, the namespaces of its definitions, and per
	// block its `using namespace` directives (evalScoped), shared like
	// plain: read once, not at every use of a name defined thousands of
	// times.
	spaces *sync.Map
	// templates are the type aliases naming a class template instance
	// (`using Flags = Ring<8>;`), by alias name; aliases those naming
	// another name (`using Policy = grn::DefaultPolicy;`).
	templates map[string][]*grammar.Node
	aliases   map[string][]string
	// arrays are the constant arrays (`kReady[2] = {0, 1}`) and fns the
	// functions whose body returns one expression, by base name.
	arrays map[string][]*Def
	fns    map[string][]*oneReturnFunc
}

// oneReturnFunc is a function whose body is one `return expr;`
// (`uint16_t ReadyFlag(uint32_t slot) { return kBase + slot; }`): a call
// of it is its expression with its parameters bound to the arguments.
type oneReturnFunc struct {
	Node   *grammar.Node // the function_definition
	Ret    *grammar.Node // the returned expression
	Params []string      // its parameters, then its template parameters
	Args   int           // how many of Params a call passes
}

// nameSpaces are the innermost namespaces of a name's definitions, in
// definition order; one is set when they are all the same.
type nameSpaces struct {
	of  []string
	one bool
}

// nameVal is a name's values in one evaluation: under way (busy, its
// index), or valued (tainted: from a name under way below it).
type nameVal struct {
	vs      []int64
	busy    bool
	idx     int
	tainted bool
	// bound: its valuing read a bound name.
	bound bool
}

// noLow is low when no name under way was met.
const noLow = int(^uint(0) >> 1)

// MaxValues bounds the values an expression may have (`c ? a : b`, a
// name defined differently in several scopes, the constants every call of
// a helper passes): past it the expression is not treated as a constant.
// No real kernel comes near it; a machine-made file of thousands of
// kernels defining one name thousands of ways made every use of the name
// cost as much as the whole file.
const MaxValues = 64

// valueSet gathers the distinct values of an expression, at most
// MaxValues (over is set past it), in the order first seen.
type valueSet struct {
	vs   []int64
	seen map[int64]struct{}
	over bool
}

// add adds v and reports whether the set is still within MaxValues.
func (s *valueSet) add(v int64) bool {
	if s.over {
		return false
	}
	if s.seen != nil {
		if _, ok := s.seen[v]; ok {
			return true
		}
	} else {
		for _, x := range s.vs {
			if x == v {
				return true
			}
		}
	}
	if len(s.vs) == MaxValues {
		s.over, s.vs, s.seen = true, nil, nil
		return false
	}
	s.vs = append(s.vs, v)
	if s.seen != nil {
		s.seen[v] = struct{}{}
	} else if len(s.vs) == 8 {
		// Past a few values a scan costs more than a hash.
		s.seen = make(map[int64]struct{}, 16)
		for _, x := range s.vs {
			s.seen[x] = struct{}{}
		}
	}
	return true
}

// values is the set, nil when it went past MaxValues.
func (s *valueSet) values() []int64 {
	if s.over {
		return nil
	}
	return s.vs
}

// UnionValues is the union of value sets, nil past MaxValues.
func UnionValues(sets ...[]int64) []int64 {
	var s valueSet
	for _, vs := range sets {
		for _, v := range vs {
			if !s.add(v) {
				return nil
			}
		}
	}
	return s.values()
}

// Bind returns a resolver that also knows the given names' values, for
// evaluating a template or wrapper body at one call site. The receiver is
// unchanged; the constants are shared.
func (r *Resolver) Bind(vals map[string][]int64) *Resolver {
	b := make(map[string][]int64, len(r.bound)+len(vals))
	for k, v := range r.bound {
		b[k] = v
	}
	for k, v := range vals {
		b[k] = v
	}
	return &Resolver{defs: r.defs, bound: b, known: &sync.Map{}, plain: r.plain, locals: r.locals, spaces: r.spaces, templates: r.templates, aliases: r.aliases, arrays: r.arrays, fns: r.fns}
}

// NewResolver indexes the constants of files; earlier files win on
// conflicts only when later ones do not redefine (last definition wins, as
// the files are listed in include order with the main file last).
func NewResolver(files ...*grammar.File) *Resolver { return NewResolverFrom(Direct, files...) }

// NewResolverFrom is NewResolver over the files' shares ff memoizes: a
// unit's resolver after an edit indexes the edited file only.
func NewResolverFrom(ff FileFacts, files ...*grammar.File) *Resolver {
	ff = factsOr(ff)
	parts := make([]*FileConsts, 0, len(files))
	for _, f := range files {
		if f != nil && f.Lang == grammar.CPP && f.Tree != nil {
			parts = append(parts, ff.FileConsts(f))
		}
	}
	return JoinConsts(parts...)
}

// Lookup returns the definitions of a name (last component of a qualified
// name), most recent last.
func (r *Resolver) Lookup(name string) []*Def {
	if i := strings.LastIndex(name, "::"); i >= 0 {
		name = name[i+2:]
	}
	return r.defs[name]
}

// FileConsts are the constant definitions of one file, indexed from the
// file alone so they are shared by every resolver over the file.
type FileConsts struct {
	defs map[string][]*Def
	// enums are the enumerators whose value needs the constants of the
	// resolver's other files (`B = A + 1` and those counted on from it),
	// in source order: JoinConsts values them.
	enums []*Def
	count int
	// templates are the aliases of class template instances the file
	// declares (Resolver.templates), aliases its aliases of other names
	// (Resolver.aliases).
	templates map[string][]*grammar.Node
	aliases   map[string][]string
	// arrays and fns: Resolver's, the file's own.
	arrays map[string][]*Def
	fns    map[string][]*oneReturnFunc
}

// IndexConsts indexes the constants f defines.
func IndexConsts(f *grammar.File) *FileConsts {
	fc := &FileConsts{defs: map[string][]*Def{}}
	if f == nil || f.Lang != grammar.CPP || f.Tree == nil {
		return fc
	}
	add := func(d *Def) {
		fc.defs[d.Name] = append(fc.defs[d.Name], d)
		fc.count++
	}
	// Literal enumerator values are valued here; a value naming another
	// constant waits for the resolver's other files.
	literal := &Resolver{}
	nodes := f.Tree.Nodes
	for i := range nodes {
		n := &nodes[i]
		switch n.Kind() {
		case "init_declarator":
			decl := n.Parent()
			if decl == nil || (decl.Kind() != "declaration" && decl.Kind() != "field_declaration") || !isConstDecl(decl) {
				continue
			}
			name := n.ChildByField("declarator")
			val := n.ChildByField("value")
			if fc.addArray(f, n, name, val) {
				continue
			}
			if name == nil || val == nil || name.Kind() != "identifier" && name.Kind() != "field_identifier" {
				continue
			}
			if val.Kind() == "initializer_list" {
				if c := val.NamedChildren(); len(c) == 1 {
					val = c[0]
				} else {
					continue
				}
			}
			add(&Def{Name: name.Text(), File: f, Node: val, Decl: n})
		case "field_declaration":
			// static constexpr int32_t kX = 3; inside a struct has the value
			// as a field "default_value".
			if !isConstDecl(n) {
				continue
			}
			name := n.ChildByField("declarator")
			val := n.ChildByField("default_value")
			if fc.addArray(f, n, name, val) {
				continue
			}
			if name != nil && val != nil && (name.Kind() == "field_identifier" || name.Kind() == "identifier") {
				add(&Def{Name: name.Text(), File: f, Node: val, Decl: n})
			}
		case "function_definition":
			if name := zeroDefaultMember(n); name != nil {
				// `static constexpr uint16_t kReady = 0;` in a class.
				if isConstDecl(n) {
					add(&Def{Name: name.Text(), File: f, Decl: n, Value: 0, Impl: true})
				}
			} else if vf := valueFunc(n); vf != nil {
				if fc.fns == nil {
					fc.fns = map[string][]*oneReturnFunc{}
				}
				name := FunctionName(n)
				fc.fns[name] = append(fc.fns[name], vf)
			}
		case "enumerator_list":
			next := int64(0)
			known := true
			// base is the last explicit value when it names constants; off
			// counts the enumerators after it.
			var base *Def
			off := int64(0)
			for _, e := range n.NamedChildren() {
				if e.Kind() != "enumerator" {
					continue
				}
				name := e.ChildByField("name")
				if name == nil {
					continue
				}
				d := &Def{Name: name.Text(), File: f, Decl: e}
				if v := e.ChildByField("value"); v != nil {
					d.Node = v
					base, off = nil, 0
					if val, ok := literal.Eval(v); ok {
						next, known = val+1, true
						d.Value, d.Impl = val, true
					} else {
						known = false
						base = d
						fc.enums = append(fc.enums, d)
					}
				} else if known {
					d.Value, d.Impl = next, true
					next++
				} else if base != nil {
					off++
					d.base, d.off = base, off
					fc.enums = append(fc.enums, d)
				}
				add(d)
			}
		case "preproc_def":
			name := n.ChildByField("name")
			val := n.ChildByField("value")
			if name != nil && val != nil {
				add(&Def{Name: name.Text(), File: f, Decl: n, Text: MacroValue(val.Text())})
			}
		case "alias_declaration", "type_definition":
			// `using Flags = Ring<8>;`, `typedef Ring<8> Flags;`
			name, t := n.ChildByField("name"), n.ChildByField("type")
			if n.Kind() == "type_definition" {
				name = n.ChildByField("declarator")
			}
			if t != nil && t.Kind() == "type_descriptor" {
				t = t.ChildByField("type")
			}
			// `grn::RingPolicy<>`: the instance under its namespace.
			for t != nil && t.Kind() == "qualified_identifier" {
				t = t.ChildByField("name")
			}
			if name != nil && t != nil && (t.Kind() == "type_identifier" || t.Kind() == "identifier") && t.Text() != name.Text() {
				// `using Policy = grn::DefaultPolicy;`: an alias of an
				// alias, followed where an instance is looked up.
				if fc.aliases == nil {
					fc.aliases = map[string][]string{}
				}
				fc.aliases[name.Text()] = append(fc.aliases[name.Text()], t.Text())
				continue
			}
			if name == nil || t == nil || t.Kind() != "template_type" {
				continue
			}
			if fc.templates == nil {
				fc.templates = map[string][]*grammar.Node{}
			}
			fc.templates[name.Text()] = append(fc.templates[name.Text()], t)
		}
	}
	return fc
}

// JoinConsts is the resolver over files' constants, the files in order.
// An enumerator valued from other constants is valued here, against every
// file's constants and the enumerators valued before it.
func JoinConsts(parts ...*FileConsts) *Resolver {
	n := 0
	for _, p := range parts {
		n += len(p.defs)
	}
	// Names that read an unknown one are kept apart from plain: a
	// resolver Bind makes may know it (a class template's parameter).
	r := &Resolver{defs: make(map[string][]*Def, n), known: &sync.Map{}, plain: &sync.Map{}, locals: &sync.Map{}, spaces: &sync.Map{}}
	for _, p := range parts {
		for name, ds := range p.defs {
			// Never appended to in place: the parts are shared.
			r.defs[name] = append(r.defs[name], ds...)
		}
		for name, ts := range p.templates {
			if r.templates == nil {
				r.templates = map[string][]*grammar.Node{}
			}
			r.templates[name] = append(r.templates[name], ts...)
		}
		for name, as := range p.aliases {
			if r.aliases == nil {
				r.aliases = map[string][]string{}
			}
			r.aliases[name] = append(r.aliases[name], as...)
		}
		for name, ds := range p.arrays {
			if r.arrays == nil {
				r.arrays = map[string][]*Def{}
			}
			r.arrays[name] = append(r.arrays[name], ds...)
		}
		for name, vfs := range p.fns {
			if r.fns == nil {
				r.fns = map[string][]*oneReturnFunc{}
			}
			r.fns[name] = append(r.fns[name], vfs...)
		}
	}
	var valued map[*Def]*Def
	for _, p := range parts {
		for _, d := range p.enums {
			var v int64
			if d.base == nil {
				val, ok := r.Eval(d.Node)
				if !ok {
					continue
				}
				v = val
			} else if b := valued[d.base]; b != nil {
				v = b.Value + d.off
			} else {
				continue
			}
			c := *d
			c.Value, c.Impl, c.base = v, true, nil
			ds := r.defs[d.Name]
			for i := range ds {
				if ds[i] == d {
					ds[i] = &c
				}
			}
			if valued == nil {
				valued = map[*Def]*Def{}
			}
			valued[d] = &c
		}
	}
	return r
}

// MacroValue is a #define's replacement text without the comments the
// parser keeps in it (`#define FLAG 12 // note`) and surrounding space.
func MacroValue(text string) string {
	for {
		i := strings.Index(text, "/*")
		j := strings.Index(text, "//")
		switch {
		case j >= 0 && (i < 0 || j < i):
			return strings.TrimSpace(text[:j])
		case i >= 0:
			k := strings.Index(text[i+2:], "*/")
			if k < 0 {
				return strings.TrimSpace(text[:i])
			}
			text = text[:i] + " " + text[i+2+k+2:]
		default:
			return strings.TrimSpace(text)
		}
	}
}

func isConstDecl(decl *grammar.Node) bool {
	for c := decl.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() == "type_qualifier" {
			t := c.Text()
			if t == "const" || t == "constexpr" {
				return true
			}
		}
		if c.Field() == "declarator" {
			break
		}
	}
	return false
}

// Eval evaluates an integer constant expression.
func (r *Resolver) Eval(n *grammar.Node) (int64, bool) {
	vs := r.EvalAll(n)
	if len(vs) == 1 {
		return vs[0], true
	}
	return 0, false
}

// EvalAll evaluates an expression to its possible values: one for a
// constant, two for `cond ? a : b` with an unknown condition, none when it
// is not constant.
func (r *Resolver) EvalAll(n *grammar.Node) []int64 {
	e := r.fork()
	return e.evalAll(n)
}

// fork is a copy of the resolver for one evaluation: the recursion depth
// lives in the copy, so one resolver serves any number of goroutines.
func (r *Resolver) fork() *Resolver {
	e := *r
	e.depth = 0
	e.names, e.under, e.low, e.readBound = nil, 0, noLow, false
	return &e
}

func (r *Resolver) evalAll(n *grammar.Node) []int64 {
	if n == nil {
		return nil
	}
	if r.depth > 32 {
		r.low = -1
		return nil
	}
	r.depth++
	defer func() { r.depth-- }()
	switch n.Kind() {
	case "number_literal":
		if v, ok := ParseInt(n.Text()); ok {
			return []int64{v}
		}
	case "true":
		return []int64{1}
	case "null", "nullptr":
		// nullptr and NULL compare as the address 0.
		return []int64{0}
	case "false":
		return []int64{0}
	case "char_literal":
		t := n.Text()
		if len(t) == 3 {
			return []int64{int64(t[1])}
		}
	case "parenthesized_expression", "condition_clause":
		if c := n.NamedChildren(); len(c) == 1 {
			return r.evalAll(c[0])
		}
	case "identifier", "qualified_identifier", "field_identifier", "type_identifier":
		if vs, ok := r.evalTemplateMember(n); ok {
			return vs
		}
		if vs, ok := r.evalScoped(n); ok {
			return vs
		}
		return r.evalName(n.Text())
	case "type_descriptor":
		// A template argument the parser read as a type: `SyncAll<kFlag>()`.
		if c := n.NamedChildren(); len(c) == 1 {
			return r.evalAll(c[0])
		}
	case "field_expression":
		// Struct::member through an object; resolve the member name.
		if f := n.ChildByField("field"); f != nil {
			return r.evalName(f.Text())
		}
	case "unary_expression":
		op := n.ChildByField("operator")
		vs := r.evalAll(n.ChildByField("argument"))
		if op == nil {
			return nil
		}
		out := make([]int64, 0, len(vs))
		for _, v := range vs {
			switch op.Text() {
			case "-":
				out = append(out, -v)
			case "+":
				out = append(out, v)
			case "~":
				out = append(out, ^v)
			case "!":
				out = append(out, b2i(v == 0))
			default:
				return nil
			}
		}
		return out
	case "binary_expression":
		op := n.ChildByField("operator")
		ls := r.evalAll(n.ChildByField("left"))
		rs := r.evalAll(n.ChildByField("right"))
		if op != nil && (op.Text() == "&&" || op.Text() == "||") {
			// One side decides a short circuit, even when the other is
			// unknown: `p == nullptr || n == 0` with p null is true.
			if v, ok := shortCircuit(op.Text() == "||", ls, rs); ok {
				return []int64{v}
			}
		}
		if op != nil && len(ls) == 0 && len(rs) == 1 && isCounter(n.ChildByField("left")) {
			// `it % kStages`, `produced & 1`: the slots a ring's counter
			// steps through.
			if vs := residues(op.Text(), rs[0]); vs != nil {
				return vs
			}
		}
		if op == nil || len(ls) == 0 || len(rs) == 0 {
			return nil
		}
		if vs, ok := r.evalBranchwise(op.Text(), n.ChildByField("left"), n.ChildByField("right")); ok {
			return vs
		}
		var out valueSet
		for _, a := range ls {
			for _, b := range rs {
				v, ok := BinOp(op.Text(), a, b)
				if !ok || !out.add(v) {
					return nil
				}
			}
		}
		return out.values()
	case "conditional_expression":
		conds := r.evalAll(n.ChildByField("condition"))
		a := r.evalAll(n.ChildByField("consequence"))
		b := r.evalAll(n.ChildByField("alternative"))
		if len(conds) == 1 {
			if conds[0] != 0 {
				return a
			}
			return b
		}
		if len(a) == 0 || len(b) == 0 {
			return nil
		}
		return UnionValues(a, b)
	case "cast_expression":
		return r.evalAll(n.ChildByField("value"))
	case "call_expression":
		// static_cast<T>(x), T(x), uint16_t(x)
		fn := n.ChildByField("function")
		args := n.ChildByField("arguments")
		if fn == nil || args == nil {
			return nil
		}
		name := fn.Text()
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = name[:i]
		}
		switch strings.TrimSpace(name) {
		case "static_cast", "int", "int32_t", "uint32_t", "int64_t", "uint64_t", "uint16_t", "int16_t", "uint8_t", "int8_t", "size_t":
			if a := args.NamedChildren(); len(a) == 1 {
				return r.evalAll(a[0])
			}
		}
		return r.evalCall(fn, args)
	case "subscript_expression":
		return r.evalSubscript(n)
	case "sizeof_expression":
		// `sizeof(int32_t)`, `sizeof(T *)`: scalar types and pointers
		// only (a struct's size is its layout's, not known here).
		if td := n.ChildByField("type"); td != nil && td.Kind() == "type_descriptor" {
			if d := td.ChildByField("declarator"); d != nil {
				if d.Kind() == "abstract_pointer_declarator" && len(d.NamedChildren()) == 0 {
					return []int64{8}
				}
				return nil
			}
			if sz, ok := ScalarSizes[BaseTypeName(td)]; ok {
				return []int64{sz}
			}
		}
		// `sizeof(half)`: a type name the parser cannot tell from a
		// variable's.
		if v := n.ChildByField("value"); v != nil {
			if id := Unparen(v); id != nil && id.Kind() == "identifier" {
				if sz, ok := ScalarSizes[id.Text()]; ok {
					return []int64{sz}
				}
			}
		}
	case "initializer_list":
		if c := n.NamedChildren(); len(c) == 1 {
			return r.evalAll(c[0])
		}
	}
	return nil
}

// shortCircuit decides `a || b` (or) or `a && b` when either side's
// possible values all decide it: some side always true for ||, always
// false for &&. The sides may be unknown (no values).
func shortCircuit(or bool, ls, rs []int64) (int64, bool) {
	decides := func(vs []int64) bool {
		if len(vs) == 0 {
			return false
		}
		for _, v := range vs {
			if (v != 0) != or {
				return false
			}
		}
		return true
	}
	if decides(ls) || decides(rs) {
		return b2i(or), true
	}
	return 0, false
}

func (r *Resolver) evalName(name string) []int64 {
	if v, ok := r.bound[name]; ok {
		r.readBound = true
		return v
	}
	defs := r.Lookup(name)
	if len(defs) == 0 {
		// Unknown here, it may be a parameter another context binds (a
		// class template's, valued through `Ring<8>::kReady`): what
		// reads it is not shared with the resolvers Bind makes.
		r.readBound = true
		return nil
	}
	if len(defs) == 1 && defs[0].Node == nil {
		return r.evalDef(defs[0])
	}
	key := name
	if i := strings.LastIndex(name, "::"); i >= 0 {
		key = name[i+2:]
	}
	if nv, ok := r.names[key]; ok {
		if nv.busy {
			r.low = min(r.low, nv.idx)
		} else if nv.tainted {
			r.low = -1
		}
		r.readBound = r.readBound || nv.bound
		return nv.vs
	}
	for _, m := range [2]*sync.Map{r.plain, r.known} {
		if m == nil {
			continue
		}
		if vs, ok := m.Load(key); ok {
			if m != r.plain {
				r.readBound = true
			}
			return vs.([]int64)
		}
	}
	if r.names == nil {
		r.names = map[string]nameVal{}
	}
	// Under way: a use inside its own definitions is cut.
	idx := r.under
	r.under++
	r.names[key] = nameVal{busy: true, idx: idx}
	outer, outerBound := r.low, r.readBound
	r.low, r.readBound = noLow, false
	// The most recent definition wins; several distinct values (the same
	// name in different scopes) make the name ambiguous.
	var out valueSet
	for i := len(defs) - 1; i >= 0 && !out.over; i-- {
		for _, v := range r.evalDef(defs[i]) {
			if !out.add(v) {
				break
			}
		}
	}
	r.under--
	vs := out.values()
	fresh := r.low >= idx
	r.names[key] = nameVal{vs: vs, tainted: !fresh, bound: r.readBound}
	if fresh {
		switch {
		case !r.readBound && r.plain != nil:
			r.plain.Store(key, vs)
		case r.known != nil:
			r.known.Store(key, vs)
		}
		r.low = outer
	} else {
		r.low = min(r.low, outer)
	}
	r.readBound = r.readBound || outerBound
	return vs
}

// evalScoped evaluates a name defined in several namespaces with the
// definitions the use can see: a qualified name's namespace
// (`vec::kReady`), else the namespaces around the use and those a `using
// namespace` before it in its blocks or namespaces names. ok is false when
// that leaves the choice as open as the name alone (evalName decides).
func (r *Resolver) evalScoped(n *grammar.Node) ([]int64, bool) {
	name := n.Text()
	if _, ok := r.bound[name]; ok {
		return nil, false
	}
	defs := r.Lookup(name)
	if len(defs) < 2 {
		return nil, false
	}
	ns := r.namespacesOf(name, defs)
	if ns.one {
		return nil, false
	}
	spaces := ns.of
	var visible []string
	if i := strings.LastIndex(name, "::"); i >= 0 {
		visible = []string{BaseName(name[:i])}
	} else {
		visible = r.visibleNamespaces(n)
	}
	var out valueSet
	picked := 0
	for i := len(defs) - 1; i >= 0 && !out.over; i-- {
		if spaces[i] == "" || !slices.Contains(visible, spaces[i]) {
			continue
		}
		picked++
		for _, v := range r.evalDef(defs[i]) {
			if !out.add(v) {
				break
			}
		}
	}
	if picked == 0 || picked == len(defs) {
		return nil, false
	}
	return out.values(), true
}

// evalTemplateMember evaluates a class template's constant member named
// through an instance, `Ring<8>::kReady` (`static constexpr int kReady =
// kBase + 4;` in `template <int kBase, int kSlots = 2> struct Ring`): the
// member's definition with the class's parameters bound to the arguments
// written, else to their defaults. ok is false for other names, and when
// no definition of the member is in a class template of that name.
func (r *Resolver) evalTemplateMember(n *grammar.Node) ([]int64, bool) {
	if n.Kind() != "qualified_identifier" {
		return nil, false
	}
	scope, member := n.ChildByField("scope"), n.ChildByField("name")
	if scope == nil || member == nil || member.Kind() != "identifier" {
		return nil, false
	}
	scope = r.instance(scope)
	if scope == nil {
		return nil, false
	}
	cls := scope.ChildByField("name")
	if cls == nil {
		return nil, false
	}
	var out valueSet
	found := false
	for _, d := range r.Lookup(member.Text()) {
		spec := templateClassOf(d, BaseName(cls.Text()))
		if spec == nil || d.Node == nil {
			continue
		}
		found = true
		b := r.Bind(r.instanceBinds(spec, scope))
		b.depth = r.depth
		vs := b.evalAll(d.Node)
		if len(vs) == 0 {
			return nil, false
		}
		for _, v := range vs {
			if !out.add(v) {
				return nil, false
			}
		}
	}
	if !found {
		return nil, false
	}
	return out.values(), true
}

// classBinds values the parameters of the class template whose static
// member function def a call names through an instance (`Ring<3>::Free`,
// or an alias of one: `using Ring = AccRing<3>; Ring::Free`): the
// arguments written, else the defaults. Nil for any other call.
func (r *Resolver) classBinds(fn, def *grammar.Node) map[string][]int64 {
	if fn.Kind() != "qualified_identifier" {
		return nil
	}
	scope := r.instance(fn.ChildByField("scope"))
	if scope == nil {
		return nil
	}
	cls := scope.ChildByField("name")
	spec := def.Ancestor("class_specifier", "struct_specifier")
	if cls == nil || spec == nil || spec.Parent() == nil || spec.Parent().Kind() != "template_declaration" {
		return nil
	}
	if name := spec.ChildByField("name"); name == nil || name.Text() != BaseName(cls.Text()) {
		return nil
	}
	return r.instanceBinds(spec, scope)
}

// instance is the class template instance a scope names: written
// (`Ring<8>`), or through an alias of one (`using Flags = Ring<8>;`
// then `Flags`); nil for anything else.
func (r *Resolver) instance(scope *grammar.Node) *grammar.Node {
	if scope == nil {
		return nil
	}
	if scope.Kind() == "template_type" {
		return scope
	}
	if ts := r.templates[scope.Text()]; len(ts) == 1 {
		return ts[0]
	}
	// Through aliases of aliases, each naming one other (a bounded chain).
	name := BaseName(scope.Text())
	for range 8 {
		as := r.aliases[name]
		if len(as) != 1 {
			return nil
		}
		name = as[0]
		if ts := r.templates[name]; len(ts) == 1 {
			return ts[0]
		}
	}
	return nil
}

// instanceBinds values the parameters of class template spec at instance
// inst: the arguments written, else the defaults (each read with the
// parameters before it bound).
func (r *Resolver) instanceBinds(spec, inst *grammar.Node) map[string][]int64 {
	var args []*grammar.Node
	if al := inst.ChildByField("arguments"); al != nil {
		args = al.NamedChildren()
	}
	binds := map[string][]int64{}
	for i, tp := range templateParams(spec) {
		var vs []int64
		switch {
		case i < len(args):
			vs = r.evalAll(args[i])
		case tp.def != nil:
			vs = r.Bind(binds).evalAll(tp.def)
		}
		if len(vs) == 1 && tp.name != "" {
			binds[tp.name] = vs
		}
	}
	return binds
}

// templateClassOf returns the class or struct of a class template named
// cls that declares constant d as a member, or nil.
func templateClassOf(d *Def, cls string) *grammar.Node {
	if d.Decl == nil {
		return nil
	}
	for p := d.Decl.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "class_specifier", "struct_specifier":
			name := p.ChildByField("name")
			if name == nil || name.Text() != cls || p.Parent() == nil || p.Parent().Kind() != "template_declaration" {
				return nil
			}
			return p
		case "function_definition", "compound_statement", "translation_unit":
			return nil
		}
	}
	return nil
}

// namespacesOf reads the namespaces of a name's definitions, once per
// name when the resolver shares a table.
func (r *Resolver) namespacesOf(name string, defs []*Def) *nameSpaces {
	key := name
	if i := strings.LastIndex(name, "::"); i >= 0 {
		key = name[i+2:]
	}
	if r.spaces != nil {
		if v, ok := r.spaces.Load(key); ok {
			return v.(*nameSpaces)
		}
	}
	ns := &nameSpaces{of: make([]string, len(defs)), one: true}
	for i, d := range defs {
		if d.Decl != nil {
			ns.of[i] = EnclosingNamespace(d.Decl)
		}
		ns.one = ns.one && ns.of[i] == ns.of[0]
	}
	if ns.one {
		ns.of = nil
	}
	if r.spaces != nil {
		r.spaces.Store(key, ns)
	}
	return ns
}

// visibleNamespaces are the namespaces a use at n sees names of: those
// around it, and those a `using namespace X;` names in a block or
// namespace around it, before it.
func (r *Resolver) visibleNamespaces(n *grammar.Node) []string {
	var out []string
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		switch p.Kind() {
		case "namespace_definition":
			if name := p.ChildByField("name"); name != nil {
				out = append(out, BaseName(name.Text()))
			}
		case "compound_statement", "declaration_list", "translation_unit":
			for _, u := range r.usingsIn(p) {
				if u.at >= child.Start {
					break
				}
				out = append(out, u.ns)
			}
		}
	}
	return out
}

// usingDirective is a `using namespace ns;` of a block, at its offset.
type usingDirective struct {
	at uint32
	ns string
}

// usingsIn lists the `using namespace` directives among block's
// statements, once per block when the resolver shares a table: a file of
// thousands of top-level namespaces is not rescanned at every use.
func (r *Resolver) usingsIn(block *grammar.Node) []usingDirective {
	if r.spaces != nil {
		if v, ok := r.spaces.Load(block); ok {
			return v.([]usingDirective)
		}
	}
	var out []usingDirective
	for _, st := range block.NamedChildren() {
		if st.Kind() == "using_declaration" && strings.HasPrefix(strings.TrimSpace(st.Text()), "using namespace") {
			if c := st.NamedChildren(); len(c) > 0 {
				out = append(out, usingDirective{st.Start, BaseName(c[len(c)-1].Text())})
			}
		}
	}
	if r.spaces != nil {
		r.spaces.Store(block, out)
	}
	return out
}

func (r *Resolver) evalDef(d *Def) []int64 {
	if d.Impl {
		return []int64{d.Value}
	}
	if d.Node != nil {
		return r.evalAll(d.Node)
	}
	if d.Text != "" {
		if v, ok := r.evalText(d.Text); ok {
			return []int64{v}
		}
	}
	return nil
}

// evalBranchwise combines two names defined in the branches of one #if
// group branch by branch: `#if A5 M = 0; R = 4; #else M = 8; R = 2;
// #endif` makes `M + R` 4 or 10, never 2 or 12, since no compile sees
// one branch's M beside the other's R. ok is false unless both sides are
// names each defined once in every branch of one group.
func (r *Resolver) evalBranchwise(op string, left, right *grammar.Node) ([]int64, bool) {
	left, right = Unparen(left), Unparen(right)
	if left == nil || right == nil || left.Kind() != "identifier" || right.Kind() != "identifier" {
		return nil, false
	}
	if _, ok := r.bound[left.Text()]; ok {
		return nil, false
	}
	if _, ok := r.bound[right.Text()]; ok {
		return nil, false
	}
	lb, lg := defsByBranch(r.Lookup(left.Text()))
	rb, rg := defsByBranch(r.Lookup(right.Text()))
	if lg == nil || lg != rg || len(lb) != len(rb) {
		return nil, false
	}
	var out valueSet
	for br, ld := range lb {
		rd, ok := rb[br]
		if !ok {
			return nil, false
		}
		for _, a := range r.evalDef(ld) {
			for _, b := range r.evalDef(rd) {
				v, ok := BinOp(op, a, b)
				if !ok || !out.add(v) {
					return nil, true
				}
			}
		}
	}
	return out.values(), true
}

// defsByBranch maps each of a name's definitions to the #if branch holding
// it, when there are several, each in its own branch of one group (the
// group returned); nil otherwise.
func defsByBranch(defs []*Def) (map[*grammar.Node]*Def, *grammar.Node) {
	if len(defs) < 2 {
		return nil, nil
	}
	out := map[*grammar.Node]*Def{}
	var group *grammar.Node
	for _, d := range defs {
		if d.Decl == nil {
			return nil, nil
		}
		br, g := preprocBranch(d.Decl)
		if br == nil || group != nil && g != group || out[br] != nil {
			return nil, nil
		}
		group, out[br] = g, d
	}
	return out, group
}

// preprocBranch is the conditional branch holding n (the #if, #elif or
// #else node) and its group (the outermost #if of the chain); nil, nil
// outside any.
func preprocBranch(n *grammar.Node) (branch, group *grammar.Node) {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef", "preproc_else":
			branch = p
		default:
			continue
		}
		break
	}
	if branch == nil {
		return nil, nil
	}
	group = branch
	for group.Parent() != nil && IsPreprocBranch(group.Parent().Kind()) && group.Kind() != "preproc_if" && group.Kind() != "preproc_ifdef" {
		group = group.Parent()
	}
	return branch, group
}

// EvalText evaluates a macro replacement text.
func (r *Resolver) EvalText(text string) (int64, bool) {
	e := r.fork()
	return e.evalText(text)
}

func (r *Resolver) evalText(text string) (int64, bool) {
	if r.depth > 32 {
		r.low = -1
		return 0, false
	}
	r.depth++
	defer func() { r.depth-- }()
	p := &textParser{toks: grammar.TokenizeExpr(text, true), r: r}
	v, ok := p.expr(0)
	if !ok || p.pos != len(p.toks) {
		return 0, false
	}
	return v, true
}

// ParseInt parses a C++ integer literal.
func ParseInt(s string) (int64, bool) {
	s = strings.ReplaceAll(s, "'", "")
	s = strings.TrimRight(s, "uUlLzZ")
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, false
	}
	return int64(v), true
}

// BinOp applies a C++ binary operator to constants.
func BinOp(op string, a, b int64) (int64, bool) { return grammar.BinOp(op, a, b) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func appendUnique(s []int64, v int64) []int64 {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

type textParser struct {
	toks []string
	pos  int
	r    *Resolver
}

func (p *textParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *textParser) expr(min int) (int64, bool) {
	lhs, ok := p.unary()
	if !ok {
		return 0, false
	}
	for {
		op := p.peek()
		prec, isOp := grammar.BinaryPrecedence[op]
		if !isOp || prec <= min {
			return lhs, true
		}
		p.pos++
		rhs, ok := p.expr(prec)
		if !ok {
			return 0, false
		}
		if lhs, ok = BinOp(op, lhs, rhs); !ok {
			return 0, false
		}
	}
}

func (p *textParser) unary() (int64, bool) {
	t := p.peek()
	p.pos++
	switch t {
	case "-":
		v, ok := p.unary()
		return -v, ok
	case "+":
		return p.unary()
	case "~":
		v, ok := p.unary()
		return ^v, ok
	case "!":
		v, ok := p.unary()
		return b2i(v == 0), ok
	case "(":
		// A cast like (uint16_t)3 or a parenthesized expression.
		if p.pos+1 < len(p.toks) && p.toks[p.pos+1] == ")" && isTypeName(p.toks[p.pos]) {
			p.pos += 2
			return p.unary()
		}
		v, ok := p.expr(0)
		if !ok || p.peek() != ")" {
			return 0, false
		}
		p.pos++
		return v, true
	case "":
		return 0, false
	}
	if t[0] >= '0' && t[0] <= '9' {
		return ParseInt(t)
	}
	if t == "true" {
		return 1, true
	}
	if t == "false" {
		return 0, true
	}
	vs := p.r.evalName(t)
	if len(vs) == 1 {
		return vs[0], true
	}
	return 0, false
}

func isTypeName(s string) bool {
	switch s {
	case "int", "unsigned", "long", "short", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t":
		return true
	}
	return false
}

// maxResidues bounds the values `n % k` stands for when n is not a
// constant: a ring of slots, not a hash.
const maxResidues = 16

// residues are the values of `n % k` (0..k-1) or of a ping-pong or quad
// parity `n & 1`, `n & 3` for an unknown, non-negative counter n; nil
// past maxResidues, for a wider mask (`cfg & 0xF` takes a field apart)
// or another operator.
func residues(op string, k int64) []int64 {
	switch {
	case op == "&" && (k == 1 || k == 3):
		k++
	case op != "%":
		return nil
	}
	if k < 1 || k > maxResidues {
		return nil
	}
	out := make([]int64, k)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// isCounter reports whether n names a variable (`it`, `iter_`,
// `this->n`): a counter whose residues a ring visits in turn, not a value
// taken apart (`(cfg >> 8) % 16` is one unknown id, not sixteen).
func isCounter(n *grammar.Node) bool {
	n = Unparen(n)
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "identifier", "field_expression", "field_identifier":
		return true
	}
	return false
}

// zeroDefaultMember is the name a class member declaration `T name = 0;` declares,
// which tree-sitter reads as a pure virtual function without a declarator
// (`static constexpr uint16_t kReady = 0;`), nil for any other node.
func zeroDefaultMember(n *grammar.Node) *grammar.Node {
	if n.Kind() != "function_definition" {
		return nil
	}
	d := n.ChildByField("declarator")
	if d == nil || d.Kind() != "field_identifier" {
		return nil
	}
	for c := d.NextSibling(); c != nil; c = c.NextSibling() {
		if c.Kind() == "pure_virtual_clause" {
			return d
		}
	}
	return nil
}

// addArray indexes a constant array's initializer (`static constexpr
// uint16_t kReady[2] = {0, 1};`) and reports whether decl declares one.
func (fc *FileConsts) addArray(f *grammar.File, decl, name, val *grammar.Node) bool {
	if name == nil || name.Kind() != "array_declarator" {
		return false
	}
	id := name.ChildByField("declarator")
	if val == nil || val.Kind() != "initializer_list" || id == nil || (id.Kind() != "identifier" && id.Kind() != "field_identifier") {
		return true
	}
	if fc.arrays == nil {
		fc.arrays = map[string][]*Def{}
	}
	fc.arrays[id.Text()] = append(fc.arrays[id.Text()], &Def{Name: id.Text(), File: f, Node: val, Decl: decl})
	return true
}

// valueFunc is the oneReturnFunc a function definition is, nil when its body is
// not one return of an expression or its parameters are not all named.
func valueFunc(fn *grammar.Node) *oneReturnFunc {
	name := FunctionName(fn)
	body := fn.ChildByField("body")
	if name == "" || body == nil || body.Kind() != "compound_statement" {
		return nil
	}
	var ret *grammar.Node
	for _, st := range body.NamedChildren() {
		switch {
		case st.Kind() == "comment":
		case ret == nil && st.Kind() == "return_statement" && len(st.NamedChildren()) == 1:
			ret = st.NamedChildren()[0]
		default:
			return nil
		}
	}
	if ret == nil || ret.Kind() == "comment" {
		return nil
	}
	vf := &oneReturnFunc{Node: fn, Ret: ret}
	for p := range paramDecls(fn) {
		name := DeclaredName(p.ChildByField("declarator"))
		if p.Kind() == "variadic_parameter_declaration" || name == "" {
			return nil
		}
		vf.Params = append(vf.Params, name)
	}
	vf.Args = len(vf.Params)
	for _, tp := range templateParams(fn) {
		vf.Params = append(vf.Params, tp.name)
	}
	return vf
}

// evalCall values a call of a oneReturnFunc of the unit: its expression with
// the parameters bound to the arguments' values (unknown where an
// argument is not constant, as are the template parameters). Calls of
// several such functions of one name give the union.
func (r *Resolver) evalCall(fn, args *grammar.Node) []int64 {
	fn, targs := templateCallee(fn)
	name, ok := lastName(fn)
	if !ok {
		return nil
	}
	vfs := r.fns[name]
	if len(vfs) == 0 {
		return nil
	}
	as := args.NamedChildren()
	var out valueSet
	matched := false
	for _, vf := range vfs {
		if vf.Args != len(as) {
			continue
		}
		vals := make(map[string][]int64, len(vf.Params))
		for k, v := range r.classBinds(fn, vf.Node) {
			// `Ring::Free(stage)` with `using Ring = AccRing<3>;`: the
			// class template's parameters at that instance.
			vals[k] = v
		}
		for i, p := range vf.Params {
			switch {
			case i < len(as):
				vals[p] = r.evalAll(as[i])
			case i-vf.Args < len(targs):
				// `SlotOf<Arg::Rows>()`: a template parameter is the
				// call's template argument.
				vals[p] = r.evalAll(targs[i-vf.Args])
			default:
				vals[p] = nil
			}
		}
		b := r.Bind(vals)
		b.depth = r.depth
		vs := b.evalAll(vf.Ret)
		if len(vs) == 0 {
			return nil
		}
		matched = true
		for _, v := range vs {
			if !out.add(v) {
				return nil
			}
		}
	}
	if !matched {
		return nil
	}
	r.readBound = true
	return out.values()
}

// ScalarSizes are the sizes in bytes of the scalar types kernels use.
var ScalarSizes = map[string]int64{"int8_t": 1, "uint8_t": 1, "char": 1, "bool": 1, "int16_t": 2, "uint16_t": 2,
	"half": 2, "bfloat16_t": 2, "short": 2, "int32_t": 4, "uint32_t": 4, "int": 4, "unsigned": 4, "float": 4,
	"int64_t": 8, "uint64_t": 8, "double": 8, "long": 8, "size_t": 8}

// templateCallee is a call's callee without its template arguments
// (`SlotOf<A>` -> `SlotOf`, `ns::SlotOf<A>` -> `ns::SlotOf`) and those
// arguments; fn itself and none for any other callee.
func templateCallee(fn *grammar.Node) (*grammar.Node, []*grammar.Node) {
	t := fn
	if fn.Kind() == "qualified_identifier" {
		t = fn.ChildByField("name")
	}
	if t == nil || t.Kind() != "template_function" {
		return fn, nil
	}
	name, list := t.ChildByField("name"), t.ChildByField("arguments")
	if name == nil || list == nil {
		return fn, nil
	}
	// A qualified one's scope is a namespace's or a class's: the name
	// alone is looked up, as any call's last component is.
	return name, namedNonComments(list)
}

// lastName is the last component of a name (`kReady`, `Ring::kReady`,
// `flags.kReady`, `p->kReady`); ok is false for any other expression.
func lastName(n *grammar.Node) (string, bool) {
	name := n.Text()
	switch n.Kind() {
	case "identifier", "field_identifier":
	case "qualified_identifier", "field_expression":
		if i := strings.LastIndexAny(name, ":.>"); i >= 0 {
			name = name[i+1:]
		}
	default:
		return "", false
	}
	return name, true
}

// evalSubscript values `kReady[i]` of a constant array: the element at
// each value i has, every element when i is not constant.
func (r *Resolver) evalSubscript(n *grammar.Node) []int64 {
	arg := n.ChildByField("argument")
	if arg == nil || len(n.NamedChildren()) != 2 {
		return nil
	}
	name, ok := lastName(arg)
	if !ok {
		return nil
	}
	defs := r.arrays[name]
	if len(defs) == 0 {
		return nil
	}
	var idx []int64
	if list := n.NamedChildren()[1]; list.Kind() == "subscript_argument_list" {
		if c := list.NamedChildren(); len(c) == 1 {
			idx = r.evalAll(c[0])
		} else {
			return nil
		}
	} else {
		idx = r.evalAll(list)
	}
	var out valueSet
	for _, d := range defs {
		elems := d.Node.NamedChildren()
		pick := elems
		if len(idx) > 0 {
			pick = pick[:0:0]
			for _, i := range idx {
				if i < 0 || i >= int64(len(elems)) {
					return nil
				}
				pick = append(pick, elems[i])
			}
		}
		for _, e := range pick {
			vs := r.evalAll(e)
			if len(vs) == 0 {
				return nil
			}
			for _, v := range vs {
				if !out.add(v) {
					return nil
				}
			}
		}
	}
	return out.values()
}
