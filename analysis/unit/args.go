package unit

import (
	"context"
	"slices"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The args[] ABI tables as facts of the unit model: what a file's compile
// reads of the extern's args (args[N], tensor_data<T>(args, N) & co.), the
// helpers and constants those reads resolve through, and the template
// flags each entry binds. Per file what one parse gives, per list of files
// what the units of a file share.

// argsFile is what the args analyses derive from one parse alone.
type argsFile struct {
	helpers *abi.FileHelpers
	defs    *abi.FileDefs
	// argsFns: the file defines a function taking the args pointer.
	argsFns bool
}

var argsFileKey = &FileKey[*argsFile]{
	Name: "unit.argsFile",
	Compute: func(_ context.Context, f *grammar.File) *argsFile {
		h := abi.ScanHelpers(f)
		return &argsFile{helpers: h, defs: abi.IndexDefs(f), argsFns: h.ArgsFunctions()}
	},
}

// argsGroup is what every file of the same units shares: the constants and
// args helpers of all their files (in order), and each file's raw reads
// with them.
type argsGroup struct {
	consts  *cxx.Resolver
	helpers abi.Helpers
	// raw[i] are u.Files[i]'s reads; uses all of them, in order (what
	// IndexConstants looks for index constants in).
	raw  map[*grammar.File][]abi.Access
	uses []abi.Access
}

var argsGroupKey = &UnitKey[*argsGroup]{
	Name: "unit.argsGroup",
	Compute: func(ctx context.Context, u *Unit) *argsGroup {
		g := &argsGroup{consts: Fact(u, joinConstsKey), raw: map[*grammar.File][]abi.Access{}}
		parts := make([]*abi.FileHelpers, len(u.Files))
		for i, f := range u.Files {
			parts[i] = FileFact(u, f, argsFileKey).helpers
		}
		g.helpers = abi.JoinHelpers(parts...)
		for _, f := range u.Files {
			if _, done := g.raw[f]; done {
				continue
			}
			acc := rawAccesses(u, f, g)
			g.raw[f] = acc
			g.uses = append(g.uses, acc...)
		}
		return g
	},
}

func rawAccesses(u *Unit, f *grammar.File, g *argsGroup) []abi.Access {
	if !FileFact(u, f, argsFileKey).argsFns {
		return nil
	}
	return abi.Accesses(f, g.consts, g.helpers)
}

// joinConstsKey resolves constants against a unit's files in their order
// (the last definition of a name wins); Unit.Consts puts the entry last.
var joinConstsKey = &UnitKey[*cxx.Resolver]{
	Name:    "unit.joinConsts",
	Compute: func(_ context.Context, u *Unit) *cxx.Resolver { return cxx.NewResolverFrom(u, u.Files...) },
}

// argsAccessesKey: the unit's Entry is the file whose reads are asked.
var argsAccessesKey = &UnitKey[[]abi.Access]{
	Name: "unit.argsAccesses",
	Compute: func(ctx context.Context, u *Unit) []abi.Access {
		self := u.File(u.Entry)
		if self == nil {
			return nil
		}
		g := Fact(u.Part("args", u.Files), argsGroupKey)
		own := g.raw[self]
		return append(append([]abi.Access(nil), own...), abi.IndexConstants(self, g.consts, g.uses)...)
	},
}

var bindingsKey = &UnitKey[*abi.Bindings]{
	Name: "unit.bindings",
	Compute: func(ctx context.Context, u *Unit) *abi.Bindings {
		defs := make([]*abi.FileDefs, len(u.Files))
		for i, f := range u.Files {
			defs[i] = FileFact(u, f, argsFileKey).defs
		}
		return abi.BindDefs(u.Files[0], defs, Fact(u, constsKey))
	},
}

// argsFiles are the parsed C++ files a file's compile sees: the files of
// every unit including it, in unit order, then what its own closure adds
// (all of it for a file no unit includes); self is the file's parse.
func argsFiles(ws *workspace.Workspace, path string) (files []*grammar.File, self *grammar.File) {
	seen := map[string]bool{}
	var paths []string
	add := func(ps []string) {
		for _, p := range ps {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	for _, u := range ws.Context(path).Units {
		add(ws.Closure(u))
	}
	add(ws.Closure(path))
	for _, p := range paths {
		if f, err := ws.File(p); err == nil && f.Lang == grammar.CPP {
			files = append(files, f)
		}
	}
	self, _ = ws.File(path)
	return files, self
}

// ArgsAccesses returns the args[] reads of a C++ file (args[N] and helper
// calls at their index) followed by the index constants defined in it (Via
// "constant": enum members and constexpr values some file of the same
// units uses as an args index), with the constants and helpers its units
// see. Facts of s, recomputed only when a file of its units changes.
func (s *Store) ArgsAccesses(ctx context.Context, ws *workspace.Workspace, path string) []abi.Access {
	path = workspace.Abs(path)
	if l, ok := grammar.LangOf(path); !ok || l != grammar.CPP {
		return nil
	}
	files, self := argsFiles(ws, path)
	if self == nil || self.Lang != grammar.CPP {
		return nil
	}
	if !slices.Contains(files, self) {
		// The file changed between the two reads: its reads against the
		// units' tables, not kept.
		part := s.New(ctx, ws, "", files, nil, 0, "part:args")
		g := Fact(part, argsGroupKey)
		own := rawAccesses(part, self, g)
		uses := append(append([]abi.Access(nil), own...), g.uses...)
		return append(own, abi.IndexConstants(self, g.consts, uses)...)
	}
	return Fact(s.New(ctx, ws, path, files, nil, 0, "args-of"), argsAccessesKey)
}

// ArgsHelpers returns the args helpers (tensor_data<T>(args, i) & co.) a
// C++ file's compile sees: defined in it, in what it includes, or in what
// the entries that include it include.
func (s *Store) ArgsHelpers(ctx context.Context, ws *workspace.Workspace, path string) abi.Helpers {
	files, self := argsFiles(ws, workspace.Abs(path))
	if self == nil || self.Lang != grammar.CPP {
		return nil
	}
	return Fact(s.New(ctx, ws, "", files, nil, 0, "part:args"), argsGroupKey).helpers
}

// EntryBindings returns the template flag values of the unit rooted at
// entry (`run<true>(args)` binds WithRope=true), nil when the entry cannot
// be read.
func (s *Store) EntryBindings(ctx context.Context, ws *workspace.Workspace, entry string) *abi.Bindings {
	u := s.ForEntry(ctx, ws, entry)
	if u == nil {
		return nil
	}
	return Fact(u, bindingsKey)
}

// ConstsIn resolves constants against files in their order (the last
// definition of a name wins).
func (s *Store) ConstsIn(ctx context.Context, files []*grammar.File) *cxx.Resolver {
	return Fact(s.New(ctx, nil, "", files, nil, 0, "part:consts"), joinConstsKey)
}

// Bindings are the template flag values the unit's entry binds.
func (u *Unit) Bindings() *abi.Bindings { return Fact(u, bindingsKey) }
