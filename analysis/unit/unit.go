// Package unit is extern-lsp's model of what one extern compiles: a Unit
// (an entry file, the headers its compile reaches, the Python stubs that
// name it), the facts derived from it and the store that memoizes them.
//
// Rules and editor features ask a unit questions (u.Consts(), u.GM(),
// u.Summaries(), u.Macros(), u.Target(), u.Resolve(from, include) ...)
// and never build or cache a model themselves: every answer is a fact,
// computed once per input (a FileKey per parse, a UnitKey per unit's
// inputs) and shared by every rule, request and goroutine that asks. A fact
// private to one rule is a UnitKey declared in the rule's file and read with
// Fact.
package unit

import (
	"context"
	"slices"
	"strconv"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Unit is one extern compile: an entry file, the headers its compile
// reaches and the Python stubs that name the entry. A file no entry reaches
// (a lone header, a Python stub) gets a pseudo-unit of its own closure.
type Unit struct {
	// Entry is the path of the unit's root file.
	Entry string
	// Files are the parsed C++ files of the compile: the entry first, then
	// the headers it reaches in include order.
	Files []*grammar.File
	// Stubs are the `@pl.jit.extern` stubs linked to the entry.
	Stubs []*abi.Stub
	Kind  workspace.Kind
	// Key identifies the unit's inputs: equal keys, equal facts.
	Key string
	// Pseudo is set for a unit that is not an extern compile: the closure
	// of a single file, or the union of a file's units.
	Pseudo bool
	store  *Store
	// ws resolves the unit's #includes (Resolve); nil for a unit made
	// without a workspace (tests), where no include resolves.
	ws *workspace.Workspace
	// ctx is the context of the run or request that made the unit: its
	// facts stop computing when it is cancelled.
	ctx context.Context
}

// New builds a unit of workspace ws over parsed files and stubs, with its
// key; pseudo names the kind of a unit that is not an extern compile
// ("closure", "reach", ...), "" for an entry's unit. A nil store computes
// every fact afresh.
func (s *Store) New(ctx context.Context, ws *workspace.Workspace, entry string, files []*grammar.File, stubs []*abi.Stub, kind workspace.Kind, pseudo string) *Unit {
	u := &Unit{Entry: entry, Files: files, Stubs: stubs, Kind: kind, Pseudo: pseudo != "", store: s, ws: ws, ctx: ctx}
	if s == nil {
		u.Key = pseudo + "|" + entry
		return u
	}
	b := make([]byte, 0, len(pseudo)+len(entry)+8+6*(len(files)+len(stubs)))
	b = append(append(append(append(b, pseudo...), '|'), entry...), '|')
	b = strconv.AppendInt(b, int64(kind), 10)
	s.mu.Lock()
	for _, f := range files {
		b = strconv.AppendUint(append(b, '|', 'f'), s.idLocked(f), 10)
	}
	for _, st := range stubs {
		b = strconv.AppendUint(append(b, '|', 's'), s.idLocked(st), 10)
	}
	s.mu.Unlock()
	if ws != nil {
		// The chip the build files pin decides a unit's target when its
		// conditionals do not (BuildTarget): a build file's edit is a new
		// unit.
		b = append(append(b, "|c"...), byte('0'+BuildTarget(ws, entry).Arch))
	}
	u.Key = string(b)
	return u
}

// Context is the context of the run that made the unit.
func (u *Unit) Context() context.Context {
	if u.ctx == nil {
		return context.Background()
	}
	return u.ctx
}

// Headers are the unit's files after the entry.
func (u *Unit) Headers() []*grammar.File {
	if len(u.Files) == 0 {
		return nil
	}
	return u.Files[1:]
}

// File returns the unit's parsed file at path, or nil.
func (u *Unit) File(path string) *grammar.File {
	if len(u.Files) > 16 {
		// Asked for every #include of the unit's files.
		return Fact(u, filesKey)[path]
	}
	for _, f := range u.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

var filesKey = &UnitKey[map[string]*grammar.File]{
	Name: "unit.files",
	Compute: func(_ context.Context, u *Unit) map[string]*grammar.File {
		m := make(map[string]*grammar.File, len(u.Files))
		for _, f := range slices.Backward(u.Files) {
			m[f.Path] = f // the first of a path listed twice
		}
		return m
	},
}

// Part is the pseudo-unit of some of u's files, for a fact that depends on
// those files alone (name says which part): it is shared by every unit
// holding the same parses in the same order, whatever its entry, so an edit
// elsewhere in the unit keeps it.
func (u *Unit) Part(name string, files []*grammar.File) *Unit {
	return u.store.New(u.Context(), u.ws, "", files, nil, 0, "part:"+name)
}

// Fact returns k's value for u, computed once per unit inputs.
func Fact[T any](u *Unit, k *UnitKey[T]) T {
	if u.store == nil {
		return k.Compute(u.Context(), u)
	}
	ctx := u.Context()
	id := factID{key: k, unit: u.Key}
	compute := func(ctx context.Context) any { return k.Compute(ctx, u) }
	if k.Rekey != nil && !k.Steps {
		compute = func(ctx context.Context) any { return rekeyed(ctx, u, k) }
	}
	v := u.store.get(ctx, id, k.Name, k.Steps, u.Files, compute)
	u.store.pinStubs(id, u.Stubs)
	return v.(T)
}

// FileFact returns k's value for f (any parsed file), computed once per
// parse.
func FileFact[T any](u *Unit, f *grammar.File, k *FileKey[T]) T {
	ctx := u.Context()
	if u.store == nil {
		return k.Compute(ctx, f)
	}
	v := u.store.get(ctx, factID{key: k, file: f}, k.Name, k.Steps, []*grammar.File{f}, func(ctx context.Context) any { return k.Compute(ctx, f) })
	return v.(T)
}

// DerivedFileKey names a fact of one parsed file computed from other
// facts of that file, read through the unit asking (Unit.Calls,
// Unit.Funcs): Compute must read nothing else of the unit, so the value is
// the same whichever unit asks, and it is kept once per parse.
type DerivedFileKey[T any] struct {
	Name    string
	Compute func(u *Unit, f *grammar.File) T
}

// DerivedFileFact returns k's value for f, computed once per parse.
func DerivedFileFact[T any](u *Unit, f *grammar.File, k *DerivedFileKey[T]) T {
	if u.store == nil {
		return k.Compute(u, f)
	}
	v := u.store.get(u.Context(), factID{key: k, file: f}, k.Name, false, []*grammar.File{f}, func(context.Context) any { return k.Compute(u, f) })
	return v.(T)
}

// Cached returns k's value for u when the store holds it already
// (computed, not under way), without computing it: for a fact that can be
// derived more cheaply from another one when that one exists.
func Cached[T any](u *Unit, k *UnitKey[T]) (T, bool) {
	var zero T
	if u.store == nil {
		return zero, false
	}
	c := u.store.cell(factID{key: k, unit: u.Key})
	if c == nil {
		return zero, false
	}
	select {
	case <-c.done:
		if c.ok {
			return c.v.(T), true
		}
	default:
	}
	return zero, false
}

// Consts resolves integer constants against every file of the unit, the
// entry's definitions last (they win, as in the compile).
func (u *Unit) Consts() *cxx.Resolver { return Fact(u, constsKey) }

// Nodes returns f's named nodes of the given kinds in source order, from an
// index built once per file.
func (u *Unit) Nodes(f *grammar.File, kinds ...string) []*grammar.Node {
	t := f.Tree
	if len(kinds) == 1 {
		return t.OfKind(kinds[0])
	}
	// Each kind's list is in source order: merged, not sorted.
	lists := make([][]*grammar.Node, 0, len(kinds))
	total := 0
	for _, k := range kinds {
		if l := t.OfKind(k); len(l) > 0 {
			lists = append(lists, l)
			total += len(l)
		}
	}
	if total == 0 {
		return nil
	}
	out := make([]*grammar.Node, 0, total)
	for len(out) < total {
		m := -1
		for i, l := range lists {
			if len(l) > 0 && (m < 0 || l[0].Index() < lists[m][0].Index()) {
				m = i
			}
		}
		out = append(out, lists[m][0])
		lists[m] = lists[m][1:]
	}
	return out
}

// Calls returns f's calls by name, indexed once per parse (u is the
// cxx.FileFacts of the unit analyses).
func (u *Unit) Calls(f *grammar.File) *cxx.CallIndex { return FileFact(u, f, callIndexKey) }

// Funcs returns f's share of a function index, built once per parse.
func (u *Unit) Funcs(f *grammar.File) *cxx.FileFuncs { return FileFact(u, f, fileFuncsKey) }

// FileConsts returns the constants f defines, indexed once per parse.
func (u *Unit) FileConsts(f *grammar.File) *cxx.FileConsts { return FileFact(u, f, fileConstsKey) }

var fileConstsKey = &FileKey[*cxx.FileConsts]{
	Name:    "unit.fileConsts",
	Compute: func(_ context.Context, f *grammar.File) *cxx.FileConsts { return cxx.IndexConsts(f) },
}

var callIndexKey = &FileKey[*cxx.CallIndex]{
	Name:    "unit.calls",
	Compute: func(_ context.Context, f *grammar.File) *cxx.CallIndex { return cxx.IndexCalls(f) },
}

var fileFuncsKey = &FileKey[*cxx.FileFuncs]{
	Name:    "unit.funcs",
	Compute: func(_ context.Context, f *grammar.File) *cxx.FileFuncs { return cxx.IndexFileFuncs(f) },
}

var constsKey = &UnitKey[*cxx.Resolver]{
	Name: "unit.consts",
	Compute: func(_ context.Context, u *Unit) *cxx.Resolver {
		if len(u.Files) == 0 {
			return cxx.NewResolver()
		}
		return cxx.NewResolverFrom(u, append(append([]*grammar.File(nil), u.Files[1:]...), u.Files[0])...)
	},
}
