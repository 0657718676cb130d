package analysis

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// FileKey names a fact derived from one file alone. Compute must be a pure
// function of the file (no disk, no workspace, no settings): the value is
// memoized per parsed file and shared by every unit, rule and goroutine
// that asks. Declare keys as package-level variables next to their code.
type FileKey[T any] struct {
	Name    string
	Compute func(ctx context.Context, f *grammar.File) T
}

// UnitKey names a fact derived from a unit's inputs alone (its files, its
// stubs, its kind). Compute must be a pure function of the unit; the value
// is memoized by the unit's Key, so it is computed again only when one of
// the unit's inputs changes.
type UnitKey[T any] struct {
	Name    string
	Compute func(ctx context.Context, u *Unit) T
}

// FactKey is a UnitKey of any type (Analyzer.Facts).
type FactKey interface {
	factName() string
}

func (k *UnitKey[T]) factName() string { return k.Name }

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
	for _, f := range u.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// Part is the pseudo-unit of some of u's files, for a fact that depends on
// those files alone (name says which part): it is shared by every unit
// holding the same parses in the same order, whatever its entry, so an edit
// elsewhere in the unit keeps it.
func (u *Unit) Part(name string, files []*grammar.File) *Unit {
	if u.store == nil {
		return &Unit{Files: files, Pseudo: true, Key: "part:" + name}
	}
	return u.store.part(name, files)
}

func (s *Store) part(name string, files []*grammar.File) *Unit {
	return s.newUnit("", files, nil, 0, "part:"+name)
}

// Consts resolves integer constants against every file of the unit, the
// entry's definitions last (they win, as in the compile).
func (u *Unit) Consts() *cxx.Resolver { return UnitFactOf(context.Background(), u, constsKey) }

// Nodes returns f's named nodes of the given kinds in source order, from an
// index built once per file.
func (u *Unit) Nodes(f *grammar.File, kinds ...string) []*grammar.Node {
	return FileFactIn(context.Background(), u, f, nodeIndexKey).get(kinds...)
}

// Calls returns f's calls by name, indexed once per parse (u is the
// cxx.FileFacts of the unit analyses).
func (u *Unit) Calls(f *grammar.File) *cxx.CallIndex {
	return FileFactIn(context.Background(), u, f, callIndexKey)
}

// Funcs returns f's share of a function index, built once per parse.
func (u *Unit) Funcs(f *grammar.File) *cxx.FileFuncs {
	return FileFactIn(context.Background(), u, f, fileFuncsKey)
}

// FileConsts returns the constants f defines, indexed once per parse.
func (u *Unit) FileConsts(f *grammar.File) *cxx.FileConsts {
	return FileFactIn(context.Background(), u, f, fileConstsKey)
}

var fileConstsKey = &FileKey[*cxx.FileConsts]{
	Name:    "analysis.fileConsts",
	Compute: func(_ context.Context, f *grammar.File) *cxx.FileConsts { return cxx.IndexConsts(f) },
}

var callIndexKey = &FileKey[*cxx.CallIndex]{
	Name:    "analysis.calls",
	Compute: func(_ context.Context, f *grammar.File) *cxx.CallIndex { return cxx.IndexCalls(f) },
}

var fileFuncsKey = &FileKey[*cxx.FileFuncs]{
	Name:    "analysis.funcs",
	Compute: func(_ context.Context, f *grammar.File) *cxx.FileFuncs { return cxx.IndexFileFuncs(f) },
}

var constsKey = &UnitKey[*cxx.Resolver]{
	Name: "analysis.consts",
	Compute: func(_ context.Context, u *Unit) *cxx.Resolver {
		if len(u.Files) == 0 {
			return cxx.NewResolver()
		}
		return cxx.NewResolverFrom(u, append(append([]*grammar.File(nil), u.Files[1:]...), u.Files[0])...)
	},
}

