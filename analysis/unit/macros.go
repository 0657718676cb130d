package unit

import (
	"context"
	"slices"
	"sort"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// macrosKey is a file's macro table: its #defines, the statement bodies
// parsed once as functions of a shadow file.
var macrosKey = &FileKey[*cxx.Macros]{
	Name:    "unit.macros",
	Compute: cxx.ScanMacros,
}

// UnitMacros are the macros a unit's files define, by name.
type UnitMacros struct {
	ByName map[string][]*cxx.Macro
	// Shadows are the files' macro shadows (the statement bodies as
	// functions), for the function indexes.
	Shadows []*grammar.File

	mu    sync.Mutex
	exits map[string]grammar.Cores
	// drops memoizes DropsArgs; guards is the unit's guard model.
	drops  map[string]bool
	guards func(*grammar.File) *grammar.Guards
	// models are the exit models of the unit's files (and of files a pass
	// asks about), built on first use.
	models map[*grammar.File]*exitModel
}

var unitMacrosKey = &UnitKey[*UnitMacros]{
	Name: "unit.unit-macros",
	Compute: func(ctx context.Context, u *Unit) *UnitMacros {
		um := &UnitMacros{ByName: map[string][]*cxx.Macro{}, exits: map[string]grammar.Cores{}, drops: map[string]bool{}, guards: u.IncludeGuards, models: map[*grammar.File]*exitModel{}}
		for _, f := range u.Files {
			t := FileFact(u, f, macrosKey)
			for name, ms := range t.ByName {
				um.ByName[name] = append(um.ByName[name], ms...)
			}
			um.Shadows = append(um.Shadows, t.Shadows...)
		}
		return um
	},
}

// Macros returns the macros the unit's files define.
func (u *Unit) Macros() *UnitMacros { return Fact(u, unitMacrosKey) }

// MacroDefs are the unit's #defines of name (cxx.MacroTable).
func (u *Unit) MacroDefs(name string) []*cxx.Macro { return u.Macros().ByName[name] }

// CodeFiles are the unit's files followed by their macro shadows and the
// kernels macro instantiations declare: what a function index reads so a
// macro used as a statement reaches its body, and an instantiated kernel
// is a function of the unit.
func (u *Unit) CodeFiles() []*grammar.File {
	sh, ps, ex := u.Macros().Shadows, Fact(u, pastedKey), Fact(u, expansionsKey)
	if len(sh)+len(ps)+len(ex) == 0 {
		return u.Files
	}
	return append(append(append(append([]*grammar.File(nil), u.Files...), sh...), ps...), ex...)
}

// PastingMacros are the unit's macros whose one compiled definition
// pastes parameters (cxx.PastingMacros).
func (u *Unit) PastingMacros() map[string]*cxx.Macro { return Fact(u, pastingKey) }

var pastingKey = &UnitKey[map[string]*cxx.Macro]{
	Name: "unit.macro-pasting",
	Compute: func(_ context.Context, u *Unit) map[string]*cxx.Macro {
		um := u.Macros()
		var out map[string]*cxx.Macro
		for name, ms := range um.ByName {
			if !slices.ContainsFunc(ms, func(m *cxx.Macro) bool { return len(m.Pasted) > 0 }) {
				continue
			}
			if m := um.definition(name); m.Pastes() {
				if out == nil {
					out = map[string]*cxx.Macro{}
				}
				out[name] = m
			}
		}
		return out
	},
}

// forwardingKey names the unit's forwarding macros (cxx.ForwardingMacros).
var forwardingKey = &UnitKey[[]string]{
	Name: "unit.macro-forwarding",
	Compute: func(_ context.Context, u *Unit) []string {
		return cxx.ForwardingMacros(u, u.Macros().Shadows)
	},
}

// ForwardedUses are the uses in f of the unit's forwarding macros that
// expand to a call of one of names, as those calls (cxx.ForwardedCalls).
func (u *Unit) ForwardedUses(f *grammar.File, names ...string) []cxx.Call {
	fwd := Fact(u, forwardingKey)
	if len(fwd) == 0 {
		return nil
	}
	return u.FuncIndex().ForwardedUses(f, fwd, names...)
}

// pastedKey holds the unit's instances of its pasting macros: one per
// list of pasted arguments the unit's code uses, parsed as functions of
// macro shadows (cxx.PastedShadows).
var pastedKey = &UnitKey[[]*grammar.File]{
	Name: "unit.macro-pasted",
	Compute: func(ctx context.Context, u *Unit) []*grammar.File {
		pasting := u.PastingMacros()
		if len(pasting) == 0 {
			return nil
		}
		names := make([]string, 0, len(pasting))
		for name := range pasting {
			names = append(names, name)
		}
		sort.Strings(names)
		seen := map[string]bool{}
		var uses []cxx.PastedUse
		for _, f := range u.Files {
			for _, n := range u.Calls(f).Named(names...) {
				c, ok := cxx.AsCall(n)
				if !ok || c.Receiver != nil || c.HasTArgs || c.Qualified != c.Name {
					continue
				}
				m, args := pasting[c.Name], cxx.ArgTexts(c.Args)
				if key := cxx.PastedName(m, args); key != "" && !seen[key] {
					seen[key] = true
					uses = append(uses, cxx.PastedUse{Macro: m, Args: args})
				}
			}
		}
		return cxx.PastedShadows(ctx, uses, u.Macros().definition)
	},
}

// Exits returns the cores on which a statement use of name leaves the
// enclosing function: its definitions' returns, and those of the macros
// its body uses in statement position.
func (um *UnitMacros) Exits(name string) grammar.Cores {
	um.mu.Lock()
	defer um.mu.Unlock()
	return um.exitsLocked(name, 0)
}

func (um *UnitMacros) exitsLocked(name string, depth int) grammar.Cores {
	if c, ok := um.exits[name]; ok {
		return c
	}
	if len(um.ByName[name]) == 0 {
		// Not a macro (most statements asked about call functions):
		// nothing to remember, and no entry and name kept per function.
		return grammar.None
	}
	um.exits[name] = grammar.None // a macro never expands itself
	var c grammar.Cores
	for _, m := range um.ByName[name] {
		c |= m.Exits
		if depth < 8 {
			for _, use := range m.Uses {
				c |= um.exitsLocked(use, depth+1) & m.Cores
			}
		}
	}
	um.exits[name] = c
	return c
}

// exitModel caches, per block, the cores that left the function before
// each statement, so asking for every node of a long function stays
// linear.
type exitModel struct {
	f  *grammar.File
	um *UnitMacros
	// states holds four bits per node of each tree asked about (f's, in
	// practice), by node index: three maps keyed by node cost twenty
	// times as much on a large file, and a byte per node twice as much.
	states map[*grammar.Tree]exitStates
}

// exitStates are the exit model's nibbles of a tree's nodes, two a byte:
// exitedBefore's answer (exitCum, once exitKnown) and for a block whether
// its children were scanned.
type exitStates []byte

const (
	exitCum   = 3 // bits 0-1
	exitKnown = 1 << 2
	exitDone  = 1 << 3
)

func (st exitStates) get(i int) byte { return st[i>>1] >> (i & 1 * 4) & 0xf }

func (st exitStates) set(i int, v byte) {
	sh := i & 1 * 4
	st[i>>1] = st[i>>1]&^(0xf<<sh) | v<<sh
}

// ExitedBefore returns the cores that have left n's function before
// reaching n: a return, or a macro whose body returns, that only core
// guards stand in front of (`if ASCEND_IS_AIC { return; }`,
// `REGISTER_X(pipe);` whose body does that).
func (u *Unit) ExitedBefore(f *grammar.File, n *grammar.Node) grammar.Cores {
	return u.Macros().exitedBefore(f, n)
}

func (um *UnitMacros) exitedBefore(f *grammar.File, n *grammar.Node) grammar.Cores {
	um.mu.Lock()
	m := um.models[f]
	if m == nil {
		m = &exitModel{f: f, um: um, states: map[*grammar.Tree]exitStates{}}
		um.models[f] = m
	}
	defer um.mu.Unlock()
	return m.exitedBefore(n)
}

// exitedBefore is the cores n's earlier siblings left on, in every block
// from n up to its function. Each node's answer is kept: a statement deep
// in an else-if chain is thousands of blocks down, and every read there
// asks, so walking up from each would be quadratic.
func (m *exitModel) exitedBefore(n *grammar.Node) grammar.Cores {
	st := m.states[n.Tree()]
	if st == nil {
		st = make(exitStates, (len(n.Tree().Nodes)+1)/2)
		m.states[n.Tree()] = st
	}
	var path []*grammar.Node
	var acc grammar.Cores
	for c := n; c != nil; c = c.Parent() {
		if v := st.get(c.Index()); v&exitKnown != 0 {
			acc = grammar.Cores(v & exitCum)
			break
		}
		p := c.Parent()
		if p == nil || p.Kind() == "function_definition" || p.Kind() == "lambda_expression" {
			break
		}
		path = append(path, c)
	}
	// Going down, acc is the answer for c's parent when c is reached.
	for i := len(path) - 1; i >= 0; i-- {
		c := path[i]
		if p := c.Parent(); p.Kind() == "compound_statement" || cxx.IsPreprocBranch(p.Kind()) {
			if st.get(p.Index())&exitDone == 0 {
				m.scan(st, p, acc)
			}
			acc = grammar.Cores(st.get(c.Index()) & exitCum)
		}
		st.set(c.Index(), st.get(c.Index())&exitDone|byte(acc&grammar.Both)|exitKnown)
	}
	return acc
}

// scan records the answer for each child of block, whose own answer is
// acc: acc and the cores the child's earlier siblings left on.
func (m *exitModel) scan(st exitStates, block *grammar.Node, acc grammar.Cores) {
	st.set(block.Index(), st.get(block.Index())|exitDone)
	for c := block.FirstChild(); c != nil; c = c.NextSibling() {
		st.set(c.Index(), st.get(c.Index())&exitDone|byte(acc&grammar.Both)|exitKnown)
		acc |= cxx.ExitsIn(m.f, c, func(name string) grammar.Cores { return m.um.exitsLocked(name, 0) })
	}
}

// DropsArgs reports whether the arguments of a use of name are never
// evaluated: every definition of it the unit compiles is function-like
// and expands without them (`#define CAM_PRINT(fmt, ...)`). With
// `// #define ENABLE_PRINT` commented out and defined by no file or build
// of the tree, `#ifdef ENABLE_PRINT` keeps the printing definition out
// and the empty `#else` one in (the unit's guard model). A name with no
// definition in the unit is not such a macro.
func (um *UnitMacros) DropsArgs(name string) bool {
	ms := um.ByName[name]
	if len(ms) == 0 {
		return false
	}
	um.mu.Lock()
	defer um.mu.Unlock()
	if v, ok := um.drops[name]; ok {
		return v
	}
	drops, active := true, false
	for _, m := range ms {
		if !um.compiled(m) {
			continue
		}
		active = true
		drops = drops && m.FuncLike && m.DropsArgs
	}
	um.drops[name] = drops && active
	return drops && active
}

// compiled reports whether a definition is compiled on some core in the
// unit's guard model (a switch no file or build of the tree defines is
// off there).
func (um *UnitMacros) compiled(m *cxx.Macro) bool {
	return m.File != nil && um.guards(m.File).CoresAt(m.At) != grammar.None
}

// UnevaluatedArgs lists f's argument lists of uses of macros whose
// arguments are never evaluated (DropsArgs), in source order: a read or
// store written there does not happen.
func (u *Unit) UnevaluatedArgs(f *grammar.File) []*grammar.Node {
	um, calls := u.Macros(), u.Calls(f)
	var names []string
	for name := range um.ByName {
		// Only a macro f calls: whether one drops its arguments reads
		// the unit's guard model, and a unit defines hundreds f never
		// uses.
		if calls.Has(name) && um.DropsArgs(name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	var out []*grammar.Node
	for _, n := range calls.Named(names...) {
		if c, ok := cxx.AsCall(n); ok && c.Receiver == nil && !c.HasTArgs && c.Qualified == c.Name {
			if args := n.ChildByField("arguments"); args != nil {
				out = append(out, args)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
