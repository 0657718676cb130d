package cxx

import (
	"bytes"
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// GMKind says what a variable or expression is with respect to global
// memory: scalar loads and stores through a GMData pointer go through the
// core's scalar data cache; the others are not data accesses.
type GMKind uint8

const (
	NotGM GMKind = iota
	// GMData is a `__gm__ T *` pointer to data (also `GM_ADDR`).
	GMData
	// GMArgs is the extern args pointer (`__gm__ int64_t *args`) or an alias
	// of it: reading args[k] is the ABI, not a hazard.
	GMArgs
	// GMDescriptor is a `__gm__` pointer to a tensor descriptor
	// (`Tensor`, `ChipTensor` or an alias): its fields are written by the
	// runtime before the task and read through the invalidated cache.
	GMDescriptor
	// GMGlobalTensor is an `AscendC::GlobalTensor<T>` object.
	GMGlobalTensor
	// LocalTensor is an `AscendC::LocalTensor<T>` object (UB; GetValue is
	// the safe pattern).
	LocalTensor
	// scalarLoad marks, among the functions, a load wrapper: its body is
	// `return *p;` of its first parameter, a `__gm__` pointer. Its call
	// is the scalar read, where the caller polls or waits.
	scalarLoad
)

func (k GMKind) String() string {
	switch k {
	case GMData:
		return "gm-data"
	case GMArgs:
		return "gm-args"
	case GMDescriptor:
		return "gm-descriptor"
	case GMGlobalTensor:
		return "global-tensor"
	case LocalTensor:
		return "local-tensor"
	}
	return "not-gm"
}

// IsGMPointer reports whether k is a pointer into global memory.
func (k GMKind) IsGMPointer() bool { return k == GMData || k == GMArgs || k == GMDescriptor }

// Var is a declared variable, parameter or struct member. A file has one
// per declared name and the model is kept while the rules run: its name,
// scope and initializer are found from its declared name in the tree, and
// its type is a pointer to the model's one string of it, so a Var is 24
// bytes.
type Var struct {
	// Decl is the declared identifier (identifier or field_identifier).
	Decl *grammar.Node
	typ  *string
	// fn is the position in the model's varIndex.fns of the outermost
	// function the variable is scoped in (-1 outside every function).
	fn   int32
	Kind GMKind
	// Field is set for struct/class members.
	Field bool
	// ArrayOfPtr is set for a local array of GM pointers
	// (`__gm__ half *ptrs[2]`): ptrs[i] is a pointer, not a load.
	ArrayOfPtr bool
	// unscoped is set for the members of included files.
	unscoped bool
}

// initOf is v's Init, nil for a nil v.
func (v *Var) initOf() *grammar.Node {
	if v == nil {
		return nil
	}
	return v.Init()
}

// Name is the declared name.
func (v *Var) Name() string { return v.Decl.Text() }

// Type is the declared base type without qualifiers, scope or pointer:
// "int32_t", "Tensor", "GlobalTensor<half>".
func (v *Var) Type() string {
	if v.typ == nil {
		return ""
	}
	return *v.typ
}

// Scope is the node the name is visible in (a block, a function, a class
// body, the translation unit); nil for the members of included files.
func (v *Var) Scope() *grammar.Node {
	if v.unscoped {
		return nil
	}
	d, _ := v.declaration()
	if d == nil {
		return nil
	}
	if isParamDecl(d) {
		return paramOwner(d)
	}
	return d.Parent()
}

// Init is the initializer expression, if any.
func (v *Var) Init() *grammar.Node {
	d, init := v.declaration()
	if init == nil && v.Field && d != nil && d.Kind() == "field_declaration" {
		init = d.ChildByField("default_value")
	}
	return init
}

// declaration walks up from Decl through the declarators declarator
// walked down: d is the declaration (or parameter or member declaration)
// and init the value of the innermost init_declarator on the way.
func (v *Var) declaration() (d, init *grammar.Node) {
	for p := v.Decl.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "init_declarator":
			if init == nil {
				init = p.ChildByField("value")
			}
		case "pointer_declarator", "reference_declarator", "array_declarator", "parenthesized_declarator":
		default:
			return p, init
		}
	}
	return nil, init
}

func isParamDecl(n *grammar.Node) bool {
	k := n.Kind()
	return k == "parameter_declaration" || k == "optional_parameter_declaration"
}

// AccessKind says whether a scalar GM access loads, stores or both.
type AccessKind uint8

const (
	Read AccessKind = iota + 1
	Write
	// ReadWrite is a compound assignment or ++/--: a load then a store.
	ReadWrite
)