var nodeIndexKey = &FileKey[*nodeIndex]{
	Name:    "analysis.nodes",
	Compute: func(_ context.Context, f *grammar.File) *nodeIndex { return newNodeIndex(f.Tree) },
}

// FileFact returns k's value for the pass's file.
func FileFact[T any](p *Pass, k *FileKey[T]) T { return FileFactOf(p, p.File, k) }

// FileFactOf returns k's value for f (any parsed file the pass can see).
func FileFactOf[T any](p *Pass, f *grammar.File, k *FileKey[T]) T {
	return fileFact(p.Context(), p.store, f, k)
}

// FileFactIn returns k's value for f from inside a unit fact's Compute.
func FileFactIn[T any](ctx context.Context, u *Unit, f *grammar.File, k *FileKey[T]) T {
	return fileFact(ctx, u.store, f, k)
}

func fileFact[T any](ctx context.Context, s *Store, f *grammar.File, k *FileKey[T]) T {
	if s == nil {
		return k.Compute(ctx, f)
	}
	v := s.get(ctx, factID{key: k, file: f}, []*grammar.File{f}, func() any { return k.Compute(ctx, f) })
	return v.(T)
}

// UnitFact returns k's value for u (one of p.Units(), p.Closure() or
// p.Reach()).
func UnitFact[T any](p *Pass, u *Unit, k *UnitKey[T]) T { return UnitFactOf(p.Context(), u, k) }

// UnitFactOf returns k's value for u from inside another fact's Compute.
func UnitFactOf[T any](ctx context.Context, u *Unit, k *UnitKey[T]) T {
	if u.store == nil {
		return k.Compute(ctx, u)
	}
	if rf, _ := ctx.Value(runFactsKey{}).(*runFacts); rf != nil {
		rf.asked(factID{key: k, unit: u.Key})
	}
	v := u.store.get(ctx, factID{key: k, unit: u.Key}, u.Files, func() any { return k.Compute(ctx, u) })
	u.store.pinStubs(factID{key: k, unit: u.Key}, u.Stubs)
	return v.(T)
}

// CachedUnitFact returns k's value for u when the store holds it already
// (computed, not under way), without computing it: for a fact that can be
// derived more cheaply from another one when that one exists.
func CachedUnitFact[T any](u *Unit, k *UnitKey[T]) (T, bool) {
	var zero T
	if u.store == nil {
		return zero, false
	}
	u.store.mu.Lock()
	c := u.store.facts[factID{key: k, unit: u.Key}]
	u.store.mu.Unlock()
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

// Store memoizes file and unit facts. It is safe for concurrent use: a
// fact asked for by several goroutines at once is computed once. A value
// computed under a cancelled context is returned but not kept. A store
// shared by successive runs keeps every fact whose inputs did not change;
// Sweep drops the others.
type Store struct {
	mu    sync.Mutex
	facts map[factID]*factCell
	ids   map[any]uint64
	// lastID only grows: a sweep deletes ids, and a reused one would give
	// a new unit the key (and the cached facts) of an old one.
	lastID uint64
	swept  int // len(facts) after the last sweep
}

// NewStore returns an empty fact store.
func NewStore() *Store { return &Store{facts: map[factID]*factCell{}, ids: map[any]uint64{}} }

// Len is the number of facts held.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.facts)
}

// Inputs says which parses and stubs are the workspace's current ones.
type Inputs interface {
	IsCurrent(f *grammar.File) bool
	IsCurrentStub(s *abi.Stub) bool
}

// Sweep drops every fact computed from a parse or a stub that is no longer
// current (a file edited or closed since, a stub file changed), and the
// numbers of such inputs.
func (s *Store) Sweep(in Inputs) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, c := range s.facts {
		stale := false
		for _, f := range c.pins {
			stale = stale || !in.IsCurrent(f)
		}
		for _, st := range c.stubs {
			stale = stale || !in.IsCurrentStub(st)
		}
		if stale {
			delete(s.facts, id)
		}
	}
	for x := range s.ids {
		switch x := x.(type) {
		case *grammar.File:
			if !in.IsCurrent(x) {
				delete(s.ids, x)
			}
		case *abi.Stub:
			if !in.IsCurrentStub(x) {
				delete(s.ids, x)
			}
		}
	}
	s.swept = len(s.facts)
}

