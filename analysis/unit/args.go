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

// bindingsKey binds an entry's templates over the definitions of its
// file and of its headers, joined once for every entry of those headers.
var bindingsKey = &UnitKey[*abi.Bindings]{
	Name: "unit.bindings",
	Compute: func(ctx context.Context, u *Unit) *abi.Bindings {
		rest := Fact(u.Part("defs", u.Headers()), joinDefsKey)
		return abi.BindDefs(u.Files[0], FileFact(u, u.Files[0], argsFileKey).defs, rest, Fact(u, constsKey))
	},
}

var joinDefsKey = &UnitKey[*abi.Defs]{
	Name: "unit.joinDefs",
	Compute: func(ctx context.Context, u *Unit) *abi.Defs {
		defs := make([]*abi.FileDefs, len(u.Files))
		for i, f := range u.Files {
			defs[i] = FileFact(u, f, argsFileKey).defs
		}
		return abi.JoinDefs(defs)
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

// Bindings are the template flag values the unit's entry binds.
func (u *Unit) Bindings() *abi.Bindings { return Fact(u, bindingsKey) }

// FileABI is one C++ file's args[] reads judged against every extern it is
// compiled under: what EXT101/EXT102/EXT106/EXT107 report and what the
// editor's hovers, hints and navigation explain, one judgement for both.
type FileABI struct {
	Stubs []*abi.Stub
	Acc   []abi.Access // read only when some stub compiles the file
	// units[st] are the entries' units of st that compile the file (nil
	// for an entry that cannot be read), in UnitsOfStub order; bind[st]
	// their template flags.
	units map[*abi.Stub][]*Unit
	bind  map[*abi.Stub][]*abi.Bindings
}

// NewFileABI judges path's reads (acc, asked only when a stub compiles
// path) under the units entryUnit gives for the stubs' entries.
func NewFileABI(ws *workspace.Workspace, path string, acc func() []abi.Access, entryUnit func(entry string) *Unit) *FileABI {
	v := &FileABI{Stubs: ws.StubsFor(path), units: map[*abi.Stub][]*Unit{}, bind: map[*abi.Stub][]*abi.Bindings{}}
	if len(v.Stubs) == 0 {
		return v
	}
	v.Acc = acc()
	for _, st := range v.Stubs {
		for _, e := range ws.UnitsOfStub(path, st) {
			u := entryUnit(e)
			var b *abi.Bindings
			if u != nil {
				b = u.Bindings()
			}
			v.units[st], v.bind[st] = append(v.units[st], u), append(v.bind[st], b)
		}
	}
	return v
}

// FileABI is NewFileABI with the store's accesses and entry units.
func (s *Store) FileABI(ctx context.Context, ws *workspace.Workspace, path string) *FileABI {
	return NewFileABI(ws, path, func() []abi.Access { return s.ArgsAccesses(ctx, ws, path) },
		func(e string) *Unit { return s.ForEntry(ctx, ws, e) })
}

// Bindings are the template flags each unit of st binds (nil where the
// entry cannot be read).
func (v *FileABI) Bindings(st *abi.Stub) []*abi.Bindings { return v.bind[st] }

// Compiled reports whether an access runs in some unit of the stub.
func (v *FileABI) Compiled(a *abi.Access, st *abi.Stub) bool {
	return a.Via == "constant" || abi.CompiledIn(a, v.Bindings(st))
}

// OtherBranch reports a read the extern's entry does not bind the flag of,
// which is wrong for the extern while the other branch of its `?:` or
// `if constexpr` is right: that branch is the one the extern takes.
func (v *FileABI) OtherBranch(a *abi.Access, st *abi.Stub) bool {
	if a.Via == "constant" {
		return false
	}
	if verdict, _, _ := abi.Judge(a, st); verdict == abi.VerdictOK {
		return false
	}
	return abi.SiblingAccepts(v.Acc, a, st, v.Bindings(st))
}

// SlotsFor is the slot an access reads under a stub, evaluated in each
// unit of the stub that compiles it (a `WithRope ? 2 : 1` index is one
// slot per extern). known is false when a unit's value cannot be told (a
// flag no entry binds) or the units disagree: callers say "unknown" then,
// never a name that may be wrong.
func (v *FileABI) SlotsFor(a *abi.Access, st *abi.Stub) (slots []int64, known bool) {
	if len(a.Slots) <= 1 {
		return a.Slots, true
	}
	var got []int64
	for i, u := range v.units[st] {
		b := v.bind[st][i]
		var consts *cxx.Resolver
		if u != nil {
			consts = u.Consts()
		}
		if a.Via != "constant" && !b.Compiled(a) {
			continue
		}
		sl := abi.SlotsUnder(a, b, consts)
		if len(sl) != 1 || got != nil && got[0] != sl[0] {
			return nil, false
		}
		got = sl
	}
	if got == nil {
		return nil, false
	}
	return got, true
}

// At returns the innermost access whose index expression (or whole
// `args[N]`) contains off.
func (v *FileABI) At(off uint32) *abi.Access {
	var best *abi.Access
	for i := range v.Acc {
		a := &v.Acc[i]
		s, e := a.Start, a.End
		if a.Via == "args[]" && a.Node != nil {
			s, e = min(s, a.Node.Start), max(e, a.Node.End)
		}
		if off < s || off > e {
			continue
		}
		if best == nil || e-s < best.End-best.Start {
			best = a
		}
	}
	return best
}

// ABIFinding is a read that no candidate index makes right for Stub.
type ABIFinding struct {
	Acc   *abi.Access
	Stub  *abi.Stub
	Kind  abi.Verdict
	Slot  int64
	Param *abi.Param // the parameter at Slot (kind mismatch)
}

// Verdicts are the reads that are wrong for a stub compiling them, and
// those right with a single in-range slot (uses, for the dtype and name
// checks). A stub with syntax errors has an unreliable table and gives
// neither (EXT100 says so on the stub).
func (v *FileABI) Verdicts() (wrong, uses []ABIFinding) {
	var stubs []*abi.Stub
	for _, s := range v.Stubs {
		if !s.SyntaxErrors {
			stubs = append(stubs, s)
		}
	}
	for i := range v.Acc {
		a := &v.Acc[i]
		if a.Via == "constant" || len(a.Slots) == 0 {
			continue
		}
		if a.MacroGuarded && len(stubs) > 1 && v.rightForSome(a, stubs) {
			// `#ifdef WITH_ROPE` that an entry may define: the branch may
			// belong to the externs it is right for.
			continue
		}
		for _, s := range stubs {
			if !v.Compiled(a, s) {
				continue
			}
			k, slot, p := abi.Judge(a, s)
			switch {
			case k == abi.VerdictOK && p != nil && len(a.Slots) == 1:
				uses = append(uses, ABIFinding{Acc: a, Stub: s, Param: p})
			case k == abi.VerdictOK, abi.SiblingAccepts(v.Acc, a, s, v.Bindings(s)):
			default:
				wrong = append(wrong, ABIFinding{Acc: a, Stub: s, Kind: k, Slot: slot, Param: p})
			}
		}
	}
	return wrong, uses
}

func (v *FileABI) rightForSome(a *abi.Access, stubs []*abi.Stub) bool {
	for _, s := range stubs {
		if k, _, _ := abi.Judge(a, s); k == abi.VerdictOK && v.Compiled(a, s) {
			return true
		}
	}
	return false
}
