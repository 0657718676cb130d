package cxx

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// FuncDef is a function definition in one of the files of a Funcs index.
type FuncDef struct {
	File *grammar.File
	Node *grammar.Node // function_definition
	Name string
}

// Body returns the function's compound statement, or nil.
func (d FuncDef) Body() *grammar.Node { return d.Node.ChildByField("body") }

// Funcs indexes the function definitions of a file and the workspace files
// it includes, so rules can follow a call into a helper's body (the
// barrier a phase function reaches, the drain a helper performs). Build it
// once per unit (a unit fact) and share it: it is safe for concurrent use.
// The match functions given to Reach and CallReaches must not call back
// into the index.
type Funcs struct {
	// mu guards the lazily filled calls and memo.
	mu  sync.Mutex
	all []FuncDef
	// byName are the definitions of every file ordered by name, in file
	// order within a name: Lookup's answers are runs of it (a map kept a
	// list per name, and most names are one function's).
	byName []FuncDef
	// types and fields are TypesOf's and FieldTypes' answers, joined from
	// the shares' own (FileFuncs.declTypes) on first ask: a unit made
	// again after an edit reads the declarations of the edited file
	// alone (typesMu guards them).
	shares        []*FileFuncs
	typesMu       sync.Mutex
	types, fields map[string][]string
	// callees memoizes Callees of a call by no receiver (name, argument
	// count): each call site of a name a unit does not define looked at
	// every operator() of the unit (a library of functors made that most
	// of a check's time).
	callees map[calleeKey][]FuncDef
	calls   map[*grammar.Node][]*grammar.Node
	own     map[*grammar.Node][]*grammar.Node
	// ff and trees find a body's calls in its file's list of them, asked
	// once per file (fs.mu held).
	ff    FileFacts
	trees map[*grammar.Tree]*treeCalls
	memo  map[reachKey]*reachResult
	// whats numbers the predicates' names of the memo's keys.
	whats map[string]uint16
	// unitGuards is the unit's guard model (Forward's choice of a
	// macro's definition), nil outside a unit.
	unitGuards func(*grammar.File) *grammar.Guards
	macroDefs  func(name string) []*Macro
	// pasting are the unit's pasting macros (PastingMacros).
	pasting map[string]*Macro
}

// FuncsOf joins the files' shares of the index (ff.Funcs), in order.
func FuncsOf(ff FileFacts, files ...*grammar.File) *Funcs {
	ff = factsOr(ff)
	shares := make([]*FileFuncs, len(files))
	defs, own := 0, 0
	for i, f := range files {
		shares[i] = ff.Funcs(f)
		defs += len(shares[i].defs)
		if f.MacroOf == nil {
			own += len(shares[i].defs)
		}
	}
	fs := &Funcs{
		byName: make([]FuncDef, 0, defs),
		calls:  map[*grammar.Node][]*grammar.Node{},
		memo:   map[reachKey]*reachResult{},
		ff:     ff,
		trees:  make(map[*grammar.Tree]*treeCalls, len(files)),
	}
	if g, ok := ff.(UnitGuards); ok {
		fs.unitGuards = g.IncludeGuards
	}
	if t, ok := ff.(MacroTable); ok {
		fs.macroDefs = t.MacroDefs
	}
	if t, ok := ff.(PastingMacros); ok {
		fs.pasting = t.PastingMacros()
	}
	ownFiles := 0
	bounds := make([]int, 1, len(files)+1)
	for i, f := range files {
		if f.Tree != nil {
			fs.trees[f.Tree] = &treeCalls{f: f}
		}
		p := shares[i]
		for _, k := range p.byName {
			fs.byName = append(fs.byName, p.defs[k])
		}
		bounds = append(bounds, len(fs.byName))
		// A macro body is reached through its uses only: it is no
		// function of the unit of its own.
		if f.MacroOf == nil {
			fs.shares = append(fs.shares, p)
			if len(p.defs) > 0 {
				ownFiles++
			}
		}
	}
	fs.byName = mergeByName(fs.byName, bounds)
	if ownFiles == 1 {
		// One file's definitions: its share's list, not a copy.
		for _, p := range fs.shares {
			if len(p.defs) > 0 {
				fs.all = p.defs[:len(p.defs):len(p.defs)]
			}
		}
	} else {
		fs.all = make([]FuncDef, 0, own)
		for _, p := range fs.shares {
			fs.all = append(fs.all, p.defs...)
		}
	}
	return fs
}