// Release drops every fact computed from the parse f, and f's number: a
// later parse of the file starts afresh. `check` releases a file's facts
// with its parse once no file left to check reads it.
//
// The shadow files of f's macro bodies (grammar.File.MacroOf) go with it.
func (s *Store) Release(f *grammar.File) {
	of := func(g *grammar.File) bool { return g != nil && (g == f || g.MacroOf == f) }
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, c := range s.facts {
		if of(id.file) || slices.ContainsFunc(c.pins, of) {
			delete(s.facts, id)
		}
	}
	for x := range s.ids {
		if g, ok := x.(*grammar.File); ok && of(g) {
			delete(s.ids, x)
		}
	}
	s.swept = min(s.swept, len(s.facts))
}

func (s *Store) pinStubs(id factID, stubs []*abi.Stub) {
	if len(stubs) == 0 {
		return
	}
	s.mu.Lock()
	if c := s.facts[id]; c != nil && c.stubs == nil {
		c.stubs = stubs
	}
	s.mu.Unlock()
}

// SweepIfGrown sweeps when the store holds twice as many facts as after
// its last sweep (and a few hundred at least), so a long session keeps
// about what its current files need.
func (s *Store) SweepIfGrown(in Inputs) {
	s.mu.Lock()
	grown := len(s.facts) > max(2*s.swept, 512)
	s.mu.Unlock()
	if grown {
		s.Sweep(in)
	}
}

type factID struct {
	key  any
	file *grammar.File
	unit string
}

type factCell struct {
	done chan struct{}
	v    any
	ok   bool
	// pins are the parses and stubs the fact was computed from.
	pins  []*grammar.File
	stubs []*abi.Stub
}

func (s *Store) get(ctx context.Context, id factID, pins []*grammar.File, compute func() any) any {
	if ctx.Err() != nil {
		return cancelledFact(ctx, id, compute)
	}
	for {
		s.mu.Lock()
		c := s.facts[id]
		if c == nil {
			c = &factCell{done: make(chan struct{}), pins: pins}
			s.facts[id] = c
			s.mu.Unlock()
			return s.fill(ctx, id, c, compute)
		}
		s.mu.Unlock()
		select {
		case <-c.done:
			if c.ok {
				return c.v
			}
			// The computing run was cancelled or crashed: compute again.
		case <-ctx.Done():
			// Our own run is cancelled: whatever we return is discarded.
			return cancelledFact(ctx, id, compute)
		}
	}
}

// runFacts holds the facts a run computed after its context was
// cancelled: not kept in the store (they may be cut short), but computed
// once for the rest of the run. Dropping them made every later ask
// compute the fact again, so a rule abandoned at a cancel did many times
// the work of a whole run before it finished.
type runFacts struct {
	mu sync.Mutex
	m  map[factID]any
	// dropped are the facts the run dropped (Options.DropFacts); rule
	// is the rule running, onDropped hears it ask for one of them. All
	// three are set only when Options.OnDroppedFact listens.
	dropped   map[factID]bool
	rule      string
	onDropped func(rule, fact string)
	// anyDropped is set with the first drop: most asks need no lock.
	anyDropped atomic.Bool
}

// asked notes that the running rule asks for the fact id.
func (rf *runFacts) asked(id factID) {
	if !rf.anyDropped.Load() {
		return
	}
	rf.mu.Lock()
	again := rf.dropped[id]
	rule := rf.rule
	rf.mu.Unlock()
	if again && rf.onDropped != nil {
		rf.onDropped(rule, id.key.(FactKey).factName())
	}
}

