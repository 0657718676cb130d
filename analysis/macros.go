package analysis

import (
	"context"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// macrosKey is a file's macro table: its #defines, the statement bodies
// parsed once as functions of a shadow file.
var macrosKey = &FileKey[*cxx.Macros]{
	Name:    "analysis.macros",
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
	// models are the exit models of the unit's files (and of files a pass
	// asks about), built on first use.
	models map[*grammar.File]*exitModel
}

var unitMacrosKey = &UnitKey[*UnitMacros]{
	Name: "analysis.unit-macros",
	Compute: func(ctx context.Context, u *Unit) *UnitMacros {
		um := &UnitMacros{ByName: map[string][]*cxx.Macro{}, exits: map[string]grammar.Cores{}, models: map[*grammar.File]*exitModel{}}
		for _, f := range u.Files {
			t := FileFactIn(ctx, u, f, macrosKey)
			for name, ms := range t.ByName {
				um.ByName[name] = append(um.ByName[name], ms...)
			}
			um.Shadows = append(um.Shadows, t.Shadows...)
		}
		return um
	},
}

// Macros returns the macros the unit's files define.
func (u *Unit) Macros() *UnitMacros { return UnitFactOf(context.Background(), u, unitMacrosKey) }

// CodeFiles are the unit's files followed by their macro shadows: what a
// function index reads so a macro used as a statement reaches its body.
func (u *Unit) CodeFiles() []*grammar.File {
	sh := u.Macros().Shadows
	if len(sh) == 0 {
		return u.Files
	}
	return append(append([]*grammar.File(nil), u.Files...), sh...)
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
	// states holds a byte per node of each tree asked about (f's, in
	// practice), by node index: three maps keyed by node cost twenty
	// times as much on a large file.
	states map[*grammar.Tree][]exitState
}

// exitState is what an exit model knows of one node: the cores its
// earlier siblings left on (exitBefore), exitedBefore's answer (exitCum,
// once exitKnown), and for a block whether its children were scanned.
type exitState uint8

const (
	exitBefore exitState = 3 // bits 0-1
	exitCumAt            = 2 // bits 2-3
	exitKnown  exitState = 1 << 4
	exitDone   exitState = 1 << 5
)

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
		m = &exitModel{f: f, um: um, states: map[*grammar.Tree][]exitState{}}
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
		st = make([]exitState, len(n.Tree().Nodes))
		m.states[n.Tree()] = st
	}
	var path []*grammar.Node
	var acc grammar.Cores
	for c := n; c != nil; c = c.Parent() {
		if v := st[c.Index()]; v&exitKnown != 0 {
			acc = grammar.Cores(v >> exitCumAt & 3)
			break
		}
		p := c.Parent()
		if p == nil || p.Kind() == "function_definition" || p.Kind() == "lambda_expression" {
			break
		}
		path = append(path, c)
	}
	for i := len(path) - 1; i >= 0; i-- {
		c := path[i]
		if p := c.Parent(); p.Kind() == "compound_statement" || cxx.IsPreprocBranch(p.Kind()) {
			if st[p.Index()]&exitDone == 0 {
				m.scan(st, p)
			}
			acc |= grammar.Cores(st[c.Index()] & exitBefore)
		}
		st[c.Index()] = st[c.Index()]&^(3<<exitCumAt) | exitState(acc&grammar.Both)<<exitCumAt | exitKnown
	}
	return acc
}

// scan records, for each child of block, the cores its earlier siblings
// left on.
func (m *exitModel) scan(st []exitState, block *grammar.Node) {
	st[block.Index()] |= exitDone
	var acc grammar.Cores
	for c := block.FirstChild(); c != nil; c = c.NextSibling() {
		st[c.Index()] = st[c.Index()]&^exitBefore | exitState(acc&grammar.Both)
		acc |= cxx.ExitsIn(m.f, c, func(name string) grammar.Cores { return m.um.exitsLocked(name, 0) })
	}
}