// mergeByName merges the runs of defs (each sorted by name, run i from
// bounds[i] to bounds[i+1]) into one, stably: a name's definitions keep
// their runs' order, as a stable sort of defs would.
func mergeByName(defs []FuncDef, bounds []int) []FuncDef {
	return mergeRuns(defs, bounds, func(a, b FuncDef) int { return strings.Compare(a.Name, b.Name) })
}

// mergeRuns merges the runs of s (each sorted by cmp, run i from bounds[i]
// to bounds[i+1]) into one, stably: equal elements keep their runs' order,
// as a stable sort of s would. Pairs of runs are merged until one is left:
// n·log(runs) comparisons, where sorting s again would take n·log(n).
func mergeRuns[T any](s []T, bounds []int, cmp func(a, b T) int) []T {
	if len(bounds) <= 2 {
		return s
	}
	to := make([]T, len(s))
	for len(bounds) > 2 {
		runs := len(bounds) - 1
		next := make([]int, 0, runs/2+2)
		for m := 0; 2*m < runs; m++ {
			lo, mid := bounds[2*m], bounds[2*m+1]
			hi := mid
			if 2*m+1 < runs {
				hi = bounds[2*m+2]
			}
			i, j, k := lo, mid, lo
			for ; i < mid && j < hi; k++ {
				if cmp(s[j], s[i]) < 0 {
					to[k], j = s[j], j+1
				} else {
					to[k], i = s[i], i+1
				}
			}
			k += copy(to[k:], s[i:mid])
			copy(to[k:], s[j:hi])
			next = append(next, lo)
		}
		bounds = append(next, bounds[runs])
		s, to = to, s
	}
	return s
}

// appendDecls adds the names a declaration declares, with their types,
// their strings made by str (one string per distinct text: a file's
// declarations repeat a few types and names).
func appendDecls(out []typeDecl, n *grammar.Node, str func([]byte) string) []typeDecl {
	t := n.ChildByField("type")
	if t == nil {
		return out
	}
	if name := n.ChildByField("name"); n.Kind() == "alias_declaration" && name != nil {
		// `using Epilogue = BlockEpilogue<...>;`: the alias's type.
		return append(out, typeDecl{name: str(name.Bytes()), typ: str(t.Bytes())})
	}
	var cls string
	if n.Kind() == "field_declaration" {
		if c := n.Ancestor("class_specifier", "struct_specifier"); c != nil {
			if name := c.ChildByField("name"); name != nil {
				cls = str(name.Bytes())
			}
		}
	}
	for _, d := range n.ChildrenByField("declarator") {
		typ := str(t.Bytes())
		if d.Kind() == "function_declarator" && n.Ancestor("function_definition") != nil {
			// `Epilogue epilogue(resource);` in a body: an object.
			d = d.ChildByField("declarator")
		}
		switch d.Kind() {
		// A pointer or reference member does not own the object.
		case "pointer_declarator":
			typ = str(append([]byte(typ), " *"...))
		case "reference_declarator":
			typ = str(append([]byte(typ), " &"...))
		}
		if name := declaredName(d); name != nil || cls != "" {
			out = append(out, typeDecl{class: cls, typ: typ})
			if name != nil {
				out[len(out)-1].name = str(name.Bytes())
			}
		}
	}
	return out
}