type runFactsKey struct{}

// withRunFacts gives a run's context the memo of its cancelled facts.
func withRunFacts(ctx context.Context) context.Context {
	return context.WithValue(ctx, runFactsKey{}, &runFacts{m: map[factID]any{}})
}

// cancelledFact returns the fact of a cancelled run, computed once per run.
func cancelledFact(ctx context.Context, id factID, compute func() any) any {
	rf, _ := ctx.Value(runFactsKey{}).(*runFacts)
	if rf == nil {
		return compute()
	}
	rf.mu.Lock()
	v, ok := rf.m[id]
	rf.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	rf.mu.Lock()
	rf.m[id] = v
	rf.mu.Unlock()
	return v
}

func (s *Store) fill(ctx context.Context, id factID, c *factCell, compute func() any) any {
	defer func() {
		if !c.ok {
			s.mu.Lock()
			delete(s.facts, id)
			s.mu.Unlock()
		}
		close(c.done)
	}()
	v := compute()
	if ctx.Err() == nil {
		c.v, c.ok = v, true
	} else if rf, _ := ctx.Value(runFactsKey{}).(*runFacts); rf != nil {
		rf.mu.Lock()
		rf.m[id] = v
		rf.mu.Unlock()
	}
	return v
}

// drop forgets the fact id when it is computed (not under way): the next
// ask computes it again.
func (s *Store) drop(id factID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.facts[id]
	if c == nil {
		return
	}
	select {
	case <-c.done:
		delete(s.facts, id)
	default:
	}
}

// idOf numbers an input (a parsed file, a stub) for unit keys: a new
// parse of a file gets a new number, so every unit holding it a new key.
func (s *Store) idOf(x any) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.ids[x]; ok {
		return id
	}
	s.lastID++
	s.ids[x] = s.lastID
	return s.lastID
}

// newUnit builds a unit over parsed files and stubs, with its key.
func (s *Store) newUnit(entry string, files []*grammar.File, stubs []*abi.Stub, kind workspace.Kind, pseudo string) *Unit {
	u := &Unit{Entry: entry, Files: files, Stubs: stubs, Kind: kind, Pseudo: pseudo != "", store: s}
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%d", pseudo, entry, kind)
	for _, f := range files {
		fmt.Fprintf(&b, "|f%d", s.idOf(f))
	}
	for _, st := range stubs {
		fmt.Fprintf(&b, "|s%d", s.idOf(st))
	}
	u.Key = b.String()
	return u
}

// Context is the run's context: long analyses check ctx.Err() and stop.
func (p *Pass) Context() context.Context {
	if p.ctx == nil {
		return context.Background()
	}
	return p.ctx
}

// Stopped reports whether the run was cancelled or is past its budget:
// the test a long loop makes at the top of each iteration, so that a rule
// abandoned by its run stops soon after (an atomic load: cheap enough for
// every iteration).
func (p *Pass) Stopped() bool { return p.Context().Err() != nil }

// Units lists the extern units the pass's file belongs to: for a C++ file
// the entries whose compile reaches it, for a Python file the entries its
// stubs name. A file no unit reaches gets a pseudo-unit of its own closure.
func (p *Pass) Units() []*Unit {
	p.lazy.units.once.Do(func() { p.lazy.units.v = p.computeUnits() })
	return p.lazy.units.v
}

// Closure is the pseudo-unit of the pass's file and what it includes
// (transitively): the file first. Pass.Includes and Pass.Consts are its
// files and constants.
func (p *Pass) Closure() *Unit {
	p.lazy.closure.once.Do(func() {
		p.lazy.closure.v = p.store.newUnit(p.File.Path, append([]*grammar.File{p.File}, p.Includes...), nil, p.kind(), "closure")
	})
	return p.lazy.closure.v
}