func (k AccessKind) String() string {
	switch k {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return "read-write"
}

// Access is one scalar access to global memory through the scalar cache.
// A file has one per load and store and the model keeps them while the
// rules run: the other nodes are kept as offsets from Node in its tree's
// preorder and the root as the model's one string of it, so an Access is
// 40 bytes.
type Access struct {
	// Node is the whole accessed lvalue (`p[i]`, `*p`, `m->len`,
	// `p[i].x`) or the call (`g.GetValue(i)`, `g.SetValue(i, v)`, `g(i)`).
	Node *grammar.Node
	// Var is the declaration of the root variable, when known.
	Var  *Var
	root *string
	// ptrAt, stmtAt and funcAt are the index of Ptr, Stmt and Func in
	// Node's tree minus Node's (noNode for none).
	ptrAt, stmtAt, funcAt int32
	Via                   AccessVia
	Kind                  AccessKind
}

// noNode is an Access offset for no node.
const noNode = math.MinInt32

// Ptr is the pointer or GlobalTensor expression accessed through.
func (a *Access) Ptr() *grammar.Node { return a.rel(a.ptrAt) }

// Stmt is the statement to insert code before: the outermost statement
// containing Node whose parent is a block (or a case label); nil when the
// access is not inside a function body.
func (a *Access) Stmt() *grammar.Node { return a.rel(a.stmtAt) }

// Func is the function or lambda the access is in, nil for none.
func (a *Access) Func() *grammar.Node { return a.rel(a.funcAt) }

// Root names the pointer for coherence matching: "p", "m->tbl", "xGm"
// (see the package's Root).
func (a *Access) Root() string {
	if a.root == nil {
		return ""
	}
	return *a.root
}

func (a *Access) rel(d int32) *grammar.Node {
	if d == noNode {
		return nil
	}
	return &a.Node.Tree().Nodes[a.Node.Index()+int(d)]
}

// offset is n's offset from Node (noNode for nil; n is in Node's tree).
func (a *Access) offset(n *grammar.Node) int32 {
	if n == nil {
		return noNode
	}
	return int32(n.Index() - a.Node.Index())
}

// AccessVia says how an access reaches memory: through `p[i]`, `*p`,
// `p->f`, `g.GetValue(i)`, `g.SetValue(i, v)` or `g(i)`. A byte, not a
// string: a file has an access per load and store.
type AccessVia uint8

const (
	ViaSubscript AccessVia = iota + 1
	ViaDeref
	ViaArrow
	ViaGetValue
	ViaSetValue
	ViaCall
	// ViaLoad is a load wrapper's call, `load(p)` (see scalarLoad).
	ViaLoad
)

func (v AccessVia) String() string {
	switch v {
	case ViaSubscript:
		return "subscript"
	case ViaDeref:
		return "deref"
	case ViaArrow:
		return "arrow"
	case ViaGetValue:
		return "GetValue"
	case ViaSetValue:
		return "SetValue"
	case ViaCall:
		return "call"
	case ViaLoad:
		return "load"
	}
	return ""
}

// Addr is an expression for the accessed address, usable as the first
// argument of dcci: `&p[i]`, `p`, `p + 2`, `&m->len`, `g.GetPhyAddr(i)`.
// Made on demand: a fix asks for a few, a file has many accesses.
func (a *Access) Addr() string {
	switch a.Via {
	case ViaGetValue, ViaSetValue, ViaCall:
		// The call's receiver, or the called GlobalTensor of g(i) (its
		// call is the pointer's parent).
		call := a.Node
		if a.Via == ViaCall {
			call = a.Ptr().Parent()
		}
		idx := "0"
		if args := call.ChildByField("arguments"); args != nil {
			for c := args.FirstChild(); c != nil; c = c.NextSibling() {
				if c.IsNamed() && c.Kind() != "comment" {
					idx = c.Text()
					break
				}
			}
		}
		return a.Ptr().Text() + ".GetPhyAddr(" + idx + ")"
	case ViaDeref:
		if ptr := a.Ptr(); a.Node == ptr.Parent() {
			return Unparen(ptr).Text()
		}
	case ViaLoad:
		return Unparen(a.Ptr()).Text()
	}
	return "&" + a.Node.Text()
}

// Dcci is one cache maintenance call on a GM pointer: `dcci(ptr, ...)`,
// `AscendC::DataCacheCleanAndInvalid<T, ...>(gt)`, or a call of a helper
// whose body does one on the pointer it is passed.
type Dcci struct {
	Call *grammar.Node
	// Root is the pointer's root (see Root); empty when All.
	Root string
	// All is set for ENTIRE_DATA_CACHE: every line of the core.
	All bool
	// Args are the texts of the remaining arguments and template arguments
	// (`SINGLE_CACHE_LINE`, `CACHELINE_OUT`, ...). For a helper, those of the
	// dcci in its body.
	Args []string
	// Helper is the called helper's name when the dcci is in its body.
	Helper string
	Func   *grammar.Node
}

// WritesOut reports whether the dcci writes dirty lines out
// (`CACHELINE_OUT`, `CACHELINE_ALL`).
func (d Dcci) WritesOut() bool { return d.HasArg("CACHELINE_OUT") || d.HasArg("CACHELINE_ALL") }

// HasArg reports whether one of the dcci's arguments mentions s (e.g.
// "CACHELINE_OUT").
func (d Dcci) HasArg(s string) bool {
	for _, a := range d.Args {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}

// GM is a file's global-memory model: which names are GM pointers,
// descriptors or GlobalTensors, every scalar access through them, and the
// dcci calls that make lines coherent. Build it once per file; the rules
// memoize it as a unit fact.
type GM struct {
	file *grammar.File
	// locals are the file's variables scoped in a function, in the order
	// they were recorded, vars their positions by name, and varIx the rest
	// of their index (see varIndex).
	locals []Var
	vars   map[string][]int32
	varIx  *varIndex
	fields map[string][]*Var
	// envFields are the includes' members when the model is made over a
	// GMEnv (shared with it, never written): a member's declarations are
	// envFields[name] then fields[name].
	envFields map[string][]*Var
	descTypes map[string]bool
	// typeAliases maps aliases of GlobalTensor/LocalTensor types to their
	// kind (`using IdxGm = AscendC::GlobalTensor<int32_t>;`).
	typeAliases map[string]GMKind
	// funcs maps a function name to the kind of GM pointer it returns.
	funcs map[string]GMKind
	// helpers maps a function name to the parameter indices whose pointer
	// it dccis, with the dcci's arguments, while the model is built.
	helpers  map[string][]helperArg
	accesses []Access
	// dcciRecs are the file's dccis grouped by function (dcciFns, by
	// function), each function's indexed by root in dcciByRoot and dcciOut
	// (see fnDccis); dcciStrs and argTab hold their roots, helper names and
	// argument lists. initNames are the names declared with an initializer
	// of a root: the dccis an access can match are looked up, not scanned
	// per access. They are indexed when a function with dccis first asks
	// (initsOnce): most files have none, and the index took a tenth of
	// the model's build.
	dcciRecs            []dcciRec
	dcciFns             []dcciFn
	dcciByRoot, dcciOut []int32
	dcciStrs            []string
	argTab              [][]string
	initNames           map[string][]string
	initsOnce           sync.Once
	// trees maps the tree of each file the model reads to that file: a
	// node's masked qualifiers are found in its own file's masks.
	trees map[*grammar.Tree]*grammar.File
	// mirrors memoizes descriptorMirror (the model is read by several
	// rules at once).
	mirrorsMu sync.Mutex
	mirrors   map[string]bool
	// fieldAsks records the member names looked up while a GMEnv is built.
	fieldAsks map[string]bool
	// strs interns the names and types of the variables while the model
	// is built (see str), argLists the dccis' argument lists (keyed by
	// their texts, each ended by a 0 byte, built in keyBuf).
	strs       map[string]string
	argLists   map[string]int32
	dcciStrIDs map[string]int32
	keyBuf     []byte
	// varChunk is where newVar makes the next variables, types the
	// strings of their types and the accesses' roots while the model is
	// built (see ref).
	varChunk []Var
	types    map[string]*string
	// scratch holds the variables declVars and paramVar return.
	scratch []Var
}

// ref is the model's one string of t (a type name, an access's root).
func (g *GM) ref(t string) *string { return internIn(&g.types, t) }

// newVar returns a zero Var made in chunks: one allocation of 64 bytes
// per declared name cost more than the Var.
func (g *GM) newVar(decl *grammar.Node) *Var {
	if len(g.varChunk) == cap(g.varChunk) {
		g.varChunk = make([]Var, 0, min(max(2*cap(g.varChunk), 16), 512))
	}
	g.varChunk = g.varChunk[:len(g.varChunk)+1]
	v := &g.varChunk[len(g.varChunk)-1]
	v.Decl = decl
	return v
}

// descriptorTypes are the runtime's tensor descriptor structs.
var descriptorTypes = []string{"Tensor", "ChipTensor"}

func newGM(f *grammar.File) *GM {
	g := &GM{
		file:        f,
		vars:        map[string][]int32{},
		fields:      map[string][]*Var{},
		descTypes:   map[string]bool{},
		typeAliases: map[string]GMKind{},
		funcs:       map[string]GMKind{},
		helpers:     map[string][]helperArg{},
		trees:       map[*grammar.Tree]*grammar.File{},
	}
	g.know(f)
	for _, t := range descriptorTypes {
		g.descTypes[t] = true
	}
	return g
}

// gmFiles keeps the parsed C++ files of includes.
func gmFiles(includes []*grammar.File) []*grammar.File {
	var files []*grammar.File
	for _, inc := range includes {
		if inc != nil && inc.Tree != nil && inc.Lang == grammar.CPP {
			files = append(files, inc)
		}
	}
	return files
}

// nodesOf lists the nodes of the kinds in every file, kind by kind.
func nodesOf(ff FileFacts, files []*grammar.File, kinds ...string) []incNode {
	n := 0
	for _, k := range kinds {
		for _, g := range files {
			n += len(ff.Nodes(g, k))
		}
	}
	out := make([]incNode, 0, n)
	for _, k := range kinds {
		for _, g := range files {
			for _, n := range ff.Nodes(g, k) {
				out = append(out, incNode{g, n})
			}
		}
	}
	return out
}

// buildGM builds f's model from scratch over its included files.
func buildGM(ff FileFacts, f *grammar.File, includes []*grammar.File) *GM {
	g := newGM(f)
	files := append(slices.Clip(includes), f)
	g.know(files...)
	g.addAliases(nodesOf(ff, files, "alias_declaration", "type_definition"))
	defs := nodesOf(ff, files, "function_definition")
	g.addFuncs(defs)
	g.addFields(nodesOf(ff, files, "field_declaration"))
	g.addVars(ff, f)
	names := append(slices.Clip(dcciNames), defNames(defs)...)
	var calls []incNode
	for _, g := range files {
		for _, n := range ff.Calls(g).Named(names...) {
			calls = append(calls, incNode{g, n})
		}
	}
	g.finish(ff, calls)
	return g
}

// GMEnv is what the GM model of a file takes from the files it includes:
// their descriptor aliases, GM-returning functions, struct members and the
// calls that may make dcci helpers. It is built once per list of included
// files (a unit fact), so the model of an edited file that declares no type
// alias or GM-returning function of its own costs its own declarations,
// not its includes' again.
type GMEnv struct {
	files []*grammar.File
	// The includes' alias declarations and typedefs, in file order.
	aliasDecls, typedefs []incNode
	// The model's tables after the includes alone.
	descTypes   map[string]bool
	typeAliases map[string]GMKind
	funcs       map[string]GMKind
	fields      map[string][]*Var
	// names are the names a call of which may make a helper (dcci and the
	// functions the includes define); calls[i] are files[i]'s calls of them.
	names   []string
	nameSet map[string]bool
	calls   [][]*grammar.Node
	// fieldAsks are the member names the members' initializers looked up:
	// a file put before the includes that declares one would change them.
	fieldAsks map[string]bool
}

// NewGMEnv builds the environment the included files make.
func NewGMEnv(ff FileFacts, includes []*grammar.File) *GMEnv {
	ff = factsOr(ff)
	files := gmFiles(includes)
	e := &GMEnv{files: files,
		aliasDecls: nodesOf(ff, files, "alias_declaration"),
		typedefs:   nodesOf(ff, files, "type_definition")}
	g := newGM(nil)
	g.know(files...)
	g.fieldAsks = map[string]bool{}
	g.addAliases(append(slices.Clip(e.aliasDecls), e.typedefs...))
	defs := nodesOf(ff, files, "function_definition")
	g.addFuncs(defs)
	g.addFields(nodesOf(ff, files, "field_declaration"))
	e.descTypes, e.typeAliases, e.funcs, e.fields, e.fieldAsks = g.descTypes, g.typeAliases, g.funcs, g.fields, g.fieldAsks
	e.names = append(slices.Clip(dcciNames), defNames(defs)...)
	e.nameSet = map[string]bool{}
	for _, n := range e.names {
		e.nameSet[n] = true
	}
	e.calls = make([][]*grammar.Node, len(files))
	for i, f := range files {
		e.calls[i] = ff.Calls(f).Named(e.names...)
	}
	return e
}

// PrependGMEnv returns NewGMEnv(ff, [first, rest's files...]) made from
// rest, or nil when first could change what rest's files made (a type
// alias, a GM-returning function rest does not define, a member rest's
// initializers look up): an entry's includes are its body header and what
// the header includes, whose environment the header's own model has built.
func PrependGMEnv(ff FileFacts, first *grammar.File, rest *GMEnv) *GMEnv {
	ff = factsOr(ff)
	if len(gmFiles([]*grammar.File{first})) == 0 {
		return rest
	}
	if slices.Contains(rest.files, first) {
		return nil
	}
	own := []*grammar.File{first}
	e := &GMEnv{files: append([]*grammar.File{first}, rest.files...),
		aliasDecls: append(nodesOf(ff, own, "alias_declaration"), rest.aliasDecls...),
		typedefs:   append(nodesOf(ff, own, "type_definition"), rest.typedefs...)}
	g := newGM(nil)
	g.know(first)
	g.fieldAsks = map[string]bool{}
	g.addAliases(append(slices.Clip(e.aliasDecls), e.typedefs...))
	if !maps.Equal(g.descTypes, rest.descTypes) || !maps.Equal(g.typeAliases, rest.typeAliases) {
		return nil
	}
	defs := nodesOf(ff, own, "function_definition")
	g.addFuncs(defs)
	for name := range g.funcs {
		if _, ok := rest.funcs[name]; !ok {
			return nil
		}
	}
	// rest's definitions come later and win: the tables are rest's.
	g.funcs = rest.funcs
	g.addFields(nodesOf(ff, own, "field_declaration"))
	for name := range g.fields {
		if rest.fieldAsks[name] {
			return nil
		}
	}
	e.descTypes, e.typeAliases, e.funcs = rest.descTypes, rest.typeAliases, rest.funcs
	e.fields = make(map[string][]*Var, len(rest.fields)+len(g.fields))
	for name, vs := range rest.fields {
		e.fields[name] = vs
	}
	for name, vs := range g.fields {
		e.fields[name] = append(slices.Clip(vs), rest.fields[name]...)
	}
	e.fieldAsks = maps.Clone(rest.fieldAsks)
	maps.Copy(e.fieldAsks, g.fieldAsks)
	firstNames := defNames(defs)
	e.names = append(append(slices.Clip(dcciNames), firstNames...), rest.names[len(dcciNames):]...)
	e.nameSet = maps.Clone(rest.nameSet)
	var extra []string
	for _, name := range firstNames {
		if !e.nameSet[name] {
			e.nameSet[name] = true
			extra = append(extra, name)
		}
	}
	e.calls = make([][]*grammar.Node, 0, len(e.files))
	e.calls = append(e.calls, ff.Calls(first).Named(e.names...))
	for i := range rest.files {
		e.calls = append(e.calls, rest.callsWith(ff, i, extra))
	}
	return e
}

// NewGMWith builds f's model over the files of env, equal to
// NewGM(ff, f, includes) for env = NewGMEnv(ff, includes). The includes'
// tables are reused when f adds no descriptor alias, tensor type alias or
// GM-returning function that could change them; otherwise the model is
// built from scratch.
func NewGMWith(ff FileFacts, f *grammar.File, env *GMEnv) *GM {
	ff = factsOr(ff)
	if f == nil || f.Tree == nil {
		return newGM(f)
	}
	if slices.Contains(env.files, f) {
		return buildGM(ff, f, env.files)
	}
	g := newGM(f)
	g.know(env.files...)
	own := []*grammar.File{f}
	aliases := append(slices.Clip(env.aliasDecls), nodesOf(ff, own, "alias_declaration")...)
	aliases = append(aliases, env.typedefs...)
	g.addAliases(append(aliases, nodesOf(ff, own, "type_definition")...))
	if !maps.Equal(g.descTypes, env.descTypes) || !maps.Equal(g.typeAliases, env.typeAliases) {
		return buildGM(ff, f, env.files)
	}
	g.funcs = maps.Clone(env.funcs)
	defs := nodesOf(ff, own, "function_definition")
	g.addFuncs(defs)
	if !maps.Equal(g.funcs, env.funcs) {
		return buildGM(ff, f, env.files)
	}
	// The includes' members were read with the same tables: shared, not
	// copied; f's come after them.
	g.envFields = env.fields
	g.addFields(nodesOf(ff, own, "field_declaration"))
	g.addVars(ff, f)
	var extra []string
	seen := map[string]bool{}
	for _, name := range defNames(defs) {
		if !env.nameSet[name] && !seen[name] {
			seen[name] = true
			extra = append(extra, name)
		}
	}
	var calls []incNode
	for i, h := range env.files {
		for _, n := range env.callsWith(ff, i, extra) {
			calls = append(calls, incNode{h, n})
		}
	}
	for _, n := range ff.Calls(f).Named(append(slices.Clip(env.names), extra...)...) {
		calls = append(calls, incNode{f, n})
	}
	g.finish(ff, calls)
	return g
}

// callsWith are files[i]'s calls of the environment's names and of extra
// (names it does not hold), in source order as Named gives them.
func (e *GMEnv) callsWith(ff FileFacts, i int, extra []string) []*grammar.Node {
	ns := e.calls[i]
	if len(extra) > 0 {
		if more := ff.Calls(e.files[i]).Named(extra...); len(more) > 0 {
			ns = append(slices.Clip(ns), more...)
			sort.Slice(ns, func(i, j int) bool { return ns[i].Index() < ns[j].Index() })
		}
	}
	return ns
}

// defNames are the names of the function definitions, in order.
func defNames(defs []incNode) []string {
	var out []string
	for _, fn := range defs {
		if name := FunctionName(fn.n); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// addAliases records descriptor aliases (`using X = Tensor;`, `typedef
// ChipTensor X;`) and tensor type aliases; chains resolve in a second
// round.
func (g *GM) addAliases(aliases []incNode) {
	for round := 0; round < 2; round++ {
		for _, a := range aliases {
			var name, target *grammar.Node
			if a.n.Kind() == "alias_declaration" {
				name = a.n.ChildByField("name")
				target = a.n.ChildByField("type")
				if target != nil {
					target = target.ChildByField("type")
				}
			} else {
				target = a.n.ChildByField("type")
				name = a.n.ChildByField("declarator")
			}
			if name == nil || target == nil || name.Kind() != "type_identifier" {
				continue
			}
			if g.descTypes[string(baseTypeName(target))] {
				g.descTypes[name.Text()] = true
			}
			if k := g.objectKind(target); k == GMGlobalTensor || k == LocalTensor {
				g.typeAliases[name.Text()] = k
			}
		}
	}
}

// addFuncs records the functions returning GM pointers: `__gm__ T
// *data_of(...)`.
func (g *GM) addFuncs(defs []incNode) {
	for _, fn := range defs {
		d := FunctionDeclarator(fn.n)
		t := fn.n.ChildByField("type")
		if d == nil || t == nil || fn.n.ChildByField("declarator") == nil || fn.n.ChildByField("declarator").Kind() != "pointer_declarator" {
			continue
		}
		if hasGM(fn.f, LeadingStart(fn.n), d.Start) {
			if name := FunctionName(fn.n); name != "" {
				g.funcs[name] = g.pointeeKind(BaseTypeName(t), false)
			}
		}
	}
	for _, fn := range defs {
		if name := FunctionName(fn.n); name != "" && loadsFirstParam(fn.f, fn.n) {
			if _, ok := g.funcs[name]; !ok {
				g.funcs[name] = scalarLoad
			}
		}
	}
}

// loadsFirstParam reports whether fn's whole body is `return *p;` (or
// `p[0]`, through casts) of its first parameter, a `__gm__` pointer.
func loadsFirstParam(f *grammar.File, fn *grammar.Node) bool {
	body, d := fn.ChildByField("body"), FunctionDeclarator(fn)
	if body == nil || d == nil || fn.ChildByField("declarator").Kind() == "pointer_declarator" {
		return false
	}
	ps, stmts := d.ChildByField("parameters"), body.NamedChildren()
	if ps == nil || len(stmts) != 1 || stmts[0].Kind() != "return_statement" {
		return false
	}
	params := ps.NamedChildren()
	if len(params) == 0 || !hasGM(f, LeadingStart(params[0]), params[0].End) {
		return false
	}
	name, _, _, _, _ := Declarator(params[0].ChildByField("declarator"))
	e := stmts[0].NamedChildren()
	if name == nil || len(e) != 1 {
		return false
	}
	x := Unparen(e[0])
	switch {
	case x.Kind() == "pointer_expression" && operatorText(x) == "*":
	case x.Kind() == "subscript_expression":
	default:
		return false
	}
	p := Unparen(x.ChildByField("argument"))
	for p != nil && p.Kind() == "cast_expression" {
		p = Unparen(p.ChildByField("value"))
	}
	return p != nil && p.Kind() == "identifier" && p.Text() == name.Text()
}

// addFields records struct and class members; those of other files than
// the model's are visible everywhere.
func (g *GM) addFields(fds []incNode) {
	for _, fd := range fds {
		for _, d := range g.declVars(fd.f, fd.n, true) {
			v := g.newVar(nil)
			*v = *d
			if fd.f != g.file {
				v.unscoped = true
			}
			name := g.str(v.Decl.Bytes())
			g.fields[name] = append(g.fields[name], v)
		}
	}
}

// addVars records the parameters and locals of the model's file, in
// source order so Lookup can resolve initializers against earlier
// declarations.
func (g *GM) addVars(ff FileFacts, f *grammar.File) {
	g.varIx = newVarIndex(ff.Nodes(f, "function_definition"))
	for _, n := range ff.Nodes(f, "parameter_declaration", "optional_parameter_declaration", "declaration") {
		if n.Kind() != "declaration" {
			fn := paramOwner(n)
			if fn == nil {
				continue
			}
			if v := g.paramVar(f, n, fn); v != nil {
				g.addVar(v, n)
			}
			continue
		}
		for _, v := range g.declVars(f, n, false) {
			g.addVar(v, n)
		}
	}
	// The variables and each name's list at their sizes, the lists in one
	// array: they grew by append and are kept while the rules run. No
	// pointer to a local is kept before.
	if cap(g.locals) > len(g.locals) {
		g.locals = append(make([]Var, 0, len(g.locals)), g.locals...)
	}
	n := 0
	for _, l := range g.vars {
		n += len(l)
	}
	all := make([]int32, 0, n)
	for name, l := range g.vars {
		all = append(all, l...)
		g.vars[name] = all[len(all)-len(l) : len(all) : len(all)]
	}
}

// finish finds the helpers (only a call of dcci or of a function defined
// in the files can make one), then the file's dccis and accesses.
func (g *GM) finish(ff FileFacts, calls []incNode) {
	g.findHelpers(calls)
	g.findDccis(ff.Nodes(g.file, "call_expression"))
	var skip []*grammar.Node
	if mf, ok := ff.(MacroArgFacts); ok {
		skip = mf.UnevaluatedArgs(g.file)
	}
	g.findAccesses(ff.Nodes(g.file, "subscript_expression", "pointer_expression", "field_expression", "call_expression"), skip)
	// What only the build asks: the helpers are in the dccis made of
	// their calls.
	g.strs, g.argLists, g.dcciStrIDs, g.keyBuf, g.types, g.helpers, g.scratch = nil, nil, nil, nil, nil, nil, nil
	if cap(g.dcciStrs) > len(g.dcciStrs)+len(g.dcciStrs)/8 {
		g.dcciStrs = slices.Clone(g.dcciStrs)
	}
	if cap(g.argTab) > len(g.argTab)+len(g.argTab)/8 {
		g.argTab = slices.Clone(g.argTab)
	}
}

type incNode struct {
	f *grammar.File
	n *grammar.Node
}

// LeadingStart returns where the masked qualifiers of a declaration may
// start (as grammar.File.NodeQualifiers does): a qualifier written first
// (`__gm__ int32_t *p`) is blanked, so the node starts after it. Used to
// ask about part of a declaration, e.g. its type without the initializer.
func LeadingStart(n *grammar.Node) uint32 {
	if prev := n.PrevSibling(); prev != nil {
		return prev.End
	}
	if p := n.Parent(); p != nil {
		return p.Start
	}
	return 0
}

// hasGM reports whether a `__gm__` qualifier was masked in [start, end):
// File.HasQualifier with a binary search, as the GM model asks once per
// declaration.
func hasGM(f *grammar.File, start, end uint32) bool {
	i := sort.Search(len(f.Masks), func(i int) bool { return f.Masks[i].Start >= start })
	for ; i < len(f.Masks) && f.Masks[i].Start < end; i++ {
		if f.Masks[i].End <= end && f.Masks[i].Text == "__gm__" {
			return true
		}
	}
	return false
}

// paramOwner returns the function definition or lambda whose parameter list
// holds p, or nil for prototypes and function pointer types.
func paramOwner(p *grammar.Node) *grammar.Node {
	pl := p.Parent()
	if pl == nil || pl.Kind() != "parameter_list" {
		return nil
	}
	d := pl.Parent()
	if d == nil {
		return nil
	}
	if d.Kind() == "abstract_function_declarator" {
		if l := d.Parent(); l != nil && l.Kind() == "lambda_expression" {
			return l
		}
		return nil
	}
	if d.Kind() != "function_declarator" {
		return nil
	}
	for a := d.Parent(); a != nil; a = a.Parent() {
		switch a.Kind() {
		case "function_definition", "lambda_expression":
			return a
		case "pointer_declarator", "reference_declarator", "function_declarator":
			continue
		}
		return nil
	}
	return nil
}

// BaseTypeName returns a type node's name without scope, template
// arguments or qualifiers: "AscendC::GlobalTensor<half>" -> "GlobalTensor".
func BaseTypeName(t *grammar.Node) string {
	return string(baseTypeName(t))
}

// baseTypeName is BaseTypeName in the source's bytes (nil for none), for
// a comparison or a map lookup that allocates nothing.
func baseTypeName(t *grammar.Node) []byte {
	for t != nil {
		switch t.Kind() {
		case "qualified_identifier":
			t = t.ChildByField("name")
			continue
		case "template_type":
			t = t.ChildByField("name")
			continue
		case "type_descriptor":
			t = t.ChildByField("type")
			continue
		case "struct_specifier", "class_specifier":
			t = t.ChildByField("name")
			continue
		}
		return bytes.TrimSpace(t.Bytes())
	}
	return nil
}

// typeScope returns the namespace a type is written with (nil when none).
func typeScope(t *grammar.Node) []byte {
	if t != nil && t.Kind() == "type_descriptor" {
		t = t.ChildByField("type")
	}
	if t == nil || t.Kind() != "qualified_identifier" {
		return nil
	}
	if s := t.ChildByField("scope"); s != nil {
		return bytes.TrimPrefix(s.Bytes(), []byte("::"))
	}
	return nil
}

// str returns b as a string, one string for equal bytes while the model
// is built: each helper's `args`, `int64_t`, ... is not kept once per
// declaration.
func (g *GM) str(b []byte) string {
	if s, ok := g.strs[string(b)]; ok {
		return s
	}
	return g.strOf(string(b))
}

// objectKind classifies a non-pointer declared type.
func (g *GM) objectKind(t *grammar.Node) GMKind {
	if sc := typeScope(t); len(sc) > 0 && string(sc) != "AscendC" {
		return NotGM
	}
	base := baseTypeName(t)
	if k, ok := g.typeAliases[string(base)]; ok {
		return k
	}
	switch string(base) {
	case "GlobalTensor":
		return GMGlobalTensor
	case "LocalTensor":
		return LocalTensor
	case "GM_ADDR":
		return GMData
	}
	return NotGM
}

// pointeeKind classifies a __gm__ pointer by what it points to.
func (g *GM) pointeeKind(base string, args bool) GMKind {
	switch {
	case g.descTypes[base], g.descriptorMirror(base):
		return GMDescriptor
	case args:
		return GMArgs
	}
	return GMData
}

// descriptorMirror reports whether the files the model reads define a
// struct of that name shaped as the runtime's tensor descriptor: a
// `start_offset` field beside the buffer's address (`addr`, `buffer_addr`
// or `buffer`), as a kernel that declares its own copy of the layout
// writes it (`struct Desc { uint64_t addr, size, start_offset; };`). Its
// fields are written by the runtime before the task, as a Tensor's are.
func (g *GM) descriptorMirror(name string) bool {
	if name == "" {
		return false
	}
	g.mirrorsMu.Lock()
	defer g.mirrorsMu.Unlock()
	if v, ok := g.mirrors[name]; ok {
		return v
	}
	found := false
	for t := range g.trees {
		for _, st := range t.OfKind("struct_specifier") {
			if n := st.ChildByField("name"); n == nil || n.Text() != name {
				continue
			}
			body := st.ChildByField("body")
			if body == nil {
				continue
			}
			offset, addr := false, false
			for _, fd := range body.NamedChildren() {
				if fd.Kind() != "field_declaration" {
					continue
				}
				for _, d := range fd.NamedChildren() {
					if d.Kind() != "field_identifier" {
						continue
					}
					switch d.Text() {
					case "start_offset":
						offset = true
					case "addr", "buffer_addr", "buffer":
						addr = true
					}
				}
			}
			found = found || offset && addr
		}
	}
	if g.mirrors == nil {
		g.mirrors = map[string]bool{}
	}
	g.mirrors[name] = found
	return found
}

// VexingObject returns the variable a block-scope declaration `T x(a,
// b);` defines when the parser read it as a function declaration: d is a
// function_declarator in a function body whose parameters are all bare
// names, the constructor's arguments (C++ takes them as values when they
// name variables) or calls of a name on such names (`T x(a,
// lane_of(args))`, `T x(Arg<float>(args, 0))`). nil otherwise, and for
// `T x();`.
func VexingObject(d *grammar.Node) *grammar.Node {
	if d == nil || d.Kind() != "function_declarator" || EnclosingFunction(d) == nil {
		return nil
	}
	name, pl := d.ChildByField("declarator"), d.ChildByField("parameters")
	if name == nil || name.Kind() != "identifier" || pl == nil {
		return nil
	}
	if !bareArguments(pl, 0) {
		return nil
	}
	return name
}

// bareArguments reports whether parameter list pl reads as constructor
// arguments: each a bare name, an element of one (`args[0]`), or a name
// (or template) called on such arguments (`f(a)`, read as an unnamed
// parameter of type f taking a parameter of type a).
func bareArguments(pl *grammar.Node, depth int) bool {
	ps := pl.NamedChildren()
	if len(ps) == 0 || depth > 2 {
		return false
	}
	for _, p := range ps {
		t := p.ChildByField("type")
		if p.Kind() != "parameter_declaration" || t == nil {
			return false
		}
		pd := p.ChildByField("declarator")
		switch {
		case pd == nil && t.Kind() == "type_identifier":
		case pd != nil && pd.Kind() == "abstract_array_declarator" && t.Kind() == "type_identifier":
			// `args[0]`, read as an unnamed array parameter of type args.
		case pd != nil && (t.Kind() == "type_identifier" || t.Kind() == "template_type"):
			// A call (`f(a)`, `F<T>(a, b)`) read as an unnamed parameter.
			inner := pd.ChildByField("parameters")
			if pd.Kind() != "abstract_function_declarator" || inner == nil || !bareArguments(inner, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Declarator peels a declarator down to its name, reporting pointer depth
// and whether an array of pointers was declared.
func Declarator(d *grammar.Node) (name *grammar.Node, ptr int, ref, arrayOfPtr bool, init *grammar.Node) {
	for d != nil {
		switch d.Kind() {
		case "init_declarator":
			init = d.ChildByField("value")
			d = d.ChildByField("declarator")
			continue
		case "pointer_declarator":
			ptr++
			d = d.ChildByField("declarator")
			continue
		case "reference_declarator":
			ref = true
			c := d.NamedChildren()
			if len(c) == 0 {
				return nil, ptr, ref, arrayOfPtr, init
			}
			d = c[len(c)-1]
			continue
		case "array_declarator":
			// Declarators read outside in: `*ptrs[2]` is a pointer
			// declarator around an array one, an array of pointers.
			if ptr > 0 {
				arrayOfPtr = true
			}
			d = d.ChildByField("declarator")
			continue
		case "parenthesized_declarator":
			c := d.NamedChildren()
			if len(c) == 0 {
				return nil, ptr, ref, arrayOfPtr, init
			}
			d = c[0]
			continue
		case "identifier", "field_identifier":
			return d, ptr, ref, arrayOfPtr, init
		}
		return nil, ptr, ref, arrayOfPtr, init
	}
	return nil, ptr, ref, arrayOfPtr, init
}

// isArray reports whether a declarator declares an array.
func isArray(d *grammar.Node) bool {
	for d != nil {
		switch d.Kind() {
		case "array_declarator":
			return true
		case "init_declarator", "parenthesized_declarator":
			if n := d.ChildByField("declarator"); n != nil {
				d = n
				continue
			}
			if c := d.NamedChildren(); len(c) > 0 {
				d = c[0]
				continue
			}
		}
		return false
	}
	return false
}

// declVars returns the variables of a declaration or field declaration,
// made in scratch: the caller records copies before the next call.
func (g *GM) declVars(f *grammar.File, decl *grammar.Node, field bool) []*Var {
	t := decl.ChildByField("type")
	if t == nil {
		return nil
	}
	base := g.str(baseTypeName(t))
	isAuto := t.Kind() == "placeholder_type_specifier"
	var out []*Var
	ds := decl.ChildrenByField("declarator")
	// Room for them all: out points into scratch.
	g.scratch = slices.Grow(g.scratch[:0], len(ds))
	for _, d := range ds {
		name, ptr, _, arrayOfPtr, init := Declarator(d)
		if name == nil {
			continue
		}
		if init == nil && field {
			init = decl.ChildByField("default_value")
		}
		g.scratch = append(g.scratch, Var{Decl: name})
		v := &g.scratch[len(g.scratch)-1]
		v.typ, v.Field, v.ArrayOfPtr = g.ref(base), field, arrayOfPtr
		// The qualifier belongs to the declaration when it is written in
		// the type or the declarator, not in the initializer.
		gm := hasGM(f, LeadingStart(decl), t.End) || hasGM(f, d.Start, name.End)
		switch {
		case ptr > 0 && gm:
			// A member holding the args pointer is named for it
			// (`args_`), or set from it (`a_(args)`, `raw_ = args;`).
			v.Kind = g.pointeeKind(base, field && isInt64(base) && (strings.Contains(strings.ToLower(name.Text()), "args") || setFromArgs(f, decl, name.Text())))
		case ptr == 0 && !isAuto:
			v.Kind = g.objectKind(t)
			if v.Kind == GMData && isArray(d) {
				// GM_ADDR bufs[N]: an array of pointers.
				v.ArrayOfPtr = true
			}
		case init != nil && (isAuto || ptr > 0):
			// auto p = reinterpret_cast<__gm__ T *>(x); auto *q = p + 1;
			k, src := g.KindOf(init)
			if k.IsGMPointer() {
				v.Kind = k
				if src != nil && src.Kind == k {
					v.typ = src.typ
				} else if ct := castType(init); ct != nil {
					v.typ = g.ref(BaseTypeName(ct))
				}
			} else if k == GMGlobalTensor || k == LocalTensor {
				v.Kind = k
			}
		}
		out = append(out, v)
	}
	return out
}

// isInt64 reports whether base names a 64-bit integer, the args
// pointer's element.
func isInt64(base string) bool { return base == "int64_t" || base == "uint64_t" || base == "int64" }

// runtimeGetters take the args pointer: a pointer handed to one is it.
var runtimeGetters = map[string]bool{"get_block_idx": true, "get_block_num": true, "get_sub_block_id": true,
	"get_subblockid": true, "get_sub_block_num": true, "get_subblockdim": true}

// passedToGetter reports whether fn hands its parameter name to a runtime
// getter (`get_block_idx(a)`): a helper's `__gm__ int64_t *a` that is
// the args pointer under another name.
func passedToGetter(fn *grammar.Node, name string) bool {
	body := fn.ChildByField("body")
	if body == nil {
		return false
	}
	for _, c := range body.Inside(body.Tree().OfKind("call_expression")) {
		if call, ok := AsCall(c); ok && runtimeGetters[call.Name] && len(call.Args) == 1 && Unparen(call.Args[0]).Text() == name {
			return true
		}
	}
	return false
}

// handedArgs reports whether every call of fn in f hands parameter p the
// args pointer of the calling function (`Unpack(args, 3)` for
// `Unpack(__gm__ int64_t *p, int i)`), and there is one.
func handedArgs(f *grammar.File, fn, p *grammar.Node, depth int) bool {
	name := FunctionName(fn)
	k := -1
	for _, q := range Params(fn) {
		if q.Node == p {
			k = int(q.Index)
		}
	}
	if name == "" || k < 0 || !bytes.Contains(f.Src, []byte(name)) {
		return false
	}
	seen := false
	for _, c := range f.Tree.OfKind("call_expression") {
		call, ok := AsCall(c)
		if !ok || call.Name != name || call.Receiver != nil {
			continue
		}
		if k >= len(call.Args) || !argsParamOf(f, c, call.Args[k], depth) {
			return false
		}
		seen = true
	}
	// A constructor: the objects declared of its class (`ArgView v(args);`,
	// which may parse as a function declaration).
	for _, d := range f.Tree.OfKind("declaration") {
		t := d.ChildByField("type")
		if t == nil || BaseName(t.Text()) != name {
			continue
		}
		for _, dl := range d.ChildrenByField("declarator") {
			var list *grammar.Node
			switch dl.Kind() {
			case "init_declarator":
				list = dl.ChildByField("value")
			case "function_declarator":
				list = dl.ChildByField("parameters")
			}
			if list == nil {
				continue
			}
			as := list.NamedChildren()
			if k >= len(as) || !argsParamOf(f, d, as[k], depth) {
				return false
			}
			seen = true
		}
	}
	return seen
}

// argsParamOf reports whether e, at node at, names the args parameter of
// the function around at (an int64 GM pointer where the args pointer
// stands: ArgsPlaced). An argument read as a parameter declaration
// (`v(args)` parsed as a function declaration) counts by its name.
func argsParamOf(f *grammar.File, at, e *grammar.Node, depth int) bool {
	e = Unparen(e)
	if e != nil && e.Kind() == "parameter_declaration" && e.ChildByField("declarator") == nil {
		e = e.ChildByField("type")
	}
	caller := EnclosingFunction(at)
	if e == nil || e.Kind() != "identifier" && e.Kind() != "type_identifier" || caller == nil || caller.Kind() != "function_definition" {
		return false
	}
	for _, q := range Params(caller) {
		if q.Name == e.Text() {
			// The caller's own parameter under another name: handed the
			// args pointer in its turn (a level or two up).
			return IsArgsParam(f, q) && (ArgsPlaced(caller, q.Name) || depth < 2 && handedArgs(f, caller, q.Node, depth+1))
		}
	}
	return false
}

// setFromArgs reports whether the class of member declaration decl sets
// member name from the args pointer of one of its methods (`a_(args)` in
// a constructor's initializer list, `a_ = args;`).
func setFromArgs(f *grammar.File, decl *grammar.Node, name string) bool {
	body := decl.Ancestor("field_declaration_list")
	if body == nil || !bytes.Contains(f.Src[body.Start:body.End], []byte(name)) {
		return false
	}
	for _, fi := range body.Inside(body.Tree().OfKind("field_initializer")) {
		if id := fi.NamedChildren(); len(id) == 2 && id[0].Text() == name {
			if a := id[1].NamedChildren(); len(a) == 1 && argsParamOf(f, fi, a[0], 0) {
				return true
			}
		}
	}
	for _, as := range body.Inside(body.Tree().OfKind("assignment_expression")) {
		l, r := as.ChildByField("left"), as.ChildByField("right")
		if l != nil && r != nil && (l.Text() == name || l.Text() == "this->"+name) && argsParamOf(f, as, r, 0) {
			return true
		}
	}
	return false
}

// paramVar returns the variable a parameter declares, nil for none, made
// in scratch as declVars' are.
func (g *GM) paramVar(f *grammar.File, p *grammar.Node, fn *grammar.Node) *Var {
	t := p.ChildByField("type")
	if t == nil {
		return nil
	}
	name, ptr, _, arrayOfPtr, _ := Declarator(p.ChildByField("declarator"))
	if name == nil {
		return nil
	}
	base := g.str(baseTypeName(t))
	g.scratch = append(g.scratch[:0], Var{Decl: name})
	v := &g.scratch[0]
	// `__gm__ T *peers[N]`: the caller's array of pointers.
	v.typ, v.ArrayOfPtr = g.ref(base), arrayOfPtr
	gm := hasGM(f, LeadingStart(p), name.End)
	switch {
	case ptr > 0 && gm:
		args := false
		if isInt64(base) {
			args = ArgsPlaced(fn, name.Text()) || passedToGetter(fn, name.Text()) || handedArgs(f, fn, p, 0)
		}
		v.Kind = g.pointeeKind(base, args)
	case ptr == 0:
		v.Kind = g.objectKind(t)
	}
	return v
}

// varIndex splits the variables of each name by the outermost function
// whose body holds their scope, so a lookup sees the variables of its own
// function and those scoped outside every function, not every parameter
// and local of that name in the file (each helper's `args`, `i`, ...:
// quadratic in a file of many helpers).
//
// The variables scoped in a function are g.vars[name], in source order:
// declarations are read in preorder and the outermost functions do not
// overlap, so each name's list is ordered by Var.fn and a function's
// variables are found by a binary search (a map keyed by name and
// function cost a map entry per variable).
type varIndex struct {
	// fns are the outermost function definitions, in source order.
	fns []*grammar.Node
	// outer holds the variables scoped outside every function, each list in
	// declaration order.
	outer map[string][]outerVar
	// unsorted is set if some name's list in g.vars is not ordered by fn
	// (no C++ the grammar reads should make one): its lookups then scan
	// the list.
	unsorted bool
}

// outerVar is a variable scoped outside every function; before is the
// number of fns declared before it: it comes before the variables of
// fns[k] in declaration order when before <= k.
type outerVar struct {
	v      *Var
	before int32
}

func newVarIndex(defs []*grammar.Node) *varIndex {
	ix := &varIndex{outer: map[string][]outerVar{}}
	for _, d := range defs {
		if n := len(ix.fns); n > 0 && ix.fns[n-1].Contains(d) {
			continue
		}
		ix.fns = append(ix.fns, d)
	}
	return ix
}

// fnOf is the position in fns of the function holding n, or -1.
func (ix *varIndex) fnOf(n *grammar.Node) int {
	k := sort.Search(len(ix.fns), func(k int) bool { return ix.fns[k].Start > n.Start }) - 1
	if k >= 0 && ix.fns[k].Contains(n) {
		return k
	}
	return -1
}

// addVar records a copy of v, declared by the node decl (a declaration or
// a parameter), after the variables already recorded.
func (g *GM) addVar(v *Var, decl *grammar.Node) {
	ix := g.varIx
	v.fn = -1
	if sc := v.Scope(); sc != nil {
		v.fn = int32(ix.fnOf(sc))
	}
	name := g.str(v.Decl.Bytes())
	if v.fn < 0 {
		before := sort.Search(len(ix.fns), func(k int) bool { return ix.fns[k].Index() >= decl.Index() })
		o := g.newVar(nil)
		*o = *v
		ix.outer[name] = append(ix.outer[name], outerVar{o, int32(before)})
		return
	}
	l := g.vars[name]
	if n := len(l); n > 0 && g.locals[l[n-1]].fn > v.fn {
		ix.unsorted = true
	}
	g.vars[name] = append(l, int32(len(g.locals)))
	g.locals = append(g.locals, *v)
}

// candidates calls yield with the variables of name that can be visible
// at node at, in declaration order: a variable scoped in a function other
// than at's is not.
func (g *GM) candidates(name string, at *grammar.Node, yield func(*Var)) {
	ix := g.varIx
	if ix == nil {
		return
	}
	outer := ix.outer[name]
	k := ix.fnOf(at)
	if k < 0 || g.file == nil || at.Tree() != g.file.Tree {
		for _, o := range outer {
			yield(o.v)
		}
		return
	}
	i := 0
	for ; i < len(outer) && int(outer[i].before) <= k; i++ {
		yield(outer[i].v)
	}
	l := g.vars[name]
	if ix.unsorted {
		for _, j := range l {
			if v := &g.locals[j]; int(v.fn) == k {
				yield(v)
			}
		}
	} else {
		lo := sort.Search(len(l), func(j int) bool { return int(g.locals[l[j]].fn) >= k })
		for _, j := range l[lo:] {
			v := &g.locals[j]
			if int(v.fn) != k {
				break
			}
			yield(v)
		}
	}
	for ; i < len(outer); i++ {
		yield(outer[i].v)
	}
}

// Lookup resolves a name used at node at: the innermost visible local or
// parameter declared before it, else a member, else nil.
func (g *GM) Lookup(name string, at *grammar.Node) *Var {
	var best *Var
	var bestScope *grammar.Node
	g.candidates(name, at, func(v *Var) {
		if v.Decl.Start > at.Start && v.Decl.Tree() == at.Tree() {
			return
		}
		sc := v.Scope()
		if sc != nil && (sc.Tree() != at.Tree() || !sc.Contains(at)) {
			return
		}
		if best == nil || bestScope == nil || (sc != nil && sc.Start >= bestScope.Start && sc.End <= bestScope.End) {
			best, bestScope = v, sc
		}
	})
	if best != nil {
		return best
	}
	return g.Field(name, at)
}

// members are the declarations of a member name, the includes' first.
func (g *GM) members(name string) []*Var {
	if len(g.envFields[name]) == 0 {
		return g.fields[name]
	}
	return append(slices.Clip(g.envFields[name]), g.fields[name]...)
}

// Field resolves a member name; a member of the class whose body contains
// at wins, then any member of that name (the last declared).
func (g *GM) Field(name string, at *grammar.Node) *Var {
	if g.fieldAsks != nil {
		g.fieldAsks[name] = true
	}
	var any *Var
	for _, v := range g.members(name) {
		if sc := v.Scope(); sc != nil && at != nil && sc.Tree() == at.Tree() && sc.Contains(at) {
			return v
		}
		any = v
	}
	return any
}

// KindOf classifies an expression's value and returns the variable it comes
// from, when one does.
func (g *GM) KindOf(e *grammar.Node) (GMKind, *Var) {
	e = Unparen(e)
	if e == nil {
		return NotGM, nil
	}
	switch e.Kind() {
	case "identifier":
		v := g.Lookup(e.Text(), e)
		if v == nil || v.ArrayOfPtr {
			return NotGM, v
		}
		return v.Kind, v
	case "this":
		return NotGM, nil
	case "field_expression":
		fld := e.ChildByField("field")
		if fld == nil {
			return NotGM, nil
		}
		v := g.Field(fld.Text(), e)
		if v == nil || v.ArrayOfPtr {
			return NotGM, v
		}
		return v.Kind, v
	case "binary_expression":
		op := operatorText(e)
		if op != "+" && op != "-" {
			return NotGM, nil
		}
		if k, v := g.KindOf(e.ChildByField("left")); k.IsGMPointer() {
			return k, v
		}
		if op == "+" {
			if k, v := g.KindOf(e.ChildByField("right")); k.IsGMPointer() {
				return k, v
			}
		}
		return NotGM, nil
	case "cast_expression":
		return g.castKind(e.ChildByField("type"))
	case "call_expression":
		if ct := castType(e); ct != nil {
			return g.castKind(ct)
		}
		if c, ok := AsCall(e); ok && c.Receiver == nil {
			if k, ok := g.funcs[c.Name]; ok && k != scalarLoad {
				return k, nil
			}
		}
		if c, ok := AsCall(e); ok && c.Name == "GetPhyAddr" && c.Receiver != nil {
			if k, _ := g.KindOf(c.Receiver); k == GMGlobalTensor {
				return GMData, nil
			}
		}
		return NotGM, nil
	case "conditional_expression":
		if k, v := g.KindOf(e.ChildByField("consequence")); k != NotGM {
			return k, v
		}
		return g.KindOf(e.ChildByField("alternative"))
	case "update_expression":
		return g.KindOf(e.ChildByField("argument"))
	case "assignment_expression":
		return g.KindOf(e.ChildByField("left"))
	case "pointer_expression":
		if operatorText(e) == "&" {
			a := Unparen(e.ChildByField("argument"))
			if a != nil && (a.Kind() == "subscript_expression" || a.Kind() == "pointer_expression") {
				return g.KindOf(a.ChildByField("argument"))
			}
		}
		return NotGM, nil
	case "subscript_expression":
		a := Unparen(e.ChildByField("argument"))
		if k, v := g.KindOf(a); k == GMGlobalTensor {
			// gt[off] is a GlobalTensor view at an offset, not a load.
			return k, v
		}
		if a != nil && (a.Kind() == "identifier" || a.Kind() == "field_expression") {
			var v *Var
			if a.Kind() == "identifier" {
				v = g.Lookup(a.Text(), a)
			} else if fld := a.ChildByField("field"); fld != nil {
				v = g.Field(fld.Text(), a)
			}
			if v != nil && v.ArrayOfPtr {
				return v.Kind, v
			}
		}
		return NotGM, nil
	}
	return NotGM, nil
}

// castKind classifies the target type of a cast.
func (g *GM) castKind(td *grammar.Node) (GMKind, *Var) {
	if td == nil {
		return NotGM, nil
	}
	if td.ChildByField("declarator") == nil || !strings.Contains(td.ChildByField("declarator").Kind(), "pointer") {
		return g.objectKind(td), nil
	}
	if !g.hasGMQualifier(td) {
		return NotGM, nil
	}
	return g.pointeeKind(BaseTypeName(td), false), nil
}

// hasGMQualifier reports a __gm__ on n, read in the masks of n's own file
// (an included header's node sits at its header's offsets, not at the
// model's file's), or, for a node of another file, in its text.
func (g *GM) hasGMQualifier(n *grammar.Node) bool {
	src := g.trees[n.Tree()]
	if src != nil && hasGM(src, LeadingStart(n), n.End) {
		return true
	}
	return (g.file == nil || n.Tree() != g.file.Tree) && strings.Contains(n.Text(), "__gm__")
}

// know records the files whose nodes the model reads.
func (g *GM) know(files ...*grammar.File) {
	for _, f := range files {
		if f != nil && f.Tree != nil {
			g.trees[f.Tree] = f
		}
	}
}

// CastType returns the target type_descriptor of a cast expression
// (reinterpret_cast, static_cast, const_cast, C-style), nil for another
// expression.
func CastType(e *grammar.Node) *grammar.Node { return castType(e) }

// castType returns the target type_descriptor of reinterpret_cast/
// static_cast/const_cast/C-style casts, or nil.
func castType(e *grammar.Node) *grammar.Node {
	e = Unparen(e)
	if e == nil {
		return nil
	}
	if e.Kind() == "cast_expression" {
		return e.ChildByField("type")
	}
	if e.Kind() != "call_expression" {
		return nil
	}
	fn := e.ChildByField("function")
	if fn == nil || fn.Kind() != "template_function" {
		return nil
	}
	name := fn.ChildByField("name")
	if name == nil {
		return nil
	}
	switch name.Text() {
	case "reinterpret_cast", "static_cast", "const_cast":
	default:
		return nil
	}
	ta := fn.ChildByField("arguments")
	if ta == nil {
		return nil
	}
	return ta.ChildOfKind("type_descriptor")
}

func operatorText(e *grammar.Node) string {
	if op := e.ChildByField("operator"); op != nil {
		return op.Text()
	}
	for c := e.FirstChild(); c != nil; c = c.NextSibling() {
		if !c.IsNamed() {
			return c.Kind()
		}
	}
	return ""
}

// Root names the memory an address expression points into, for matching a
// dcci with later accesses: casts, parentheses, pointer arithmetic and
// `&x[i]` are stripped; `this->` is dropped; `g.GetPhyAddr(i)` is g.
func Root(e *grammar.Node) string {
	e = Unparen(e)
	for e != nil {
		switch e.Kind() {
		case "identifier":
			return e.Text()
		case "field_expression":
			arg := Unparen(e.ChildByField("argument"))
			fld := e.ChildByField("field")
			if fld == nil {
				return ""
			}
			if arg == nil || arg.Kind() == "this" {
				return fld.Text()
			}
			op := "."
			if operatorText(e) == "->" {
				op = "->"
			}
			return Root(arg) + op + fld.Text()
		case "cast_expression":
			e = Unparen(e.ChildByField("value"))
			continue
		case "call_expression":
			if castType(e) != nil {
				if a := e.ChildByField("arguments").NamedChildren(); len(a) > 0 {
					e = Unparen(a[0])
					continue
				}
				return ""
			}
			if c, ok := AsCall(e); ok && c.Receiver != nil && c.Name == "GetPhyAddr" {
				e = Unparen(c.Receiver)
				continue
			}
			// A function returning the pointer (`data_of<T>(t)`): the call
			// as written names the memory.
			return strings.Join(strings.Fields(e.Text()), " ")
		case "binary_expression":
			l, r := e.ChildByField("left"), e.ChildByField("right")
			lr := Root(l)
			if lr == "" || Unparen(l).Kind() == "number_literal" {
				return Root(r)
			}
			if operatorText(e) == "+" && isPointerish(r) && !isPointerish(l) {
				return Root(r)
			}
			return lr
		case "pointer_expression":
			addrOf := operatorText(e) == "&"
			e = Unparen(e.ChildByField("argument"))
			if addrOf {
				// &p[i].x, &m->len: the memory is the base pointer's.
				for e != nil && (e.Kind() == "subscript_expression" || e.Kind() == "field_expression" && operatorText(e) == "." && isElement(e.ChildByField("argument"))) {
					e = Unparen(e.ChildByField("argument"))
				}
				if e != nil && e.Kind() == "field_expression" && operatorText(e) == "->" {
					e = Unparen(e.ChildByField("argument"))
				}
			}
			continue
		case "subscript_expression":
			e = Unparen(e.ChildByField("argument"))
			continue
		case "update_expression":
			e = Unparen(e.ChildByField("argument"))
			continue
		}
		return ""
	}
	return ""
}

// isElement reports whether e selects an element through a pointer
// (`p[i]`, `*p`, `m->f`), so a member of it lives in the pointer's memory.
func isElement(e *grammar.Node) bool {
	e = Unparen(e)
	if e == nil {
		return false
	}
	switch e.Kind() {
	case "subscript_expression":
		return true
	case "pointer_expression":
		return operatorText(e) == "*"
	case "field_expression":
		return operatorText(e) == "->"
	}
	return false
}

// isPointerish guesses, without a symbol table, whether an operand of `+`
// is the pointer: a cast to a pointer type or a subscript/address form.
func isPointerish(e *grammar.Node) bool {
	e = Unparen(e)
	if e == nil {
		return false
	}
	if ct := castType(e); ct != nil {
		d := ct.ChildByField("declarator")
		return d != nil && strings.Contains(d.Kind(), "pointer")
	}
	return e.Kind() == "pointer_expression" && operatorText(e) == "&"
}

// findHelpers records functions (in the file and its includes) whose body
// dccis one of their pointer parameters, directly or through another helper,
// e.g. a loop over cache lines: `for (...) dcci(p + i, SINGLE_CACHE_LINE);`.
func (g *GM) findHelpers(calls []incNode) {
	for round := 0; round < 3; round++ {
		changed := false
		for _, c := range calls {
			if !g.maybeDcci(c.n) {
				continue
			}
			call, ok := AsCall(c.n)
			if !ok {
				continue
			}
			var ptr *grammar.Node
			var args int32
			if a, rest, ok := g.dcciOperands(call); ok {
				ptr, args = a, rest
			} else if h, ok := g.helpers[call.Name]; ok && call.Receiver == nil {
				for i, a := range call.Args {
					if hargs, ok := helperArgs(h, i); ok {
						ptr, args = a, hargs
						break
					}
				}
			}
			if ptr == nil {
				continue
			}
			fn := EnclosingDefinition(c.n)
			if fn == nil {
				continue
			}
			root := Root(ptr)
			if root == "" {
				continue
			}
			for _, i := range paramsNamed(fn, root) {
				name := FunctionName(fn)
				if name == "" {
					continue
				}
				if _, seen := helperArgs(g.helpers[name], i); !seen {
					g.helpers[name] = append(g.helpers[name], helperArg{int32(i), args})
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
}

// maybeDcci reports whether the call n calls dcci,
// DataCacheCleanAndInvalid or a helper found so far, by its called name's
// bytes (CallName made a string of every call's name).
func (g *GM) maybeDcci(n *grammar.Node) bool {
	id := calledIdent(n)
	if id == nil {
		return false
	}
	b := id.Bytes()
	for _, d := range dcciNames { // compared, not converted: no string per call
		if string(b) == d {
			return true
		}
	}
	_, helper := g.helpers[string(b)]
	return helper
}

// paramsNamed returns the indices (as Params numbers them) of fn's
// parameters named name, comparing the source's bytes: findHelpers asks it
// for every dcci call, up to three times, and Params made the whole list
// with its texts each time. Usually one index; nil when none.
func paramsNamed(fn *grammar.Node, name string) []int {
	var out []int
	i := 0
	for p := range paramDecls(fn) {
		if id, _ := paramDeclarator(p); id != nil && string(id.Bytes()) == name {
			out = append(out, i)
		}
		i++
	}
	return out
}

// CallName returns the called name of a call_expression without taking the
// call apart (no allocation): "dcci" for `dcci(...)`, "GetValue" for
// `g.GetValue(i)`, "DataCacheCleanAndInvalid" for `AscendC::...<T>(g)`.
// Rules use it to skip calls before AsCall.
func CallName(n *grammar.Node) string {
	if id := calledIdent(n); id != nil {
		return id.Text()
	}
	return ""
}

// calledIdent is the identifier callNameNode finds when the called name is
// one (nil for an operator, a parenthesized callee, ...): CallName's names.
func calledIdent(n *grammar.Node) *grammar.Node {
	if nn, _ := callNameNode(n); nn != nil && (nn.Kind() == "identifier" || nn.Kind() == "field_identifier") {
		return nn
	}
	return nil
}

// helperArg is a parameter of a dcci helper whose pointer it dccis, with
// the dcci's arguments.
type helperArg struct {
	// args is the list's position in the model's argTab.
	param, args int32
}

// helperArgs returns the arguments of the dcci a helper does on its
// parameter i.
func helperArgs(h []helperArg, i int) (int32, bool) {
	for _, a := range h {
		if int(a.param) == i {
			return a.args, true
		}
	}
	return 0, false
}

// dcciNames are the calls that are a dcci themselves: the intrinsic,
// AscendC's DataCacheCleanAndInvalid and the asc C API's cache_ctrl
// functions (cAPIDcci).
var dcciNames = []string{"dcci", "DataCacheCleanAndInvalid", "asc_dcci_single", "asc_dcci_entire_out", "asc_dcci_entire_all"}

// cAPIDcci are the modes of the dcci each asc C API cache function is
// (asc-devkit c_api/cache_ctrl, the same on dav-c220 and dav-c310):
// `asc_dcci_single(dst)` is `dcci(dst, SINGLE_CACHE_LINE)`, the two-argument
// form (dst's line, every destination); `asc_dcci_entire_out()` and
// `asc_dcci_entire_all()` are `dcci((__gm__ int64_t *)0,
// ENTIRE_DATA_CACHE, CACHELINE_OUT / CACHELINE_ALL)`: every line of the
// core's data cache, written back and invalidated. (`asc_dcci_entire_ub`
// and `_atomic` maintain no GM lines the scalar path reads.)
var cAPIDcci = map[string][]string{
	"asc_dcci_single":     {"SINGLE_CACHE_LINE"},
	"asc_dcci_entire_out": {"ENTIRE_DATA_CACHE", "CACHELINE_OUT"},
	"asc_dcci_entire_all": {"ENTIRE_DATA_CACHE", "CACHELINE_ALL"},
}

// dcciOperands takes apart `dcci(ptr, mode[, dst])`,
// `[AscendC::]DataCacheCleanAndInvalid<T, line[, dst]>(gt)` and the C API's
// forms (ptr nil for the whole cache).
func dcciOperands(c Call) (ptr *grammar.Node, args []string, ok bool) {
	if modes, ok := cAPIDcci[c.Name]; ok {
		ptr, ok := cAPIDcciPtr(c, modes)
		return ptr, modes, ok
	}
	ptr, rest, ok := dcciArgs(c)
	for _, a := range rest {
		args = append(args, a.Text())
	}
	return ptr, args, ok
}

// cAPIDcciPtr is the pointer of a C API cache call: the single line's
// argument, none for the whole cache; ok is false for another signature.
func cAPIDcciPtr(c Call, modes []string) (*grammar.Node, bool) {
	if c.Receiver != nil {
		return nil, false
	}
	if modes[0] == "ENTIRE_DATA_CACHE" {
		return nil, len(c.Args) == 0
	}
	if len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

// strOf is str for a string made already.
func (g *GM) strOf(s string) string {
	if t, ok := g.strs[s]; ok {
		return t
	}
	if g.strs == nil {
		g.strs = map[string]string{}
	}
	g.strs[s] = s
	return s
}

// dcciOperands is the package's dcciOperands with the argument texts, and
// their list, interned while the model is built: a file's dccis repeat a
// few lists (`SINGLE_CACHE_LINE, CACHELINE_OUT`). args is the list's
// position in argTab (0 for none).
func (g *GM) dcciOperands(c Call) (ptr *grammar.Node, args int32, ok bool) {
	var key []byte
	modes, api := cAPIDcci[c.Name]
	if api {
		if ptr, ok = cAPIDcciPtr(c, modes); !ok {
			return nil, 0, false
		}
		key = g.keyBuf[:0]
		for _, m := range modes {
			key = append(append(key, m...), 0)
		}
		g.keyBuf = key
		if id, ok := g.argLists[string(key)]; ok {
			return ptr, id, true
		}
		return ptr, g.addArgList(key, modes), true
	}
	ptr, rest, ok := dcciArgs(c)
	if len(rest) == 0 {
		return ptr, 0, ok
	}
	key = g.keyBuf[:0]
	for _, a := range rest {
		key = append(append(key, a.Bytes()...), 0)
	}
	g.keyBuf = key
	if id, ok := g.argLists[string(key)]; ok {
		return ptr, id, true
	}
	l := make([]string, len(rest))
	for i, a := range rest {
		l[i] = g.str(a.Bytes())
	}
	return ptr, g.addArgList(key, l), true
}

// addArgList keeps a new dcci argument list l under key: its position in
// argTab.
func (g *GM) addArgList(key []byte, l []string) int32 {
	if len(g.argTab) == 0 {
		g.argTab = [][]string{nil}
	}
	if g.argLists == nil {
		g.argLists = map[string]int32{}
	}
	args := int32(len(g.argTab))
	g.argTab = append(g.argTab, l)
	g.argLists[string(key)] = args
	return args
}

// dcciArgs finds dcciOperands' pointer and argument nodes.
func dcciArgs(c Call) (ptr *grammar.Node, args []*grammar.Node, ok bool) {
	switch c.Name {
	case "dcci":
		if c.Receiver != nil || len(c.Args) == 0 {
			return nil, nil, false
		}
		return c.Args[0], c.Args[1:], true
	case "DataCacheCleanAndInvalid":
		if c.Receiver != nil || len(c.Args) == 0 || !c.InNamespace("AscendC") {
			return nil, nil, false
		}
		if len(c.TArgs) > 1 {
			args = c.TArgs[1:]
		}
		return c.Args[0], args, true
	}
	return nil, nil, false
}

// dcciRec is a dcci as the model keeps it while the rules run (a file has
// one per dcci and helper call): its call's index in the file's tree, its
// root and helper name in dcciStrs and its argument list in argTab (0 for
// "" and none). 20 bytes, where a Dcci is 80; Dccis, CoherentBefore and
// FlushedBefore make Dccis of them.
type dcciRec struct {
	call, root, args, helper int32
	all                      bool
}

// dcciFn locates a function's dccis: dcciRecs[lo:], dcciByRoot[rootLo:]
// and dcciOut[outLo:], each up to the next dcciFn's. fn is the function's
// index in the file's tree (-1 for none).
type dcciFn struct{ fn, lo, rootLo, outLo int32 }

// dcciStrAt is dcciStrs[id] ("" for 0 when the table is empty).
func (g *GM) dcciStrAt(id int32) string {
	if id == 0 {
		return ""
	}
	return g.dcciStrs[id]
}

// argsAt is argTab[id] (nil for 0 when the table is empty).
func (g *GM) argsAt(id int32) []string {
	if id == 0 {
		return nil
	}
	return g.argTab[id]
}

// dcciStr is s's position in dcciStrs, added if new.
func (g *GM) dcciStr(s string) int32 {
	if s == "" {
		return 0
	}
	if id, ok := g.dcciStrIDs[s]; ok {
		return id
	}
	if len(g.dcciStrs) == 0 {
		g.dcciStrs = []string{""}
	}
	if g.dcciStrIDs == nil {
		g.dcciStrIDs = map[string]int32{}
	}
	id := int32(len(g.dcciStrs))
	g.dcciStrs = append(g.dcciStrs, s)
	g.dcciStrIDs[s] = id
	return id
}

func (g *GM) findDccis(calls []*grammar.Node) {
	type found struct {
		fn int32
		r  dcciRec
	}
	var all []found
	for _, n := range calls {
		if !g.maybeDcci(n) {
			continue
		}
		call, ok := AsCall(n)
		if !ok {
			continue
		}
		r := dcciRec{call: int32(n.Index())}
		if ptr, args, ok := g.dcciOperands(call); ok {
			r.root, r.args = g.dcciStr(Root(ptr)), args
		} else if h, ok := g.helpers[call.Name]; ok && call.Receiver == nil {
			for i, a := range call.Args {
				if hargs, ok := helperArgs(h, i); ok {
					r.root, r.args, r.helper = g.dcciStr(Root(a)), hargs, g.dcciStr(call.Name)
					break
				}
			}
			if r.helper == 0 {
				continue
			}
		} else {
			continue
		}
		if (Dcci{Args: g.argsAt(r.args)}).HasArg("ENTIRE_DATA_CACHE") {
			r.all, r.root = true, 0
		}
		fn := int32(-1)
		if f := EnclosingFunction(n); f != nil {
			fn = int32(f.Index())
		}
		all = append(all, found{fn, r})
	}
	if len(all) == 0 {
		return
	}
	// Grouped by function, each in source order (the calls come in
	// preorder), then indexed by root.
	slices.SortStableFunc(all, func(a, b found) int { return cmp.Compare(a.fn, b.fn) })
	g.dcciRecs = make([]dcciRec, len(all))
	nr, no := 0, 0
	for i, d := range all {
		g.dcciRecs[i] = d.r
		if d.r.all || d.r.root != 0 {
			nr++
			if g.writesOut(d.r) {
				no++
			}
		}
	}
	g.dcciByRoot, g.dcciOut = make([]int32, 0, nr), make([]int32, 0, no)
	for lo := 0; lo < len(all); {
		hi := lo + 1
		for hi < len(all) && all[hi].fn == all[lo].fn {
			hi++
		}
		g.dcciFns = append(g.dcciFns, dcciFn{all[lo].fn, int32(lo), int32(len(g.dcciByRoot)), int32(len(g.dcciOut))})
		recs := g.dcciRecs[lo:hi]
		rootLo, outLo := len(g.dcciByRoot), len(g.dcciOut)
		for i, r := range recs {
			if r.all || r.root != 0 {
				g.dcciByRoot = append(g.dcciByRoot, int32(i))
				if g.writesOut(r) {
					g.dcciOut = append(g.dcciOut, int32(i))
				}
			}
		}
		byRoot := func(ix []int32) {
			slices.SortStableFunc(ix, func(a, b int32) int {
				return strings.Compare(g.dcciStrAt(recs[a].root), g.dcciStrAt(recs[b].root))
			})
		}
		byRoot(g.dcciByRoot[rootLo:])
		byRoot(g.dcciOut[outLo:])
		lo = hi
	}
	// The ends of the last function's lists.
	g.dcciFns = append(g.dcciFns, dcciFn{math.MaxInt32, int32(len(all)), int32(nr), int32(no)})
	g.dcciFns = slices.Clip(g.dcciFns)
	if cap(g.dcciFns) > len(g.dcciFns)+len(g.dcciFns)/8 {
		g.dcciFns = slices.Clone(g.dcciFns)
	}
}

// writesOut is Dcci.WritesOut for r.
func (g *GM) writesOut(r dcciRec) bool { return Dcci{Args: g.argsAt(r.args)}.WritesOut() }

// fnDccis are a function's dccis in source order (recs), indexed by root:
// byRoot lists the positions in recs of those with a root (root "" for
// the whole-cache ones) and out those of them that write lines out, each
// ordered by root then position.
type fnDccis struct {
	g           *GM
	fn          *grammar.Node
	recs        []dcciRec
	byRoot, out []int32
}

// fnDccis finds fn's dccis; ok is false when it has none.
func (g *GM) fnDccis(fn *grammar.Node) (fd fnDccis, ok bool) {
	if len(g.dcciFns) == 0 {
		return fd, false
	}
	key := int32(-1)
	if fn != nil {
		if g.file == nil || fn.Tree() != g.file.Tree {
			return fd, false
		}
		key = int32(fn.Index())
	}
	fns := g.dcciFns[:len(g.dcciFns)-1]
	k := sort.Search(len(fns), func(k int) bool { return fns[k].fn >= key })
	if k == len(fns) || fns[k].fn != key {
		return fd, false
	}
	a, b := g.dcciFns[k], g.dcciFns[k+1]
	return fnDccis{g, fn, g.dcciRecs[a.lo:b.lo], g.dcciByRoot[a.rootLo:b.rootLo], g.dcciOut[a.outLo:b.outLo]}, true
}

func (fd *fnDccis) root(i int32) string        { return fd.g.dcciStrAt(fd.recs[i].root) }
func (fd *fnDccis) call(i int32) *grammar.Node { return &fd.g.file.Tree.Nodes[fd.recs[i].call] }

// dcci makes the Dcci of recs[i].
func (fd *fnDccis) dcci(i int32) Dcci {
	r := fd.recs[i]
	return Dcci{Call: fd.call(i), Root: fd.g.dcciStrAt(r.root), All: r.all, Args: fd.g.argsAt(r.args),
		Helper: fd.g.dcciStrAt(r.helper), Func: fd.fn}
}

// rooted returns the positions in ix (byRoot or out) of the dccis on root,
// ascending. Both ends by binary search: a function of thousands of
// dccis on one pointer walked them all per store (9% of check on a 4 MB
// function, 14% at 8 MB).
func (fd *fnDccis) rooted(ix []int32, root string) []int32 {
	lo := sort.Search(len(ix), func(k int) bool { return fd.root(ix[k]) >= root })
	hi := lo + sort.Search(len(ix)-lo, func(k int) bool { return fd.root(ix[lo+k]) > root })
	return ix[lo:hi]
}

// Accesses returns every scalar GM access of the file in source order.
func (g *GM) Accesses() []Access { return g.accesses }

// LoadWrapper reports whether fn is a load wrapper (`return *p;` of its
// first parameter): each call of it is an access of the caller's.
func (g *GM) LoadWrapper(fn *grammar.Node) bool { return g.funcs[FunctionName(fn)] == scalarLoad }

// sameMemory reports whether a dcci root covers an access root: equal, or
// one is a variable initialized from the other (`auto q = (__gm__ T *)p;`).
func (g *GM) sameMemory(dcciRoot string, a Access) bool {
	if dcciRoot == "" {
		return false
	}
	if dcciRoot == a.Root() {
		return true
	}
	if init := a.Var.initOf(); init != nil && Root(init) == dcciRoot {
		return true
	}
	if init := g.Lookup(dcciRoot, a.Node).initOf(); init != nil && Root(init) == a.Root() {
		return true
	}
	return false
}

// indexInits records, by root, the names declared with an initializer of
// that root (initNames).
func (g *GM) indexInits() {
	g.initNames = map[string][]string{}
	addInit := func(name string, v *Var) {
		init := v.Init()
		if init == nil {
			return
		}
		r := Root(init)
		if ns := g.initNames[r]; len(ns) == 0 || ns[len(ns)-1] != name {
			g.initNames[r] = append(ns, name)
		}
	}
	addInits := func(name string, vs []*Var) {
		for _, v := range vs {
			addInit(name, v)
		}
	}
	for name, l := range g.vars {
		for _, j := range l {
			addInit(name, &g.locals[j])
		}
	}
	if g.varIx != nil {
		for name, os := range g.varIx.outer {
			for _, o := range os {
				addInit(name, o.v)
			}
		}
	}
	// A member's declarations in their order: the includes', then the
	// file's.
	for name, vs := range g.envFields {
		addInits(name, vs)
		addInits(name, g.fields[name])
	}
	for name, vs := range g.fields {
		if _, ok := g.envFields[name]; !ok {
			addInits(name, vs)
		}
	}
}

// dcciCandidates calls yield with, per root, the positions (ascending) in
// ix (fd.byRoot or fd.out) of the dccis of a's function that can cover it
// (sameMemory or the whole cache): its own root, the root of its
// initializer, and names declared from its root.
func (g *GM) dcciCandidates(fd *fnDccis, ix []int32, a Access, yield func([]int32)) {
	if len(ix) == 0 {
		return
	}
	g.initsOnce.Do(g.indexInits)
	yield(fd.rooted(ix, ""))
	yield(fd.rooted(ix, a.Root()))
	if init := a.Var.initOf(); init != nil {
		if r := Root(init); r != a.Root() {
			yield(fd.rooted(ix, r))
		}
	}
	for _, name := range g.initNames[a.Root()] {
		if name != a.Root() {
			yield(fd.rooted(ix, name))
		}
	}
}

// CoherentBefore returns a dcci in the access's function, before it in the
// source, on the same memory (or on the entire data cache): after it the
// read misses the stale line. nil when there is none.
func (g *GM) CoherentBefore(a Access) *Dcci {
	fd, ok := g.fnDccis(a.Func())
	if !ok {
		return nil
	}
	// The dccis that end before the access.
	stop := sort.Search(len(fd.recs), func(i int) bool { return fd.call(int32(i)).End > a.Node.Start })
	best := -1
	g.dcciCandidates(&fd, fd.byRoot, a, func(idx []int32) {
		for _, i := range idx {
			if int(i) >= stop || best >= 0 && int(i) >= best {
				break
			}
			if fd.recs[i].all || g.sameMemory(fd.root(i), a) {
				best = int(i)
				break
			}
		}
	})
	if best < 0 {
		return nil
	}
	d := fd.dcci(int32(best))
	return &d
}

// FlushedBefore returns a dcci after the access in its function, starting
// before end, that writes the lines of the same memory (or of the entire
// cache) out; nil when there is none. A store asks up to the next
// barrier. Only the dccis that write out are looked at, so invalidations
// of the memory between the store and its write-back cost nothing.
func (g *GM) FlushedBefore(a Access, end uint32) *Dcci {
	fd, ok := g.fnDccis(a.Func())
	if !ok {
		return nil
	}
	best := -1
	g.dcciCandidates(&fd, fd.out, a, func(idx []int32) {
		k := sort.Search(len(idx), func(k int) bool { return fd.call(idx[k]).Start >= a.Node.End })
		for _, i := range idx[k:] {
			if fd.call(i).Start >= end || best >= 0 && int(i) >= best {
				break
			}
			if fd.recs[i].all || g.sameMemory(fd.root(i), a) {
				best = int(i)
				break
			}
		}
	})
	if best < 0 {
		return nil
	}
	d := fd.dcci(int32(best))
	return &d
}

// MacroArgFacts are FileFacts that know a unit's macros: the argument
// lists of f's uses of macros that expand without their arguments, in
// source order. What is written there is never evaluated.
type MacroArgFacts interface {
	UnevaluatedArgs(f *grammar.File) []*grammar.Node
}

// findAccesses records the accesses among cands (in source order), but
// those inside the skip ranges (in source order).
func (g *GM) findAccesses(cands []*grammar.Node, skip []*grammar.Node) {
	seen := map[*grammar.Node]bool{}
	for _, n := range cands {
		for len(skip) > 0 && skip[0].End <= n.Start {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0].Start <= n.Start {
			continue
		}
		var a Access
		var ptr *grammar.Node
		switch n.Kind() {
		case "subscript_expression":
			base := n.ChildByField("argument")
			k, v := g.KindOf(base)
			if k != GMData {
				continue
			}
			ptr, a = base, Access{Var: v, Via: ViaSubscript}
		case "pointer_expression":
			if operatorText(n) != "*" {
				continue
			}
			base := n.ChildByField("argument")
			k, v := g.KindOf(base)
			if k != GMData {
				continue
			}
			ptr, a = base, Access{Var: v, Via: ViaDeref}
		case "field_expression":
			if operatorText(n) != "->" {
				continue
			}
			if p := n.Parent(); p != nil && p.Kind() == "call_expression" && n.Field() == "function" {
				continue
			}
			base := n.ChildByField("argument")
			k, v := g.KindOf(base)
			if k != GMData {
				continue
			}
			ptr, a = base, Access{Var: v, Via: ViaArrow}
		case "call_expression":
			// A load wrapper's call reads through its argument (the name
			// first: parsing every call cost the model's build).
			if k, ok := g.funcs[CallName(n)]; ok && k == scalarLoad {
				if call, ok := AsCall(n); ok && call.Receiver == nil && len(call.Args) > 0 {
					if k, v := g.KindOf(call.Args[0]); k == GMData {
						ptr, a = call.Args[0], Access{Var: v, Via: ViaLoad, Kind: Read}
						break
					}
					continue
				}
			}
			if fn := n.ChildByField("function"); fn == nil || fn.Kind() != "identifier" && fn.Kind() != "field_expression" {
				continue
			} else if fn.Kind() == "field_expression" {
				if name := CallName(n); name != "GetValue" && name != "SetValue" {
					continue
				}
			}
			call, ok := AsCall(n)
			if !ok {
				continue
			}
			switch {
			case call.Receiver != nil && (call.Name == "GetValue" || call.Name == "SetValue"):
				k, v := g.KindOf(call.Receiver)
				if k != GMGlobalTensor {
					continue
				}
				ptr, a = call.Receiver, Access{Var: v, Via: ViaGetValue, Kind: Read}
				if call.Name == "SetValue" {
					a.Via, a.Kind = ViaSetValue, Write
				}
			case call.Receiver == nil && call.Qualified == call.Name:
				// g(i): GlobalTensor's operator() returns a reference to
				// the element.
				fn := n.ChildByField("function")
				if fn == nil || fn.Kind() != "identifier" {
					continue
				}
				k, v := g.KindOf(fn)
				if k != GMGlobalTensor {
					continue
				}
				ptr, a = fn, Access{Var: v, Via: ViaCall}
			default:
				continue
			}
		default:
			continue
		}
		a.Node = n
		if a.Via == ViaSubscript || a.Via == ViaDeref || a.Via == ViaArrow || a.Via == ViaCall {
			// Member and array-member selections continue the same access:
			// p[i].x, p->arr[2].
			for p := a.Node.Parent(); p != nil; p = a.Node.Parent() {
				if p.Kind() == "field_expression" && operatorText(p) == "." && a.Node.Field() == "argument" {
					if pp := p.Parent(); pp != nil && pp.Kind() == "call_expression" && p.Field() == "function" {
						break
					}
					a.Node = p
					continue
				}
				if p.Kind() == "subscript_expression" && a.Node.Field() == "argument" {
					if k, _ := g.KindOf(a.Node); k == NotGM {
						a.Node = p
						continue
					}
				}
				break
			}
			if seen[a.Node] {
				continue
			}
			kind, ok := accessContext(a.Node)
			if !ok {
				continue
			}
			a.Kind = kind
		} else if !valueContext(a.Node) {
			continue
		}
		seen[a.Node] = true
		a.root = g.ref(Root(ptr))
		a.ptrAt = a.offset(ptr)
		a.funcAt = a.offset(EnclosingFunction(n))
		a.stmtAt = a.offset(BlockStatementOf(a.Node))
		g.accesses = append(g.accesses, a)
	}
	// At its size: the model is kept for the unit's life.
	if cap(g.accesses) > len(g.accesses)+len(g.accesses)/8 {
		g.accesses = slices.Clone(g.accesses)
	}
}

// accessContext decides what the use of an lvalue does: load, store, both,
// or nothing (address taken, unevaluated operand, reference binding).
func accessContext(n *grammar.Node) (AccessKind, bool) {
	child := n
	p := n.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		child, p = p, p.Parent()
	}
	if p == nil {
		return Read, true
	}
	switch p.Kind() {
	case "assignment_expression":
		if child.Field() == "left" {
			if operatorText(p) == "=" {
				return Write, true
			}
			return ReadWrite, true
		}
	case "update_expression":
		return ReadWrite, true
	case "pointer_expression":
		if operatorText(p) == "&" {
			return 0, false
		}
	case "init_declarator":
		if d := p.ChildByField("declarator"); d != nil && d.Kind() == "reference_declarator" {
			return 0, false
		}
	}
	if !valueContext(n) {
		return 0, false
	}
	return Read, true
}

// valueContext is false inside sizeof/decltype/alignof/noexcept, where
// nothing is loaded.
func valueContext(n *grammar.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "sizeof_expression", "alignof_expression", "decltype", "noexcept":
			return false
		case "expression_statement", "declaration", "compound_statement", "function_definition":
			return true
		}
	}
	return true
}

// BlockStatementOf returns the statement to insert code before for n: its
// outermost enclosing statement whose parent is a block, a case or a
// preprocessor branch inside a block, so an insertion never lands in an
// unbraced if/for body. nil outside functions.
func BlockStatementOf(n *grammar.Node) *grammar.Node {
	for c, p := n, n.Parent(); p != nil; c, p = p, p.Parent() {
		switch p.Kind() {
		case "compound_statement", "case_statement", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
			if c.Field() == "value" && p.Kind() == "case_statement" || c.Field() == "condition" || c.Field() == "name" {
				continue
			}
			if p.Kind() != "compound_statement" && p.Kind() != "case_statement" && p.Ancestor("compound_statement") == nil {
				// A preprocessor block at file scope.
				return nil
			}
			return c
		case "function_definition", "lambda_expression", "field_declaration_list", "translation_unit", "initializer_list":
			return nil
		}
	}
	return nil
}