func appendString(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// DeclaredName returns the identifier a declarator declares (through
// pointers, references, arrays and initializers).
func DeclaredName(d *grammar.Node) string {
	if n := declaredName(d); n != nil {
		return n.Text()
	}
	return ""
}

// declaredName is the node of DeclaredName's identifier (nil for none).
func declaredName(d *grammar.Node) *grammar.Node {
	for d != nil {
		switch d.Kind() {
		case "identifier", "field_identifier":
			return d
		case "pointer_declarator", "array_declarator", "init_declarator", "attributed_declarator":
			d = d.ChildByField("declarator")
		case "reference_declarator":
			c := d.NamedChildren()
			if len(c) == 0 {
				return nil
			}
			d = c[len(c)-1]
		default:
			return nil
		}
	}
	return nil
}

// TypesOf returns the type texts a name is declared with in the indexed
// files (variables, parameters and fields alike; " *" / " &" appended for
// pointers and references): a scope-blind lookup that is good enough to
// tell a GlobalTensor from a LocalTensor.
func (fs *Funcs) TypesOf(name string) []string { return fs.joined(&fs.types, name, false) }

// FieldTypes returns the field types of a class or struct by name.
func (fs *Funcs) FieldTypes(class string) []string { return fs.joined(&fs.fields, class, true) }

// joined is the shares' type texts of name (of a class's fields when
// fields is set), in file order without repeats, memoized in *memo.
func (fs *Funcs) joined(memo *map[string][]string, name string, fields bool) []string {
	fs.typesMu.Lock()
	defer fs.typesMu.Unlock()
	if v, ok := (*memo)[name]; ok {
		return v
	}
	var out []string
	for _, p := range fs.shares {
		for _, t := range p.declTypes(fields)[name] {
			out = appendString(out, t)
		}
	}
	if *memo == nil {
		*memo = map[string][]string{}
	}
	(*memo)[name] = out
	return out
}

// Lookup returns the definitions with a name (overloads and methods of
// different classes all share it: callers treat them as "may call").
func (fs *Funcs) Lookup(name string) []FuncDef {
	return equalRun(fs.byName, name, func(d FuncDef, name string) int { return strings.Compare(d.Name, name) })
}

// All returns every indexed definition, the file's own first, in source
// order.
func (fs *Funcs) All() []FuncDef { return fs.all }

// Callees resolves a call to the indexed definitions it may run: the
// functions and methods of its name, or, for a call through an object of a
// class type (`Kernel kernel; kernel(params);`), that class's operator().
func (fs *Funcs) Callees(c Call) []FuncDef {
	if name, ok := fs.pastedCallee(c); ok {
		return fs.Lookup(name)
	}
	if defs := fs.Lookup(c.Name); len(defs) > 0 || c.Receiver != nil {
		return fs.ofScope(c, defs)
	}
	ops := fs.Lookup("operator()")
	if len(ops) == 0 {
		return nil
	}
	key := calleeKey{c.Name, len(c.Args)}
	fs.typesMu.Lock()
	out, ok := fs.callees[key]
	fs.typesMu.Unlock()
	if ok {
		return out
	}
	out = fs.functorCalls(c, ops)
	fs.typesMu.Lock()
	if fs.callees == nil {
		fs.callees = map[calleeKey][]FuncDef{}
	}
	fs.callees[key] = out
	fs.typesMu.Unlock()
	return out
}

// ofScope narrows the definitions of a qualified call (`Stage::Run()`,
// `Local::call(this, x)` after `using Local = typename Ext::SetInput;`) to
// the methods of the class its scope names, following type aliases (the
// nearest one in the call's own blocks first) a few steps. A scope naming
// no class that defines the method (a namespace, a base class) keeps them
// all.
func (fs *Funcs) ofScope(c Call, defs []FuncDef) []FuncDef {
	if len(defs) < 2 || c.Receiver != nil || len(c.Qualified) <= len(c.Name)+2 {
		return defs
	}
	name := BaseName(c.Qualified[:len(c.Qualified)-len(c.Name)-2])
	for range 4 {
		var out []FuncDef
		for _, d := range defs {
			if ClassOf(d.Node) == name {
				out = append(out, d)
			}
		}
		if len(out) > 0 {
			return out
		}
		t := localAlias(c.Node, name)
		if t == "" {
			ts := fs.TypesOf(name)
			if len(ts) != 1 {
				return defs
			}
			t = ts[0]
		}
		// `typename Ext::template Compute<sync>` names Compute.
		next := strings.TrimPrefix(BaseName(strings.TrimPrefix(strings.TrimSpace(t), "typename ")), "template ")
		if next == name || next == "" {
			return defs
		}
		name = next
	}
	return defs
}

// localAlias is the type of the alias `using name = T;` declared in a
// block around n before it, "" for none.
func localAlias(n *grammar.Node, name string) string {
	for b := n; b != nil; b = b.Parent() {
		if b.Kind() == "function_definition" {
			return ""
		}
		if b.Kind() != "compound_statement" {
			continue
		}
		for _, st := range b.NamedChildren() {
			if st.Start >= n.Start {
				break
			}
			if st.Kind() != "alias_declaration" {
				continue
			}
			if id := st.ChildByField("name"); id != nil && id.Text() == name {
				if t := st.ChildByField("type"); t != nil {
					return t.Text()
				}
			}
		}
	}
	return ""
}

// pastedCallee is the name of the instance a use of a pasting macro
// reaches (PastedShadows); ok is false for any other call.
func (fs *Funcs) pastedCallee(c Call) (string, bool) {
	if len(fs.pasting) == 0 || c.Receiver != nil || c.HasTArgs || c.Qualified != c.Name || c.Name == "" {
		return "", false
	}
	m := fs.pasting[c.Name]
	if m == nil {
		return "", false
	}
	return PastedName(m, ArgTexts(c.Args)), true
}

// PastedInstance is the instance of a pasting macro that the use c
// reaches (PastedShadows): ok when the unit parsed exactly one, whole.
func (fs *Funcs) PastedInstance(c Call) (FuncDef, bool) {
	name, ok := fs.pastedCallee(c)
	if !ok || name == "" {
		return FuncDef{}, false
	}
	defs := fs.Lookup(name)
	if len(defs) != 1 || defs[0].File.MacroOf == nil || hasError(defs[0].Node) {
		return FuncDef{}, false
	}
	return defs[0], true
}

type calleeKey struct {
	name string
	args int
}

// functorCalls are the operator()s a call of c.Name (an object) may run.
func (fs *Funcs) functorCalls(c Call, ops []FuncDef) []FuncDef {
	var out []FuncDef
	for _, t := range fs.TypesOf(c.Name) {
		// The object's class, or the one its type alias names.
		classes := []string{BaseName(t)}
		for _, a := range fs.TypesOf(classes[0]) {
			classes = append(classes, BaseName(a))
		}
		for _, d := range ops {
			if slices.Contains(classes, ClassOf(d.Node)) {
				out = append(out, d)
			}
		}
	}
	// The specializations of one class template share its name: those
	// whose parameters take the call's arguments come first.
	slices.SortStableFunc(out, func(a, b FuncDef) int {
		return cmp.Compare(arityMiss(a.Node, len(c.Args)), arityMiss(b.Node, len(c.Args)))
	})
	return out
}

// arityMiss is 1 when fn cannot take n arguments (Takes), else 0.
func arityMiss(fn *grammar.Node, n int) int {
	if Takes(fn, n) {
		return 0
	}
	return 1
}

// ClassNode is the class or struct whose body defines method fn, nil
// for a free function (or a method defined outside its class, `X::f`).
func ClassNode(fn *grammar.Node) *grammar.Node {
	for p := fn.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "class_specifier", "struct_specifier":
			return p
		case "function_definition", "translation_unit", "namespace_definition":
			return nil
		}
	}
	return nil
}