// Reach is the pseudo-unit of everything the file's compiles see: the
// file, its includes, then each of its units' files.
func (p *Pass) Reach() *Unit {
	p.lazy.reach.once.Do(func() {
		seen := map[*grammar.File]bool{}
		var files []*grammar.File
		add := func(fs []*grammar.File) {
			for _, f := range fs {
				if f != nil && f.Lang == grammar.CPP && !seen[f] {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
		seen[p.File] = true
		files = append(files, p.File)
		add(p.Includes)
		for _, u := range p.Units() {
			if !u.Pseudo {
				add(u.Files)
			}
		}
		if c := p.Closure(); slices.Equal(files, c.Files) {
			// Nothing but the file's own includes (an entry's units are
			// its closure): the same inputs, the same facts, computed once.
			p.lazy.reach.v = []*Unit{c}
			return
		}
		p.lazy.reach.v = []*Unit{p.store.newUnit(p.File.Path, files, nil, p.kind(), "reach")}
	})
	return p.lazy.reach.v[0]
}

func (p *Pass) kind() workspace.Kind {
	if p.Ctx != nil {
		return p.Ctx.Kind
	}
	return workspace.KindAIV
}

func (p *Pass) computeUnits() []*Unit {
	if p.WS == nil {
		return []*Unit{p.Closure()}
	}
	var entries []string
	switch p.File.Lang {
	case grammar.CPP:
		if p.Ctx != nil {
			entries = p.Ctx.Units
		}
	case grammar.Python:
		seen := map[string]bool{}
		for _, s := range p.WS.StubsFor(p.File.Path) {
			for _, e := range p.WS.StubEntries(s) {
				if !seen[e] {
					seen[e] = true
					entries = append(entries, e)
				}
			}
		}
		sort.Strings(entries)
	}
	var out []*Unit
	for _, e := range entries {
		if u := p.EntryUnit(e); u != nil {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return []*Unit{p.Closure()}
	}
	return out
}

// EntryUnit returns the unit rooted at an extern entry file (one a stub
// names, say), or nil when the entry cannot be read.
func (p *Pass) EntryUnit(entry string) *Unit {
	if p.WS == nil {
		return nil
	}
	return entryUnit(p.WS, p.store, entry)
}

func entryUnit(ws *workspace.Workspace, s *Store, entry string) *Unit {
	var files []*grammar.File
	parsed, errs := ws.Files(ws.Closure(entry))
	for i, f := range parsed {
		if errs[i] == nil && f.Lang == grammar.CPP {
			files = append(files, f)
		}
	}
	if len(files) == 0 || files[0].Path != workspace.Abs(entry) {
		return nil
	}
	kind, _ := ws.UnitKind(entry)
	return s.newUnit(files[0].Path, files, ws.StubsForEntry(entry), kind, "")
}

type lazy[T any] struct {
	once sync.Once
	v    T
}

// passUnits are a file's units, computed once per file and shared by the
// copies of its Pass (one per rule).
type passUnits struct {
	units, reach lazy[[]*Unit]
	closure      lazy[*Unit]
	args         lazy[[]abi.Access]
}

func sortNodes(ns []*grammar.Node) {
	sort.Slice(ns, func(i, j int) bool { return ns[i].Index() < ns[j].Index() })
}

// Releaser frees, during a run over many files, the parses (and their
// facts) that no file left to check reads (UnitPaths): a run then holds the
// units under way, not the whole tree. A rule reading a released file
// parses it again: the same text, the same findings. Open documents are
// never released (workspace.Release keeps overlays).
type Releaser struct {
	ws    *workspace.Workspace
	store *Store
	mu    sync.Mutex
	needs [][]string
	left  map[string]int
}

// NewReleaser counts the readers of every file the run's files read (with
// jobs goroutines); a path for which keep says true is never released.
func NewReleaser(ws *workspace.Workspace, store *Store, files []string, keep func(path string) bool, jobs int) *Releaser {
	r := &Releaser{ws: ws, store: store, needs: make([][]string, len(files)), left: map[string]int{}}
	at := make(map[string]int, len(files))
	for i, p := range files {
		at[p] = i
	}
	workspace.Parallel(jobs, files, func(p string) []string {
		needs := UnitPaths(ws, p)
		r.mu.Lock()
		r.needs[at[p]] = needs
		r.mu.Unlock()
		return nil
	})
	for i, p := range files {
		if at[p] != i {
			// A path listed twice: its first entry was computed.
			r.needs[i] = slices.Clone(r.needs[at[p]])
		}
		for _, q := range r.needs[i] {
			r.left[q]++
		}
	}
	if keep != nil {
		for q := range r.left {
			if keep(q) {
				r.left[q]++ // a reader that never finishes
			}
		}
	}
	return r
}

// Reads lists what files[i] reads (UnitPaths), until Done(i).
func (r *Releaser) Reads(i int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.needs[i]
}

// Done says files[i] is checked (or skipped): what only it still read is
// released.
func (r *Releaser) Done(i int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, q := range r.needs[i] {
		if r.left[q]--; r.left[q] == 0 {
			if f := r.ws.Release(q); f != nil {
				r.store.Release(f)
			}
		}
	}
	r.needs[i] = nil
}

// InputsOf identifies what the findings on a file depend on besides
// settings: the path and content of every file its compiles read
// (InputPaths), and the workspace's stubs. Equal values (same contents,
// same stubs) mean equal findings, so a front end can reuse a result
// without running the rules. The value holds no parse and no path: a
// cache of results keeps no tree alive, costs a few words per file, and
// is checked without parsing anything.
func InputsOf(ws *workspace.Workspace, path string) ResultInputs {
	h := sha256.New()
	for _, p := range InputPaths(ws, path) {
		io.WriteString(h, p)
		if sum, err := ws.ContentHash(p); err == nil {
			h.Write([]byte{0})
			h.Write(sum[:])
		} else {
			h.Write([]byte{1})
			io.WriteString(h, err.Error())
		}
		h.Write([]byte{0})
	}
	var in ResultInputs
	h.Sum(in.files[:0])
	in.stubs = ws.Stubs()
	return in
}

// ResultInputs is what InputsOf found.
type ResultInputs struct {
	files [sha256.Size]byte
	// The stub index is rebuilt on any change of a .py file: its stubs
	// are new values then.
	stubs []*abi.Stub
}

// SameInputs compares two InputsOf values.
func SameInputs(a, b ResultInputs) bool {
	return a.files == b.files && slices.Equal(a.stubs, b.stubs)
}

// InputPaths lists the files whose parses the findings on path may read:
// its include closure, then the closures of its units (a C++ file) or of
// the entries the workspace's stubs name (a Python file).
func InputPaths(ws *workspace.Workspace, path string) []string { return inputPaths(ws, path, true) }

// UnitPaths lists the files of path's closure and units: for a Python
// file, the units of the stubs it defines. It is what the rules read on
// path, but for a Python file calling externs another file defines.
func UnitPaths(ws *workspace.Workspace, path string) []string { return inputPaths(ws, path, false) }

func inputPaths(ws *workspace.Workspace, path string, allStubs bool) []string {
	path = workspace.Abs(path)
	seen := map[string]bool{}
	var out []string
	addClosure := func(root string) {
		for _, p := range ws.Closure(root) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	addClosure(path)
	if l, _ := grammar.LangOf(path); l == grammar.CPP {
		for _, u := range ws.Context(path).Units {
			addClosure(u)
		}
	} else {
		stubs := ws.StubsFor(path)
		if allStubs {
			stubs = ws.Stubs()
		}
		for _, s := range stubs {
			for _, e := range ws.StubEntries(s) {
				addClosure(e)
			}
		}
	}
	return out
}