// ClassOf returns the name of the class or struct a method belongs to: the
// one whose body holds the definition, or the scope of `X::f` written
// outside it.
func ClassOf(fn *grammar.Node) string {
	if cls := fn.Ancestor("class_specifier", "struct_specifier"); cls != nil {
		if name := cls.ChildByField("name"); name != nil {
			return BaseName(name.Text())
		}
	}
	if d := FunctionDeclarator(fn); d != nil {
		if q := d.ChildByField("declarator"); q != nil && q.Kind() == "qualified_identifier" {
			if scope := q.ChildByField("scope"); scope != nil {
				return BaseName(scope.Text())
			}
		}
	}
	return ""
}

// EnclosingNamespace is the name of the innermost namespace n is defined
// in ("" outside any, or in an anonymous one): `namespace a::ns {` is ns.
func EnclosingNamespace(n *grammar.Node) string {
	if ns := n.Ancestor("namespace_definition"); ns != nil {
		if name := ns.ChildByField("name"); name != nil {
			return BaseName(name.Text())
		}
	}
	return ""
}

// BaseName strips scope and template arguments: "ns::Kernel<T, 2>" ->
// "Kernel".
func BaseName(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndex(t, "::"); i >= 0 {
		t = t[i+2:]
	}
	return strings.TrimSpace(t)
}

// Calls returns the call expressions in a function's body in source order
// (calls inside lambdas defined there included).
func (fs *Funcs) Calls(fn *grammar.Node) []*grammar.Node {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.callsIn(fn)
}

// OwnCalls returns the calls of Calls that fn itself makes: not those
// inside a lambda or a local class's function defined in it (whose
// EnclosingFunction is not fn). One pass over the body: asking
// EnclosingFunction per call walks up as deep as the call is nested.
func (fs *Funcs) OwnCalls(fn *grammar.Node) []*grammar.Node {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if cs, ok := fs.own[fn]; ok {
		return cs
	}
	body := fn.ChildByField("body")
	if body == nil {
		return nil
	}
	if t := body.Tree(); len(body.Inside(t.OfKind("lambda_expression"))) == 0 && len(body.Inside(t.OfKind("function_definition"))) == 0 {
		// Every call of the body is fn's own: Calls' list, not a copy
		// remembered per function.
		return fs.callsIn(fn)
	}
	var out []*grammar.Node
	ds := body.Descendants()
	for i := 0; i < len(ds); {
		switch ds[i].Kind() {
		case "function_definition", "lambda_expression":
			i += len(ds[i].Descendants())
			continue
		case "call_expression":
			out = append(out, &ds[i])
		}
		i++
	}
	if fs.own == nil {
		fs.own = map[*grammar.Node][]*grammar.Node{}
	}
	fs.own[fn] = out
	return out
}

type treeCalls struct {
	f     *grammar.File
	calls []*grammar.Node
	done  bool
}

// treeCalls returns the call expressions of t in preorder, when t is the
// tree of one of the index's files (fs.mu held).
func (fs *Funcs) treeCalls(t *grammar.Tree) ([]*grammar.Node, bool) {
	tc := fs.trees[t]
	if tc == nil {
		return nil, false
	}
	if !tc.done {
		tc.calls, tc.done = fs.ff.Nodes(tc.f, "call_expression"), true
	}
	return tc.calls, true
}

func (fs *Funcs) callsIn(fn *grammar.Node) []*grammar.Node {
	body := fn.ChildByField("body")
	if body == nil {
		return nil
	}
	// A body in an indexed file: a binary search in the file's calls,
	// not remembered per function.
	if all, ok := fs.treeCalls(body.Tree()); ok {
		if out := body.Inside(all); len(out) > 0 {
			return out
		}
		return nil
	}
	if cs, ok := fs.calls[fn]; ok {
		return cs
	}
	var out []*grammar.Node
	ds := body.Descendants()
	for i := range ds {
		if ds[i].Kind() == "call_expression" {
			out = append(out, &ds[i])
		}
	}
	fs.calls[fn] = out
	return out
}

// Hop is one step of a call chain: a call in a file.
type Hop struct {
	File *grammar.File
	Call *grammar.Node
}

// reachKey is a memoized question: a function, the cores and the
// predicate's number in whats (16 bytes: a key per function a walk
// reaches, per predicate and cores).
type reachKey struct {
	fn    *grammar.Node
	what  uint16
	cores grammar.Cores
}

// reachResult is a memoized answer: the chain from a function's body to a
// match as its first call and the answer of the function that call enters
// (next; nil when the call itself matches). Chains share their tails: a
// chain copied into each caller's answer, up a helper chain, cost a slice
// per answer and a hop per level.
type reachResult struct {
	hop  Hop
	next *reachResult
	// leaf is the chain's last answer (the match's), for a chain cut at
	// maxChain.
	leaf *reachResult
	busy bool
}

// link is a chain: a call and the answer of the function it enters (nil
// when the call matches); no call for no chain.
type link struct {
	hop  Hop
	next *reachResult
}

// hops is the chain of l: its first hops and its match when longer than
// maxChain.
func (l link) hops() []Hop {
	if l.hop.Call == nil {
		return nil
	}
	n := 1
	for r := l.next; r != nil && n < maxChain; r = r.next {
		n++
	}
	out := make([]Hop, 0, n)
	out = append(out, l.hop)
	r := l.next
	for ; r != nil && len(out) < maxChain-1; r = r.next {
		out = append(out, r.hop)
	}
	if r != nil {
		out = append(out, r.leaf.hop)
	}
	return out
}

// MaxCallDepth bounds how deep Reach follows calls into helpers.
const MaxCallDepth = 6

// Reach looks for a call matching match in fn's body or, through calls to
// indexed functions, in the functions it calls (up to MaxCallDepth levels),
// considering only code that the given cores compile. what names the
// predicate for memoization. It returns the chain of calls from fn's body
// to the matching call (its first hops and the match when longer than
// maxChain), or nil.
func (fs *Funcs) Reach(d FuncDef, cores grammar.Cores, what string, match func(f *grammar.File, c Call) bool) []Hop {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if r := fs.reach(d, cores, what, match, MaxCallDepth); r != nil {
		return link{r.hop, r.next}.hops()
	}
	return nil
}

// reach is fn's answer, nil for none.
func (fs *Funcs) reach(d FuncDef, cores grammar.Cores, what string, match func(f *grammar.File, c Call) bool, depth int) *reachResult {
	w, ok := fs.whats[what]
	if !ok {
		if fs.whats == nil {
			fs.whats = map[string]uint16{}
		}
		w = uint16(len(fs.whats))
		fs.whats[what] = w
	}
	key := reachKey{d.Node, w, cores}
	if r, ok := fs.memo[key]; ok {
		if r.busy || r == noReach {
			return nil // recursion: the outer visit decides
		}
		return r
	}
	r := &reachResult{busy: true}
	fs.memo[key] = r
	for _, n := range fs.callsIn(d.Node) {
		if l := fs.callReaches(d.File, n, cores, what, match, depth); l.hop.Call != nil {
			r.hop, r.next, r.leaf = l.hop, l.next, r
			if l.next != nil {
				r.leaf = l.next.leaf
			}
			break
		}
	}
	r.busy = false
	if r.hop.Call != nil {
		return r
	}
	if depth <= 1 {
		// A miss at the depth limit may be a hit from a shallower start.
		delete(fs.memo, key)
	} else {
		// Most questions are misses: they share one answer.
		fs.memo[key] = noReach
	}
	return nil
}

// noReach is the memoized answer of every miss.
var noReach = &reachResult{}

// CallReaches reports whether the call n in file f matches, or calls an
// indexed function that reaches a match (see Reach). The chain starts with
// n itself.
func (fs *Funcs) CallReaches(f *grammar.File, n *grammar.Node, cores grammar.Cores, what string, match func(f *grammar.File, c Call) bool, depth int) []Hop {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.callReaches(f, n, cores, what, match, depth).hops()
}

// CallReachesAny is CallReaches != nil without making the chain.
func (fs *Funcs) CallReachesAny(f *grammar.File, n *grammar.Node, cores grammar.Cores, what string, match func(f *grammar.File, c Call) bool, depth int) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.callReaches(f, n, cores, what, match, depth).hop.Call != nil
}

func (fs *Funcs) callReaches(f *grammar.File, n *grammar.Node, cores grammar.Cores, what string, match func(f *grammar.File, c Call) bool, depth int) link {
	c, ok := AsCall(n)
	if !ok {
		return link{}
	}
	c, _ = fs.Forward(c)
	cc := cores & f.CoresOf(n)
	if cc == grammar.None {
		return link{}
	}
	if match(f, c) {
		return link{hop: Hop{File: f, Call: n}}
	}
	if depth <= 0 {
		return link{}
	}
	for _, callee := range fs.Callees(c) {
		if callee.Node.Contains(n) {
			continue // direct recursion
		}
		if sub := fs.reach(callee, cc, what, match, depth-1); sub != nil {
			return link{Hop{File: f, Call: n}, sub}
		}
	}
	return link{}
}

// maxChain is the most hops a chain keeps: a chain taken from a memoized
// callee can be longer than the depth searched from here; past it the
// chain is its first hops and its match.
const maxChain = MaxCallDepth + 1

// Conditions returns the constructs between n and its ancestor stop that
// decide whether n runs, innermost first: if statements (n in a branch, not
// in the condition), loops (n in the body), switch statements, the
// conditional operator and the right operand of && and ||.
func Conditions(n, stop *grammar.Node) []*grammar.Node {
	var out []*grammar.Node
	for child, p := n, n.Parent(); p != nil && p != stop; child, p = p, p.Parent() {
		if IsConditionOf(p, child) {
			out = append(out, p)
		}
	}
	return out
}

// IsConditionOf reports whether construct p decides whether its child
// runs (see Conditions).
func IsConditionOf(p, child *grammar.Node) bool {
	switch p.Kind() {
	case "if_statement", "conditional_expression":
		return child.Field() == "consequence" || child.Field() == "alternative"
	case "while_statement", "for_statement", "for_range_loop", "switch_statement":
		return child.Field() == "body"
	case "do_statement":
		// The body runs at least once: not a condition.
	case "binary_expression":
		if child.Field() == "right" {
			if op := p.ChildByField("operator"); op != nil && (op.Kind() == "&&" || op.Kind() == "||") {
				return true
			}
		}
	}
	return false
}

// ConditionOf returns the expression a construct from Conditions tests
// (nil for a range loop).
func ConditionOf(c *grammar.Node) *grammar.Node {
	switch c.Kind() {
	case "if_statement", "while_statement", "for_statement", "switch_statement", "conditional_expression":
		cond := c.ChildByField("condition")
		if cond != nil && cond.Kind() == "condition_clause" {
			if v := cond.ChildByField("value"); v != nil {
				return v
			}
		}
		return cond
	case "binary_expression":
		return c.ChildByField("left")
	}
	return nil
}

// LineIndent returns the whitespace that starts the line holding off, and
// whether only whitespace precedes off on that line.
func LineIndent(src []byte, off uint32) (indent string, alone bool) {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	i := start
	for i < off && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[start:i]), i == off
}

// StartsLine reports whether only whitespace precedes off on its line, and
// that whitespace. It reads only the whitespace: with many statements on one
// long line, LineIndent per statement is quadratic.
func StartsLine(src []byte, off uint32) (indent string, ok bool) {
	i := off
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] != '\n' {
		return "", false
	}
	return string(src[i:off]), true
}

// LineStart returns the offset of the start of the line holding off.
func LineStart(src []byte, off uint32) uint32 {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// LineEnd returns the offset just past the newline ending the line holding
// off (or the end of src).
func LineEnd(src []byte, off uint32) uint32 {
	for int(off) < len(src) && src[off] != '\n' {
		off++
	}
	if int(off) < len(src) {
		off++
	}
	return off
}
