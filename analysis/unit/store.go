package unit

import (
	"context"
	"slices"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// FileKey names a fact derived from one file alone. Compute must be a pure
// function of the file (no disk, no workspace, no settings): the value is
// memoized per parsed file and shared by every unit, rule and goroutine
// that asks. Declare keys as package-level variables next to their code.
type FileKey[T any] struct {
	Name    string
	Compute func(ctx context.Context, f *grammar.File) T
	// Steps gives Compute a step meter of its own (see UnitKey.Steps).
	Steps bool
}

// UnitKey names a fact derived from a unit's inputs alone (its files, its
// stubs, its kind). Compute must be a pure function of the unit; the value
// is memoized by the unit's Key, so it is computed again only when one of
// the unit's inputs changes.
type UnitKey[T any] struct {
	Name    string
	Compute func(ctx context.Context, u *Unit) T
	// Steps gives Compute a step meter of its own (cxx.MeterOf(ctx)), for
	// work that can grow past linear: past its steps it stops, and every
	// rule reading the fact is told (RunCut).
	Steps bool
	// Rekey, when set, makes u's value from old, the value of a unit
	// whose files (files, in order) have u's paths and outlines
	// (outlineKey: directives and #includes, not their places), equal to
	// what Compute would give: for a fact that reads of a file's text
	// only its outline, and makes again whatever else it read of the
	// files that changed. An edit inside a function body then re-keys the
	// fact instead of computing it afresh. Not with Steps (a fact's steps
	// are a property of computing it).
	Rekey func(ctx context.Context, u *Unit, old T, files []*grammar.File) T
}

// cell is the store's cell of a fact, nil when it holds none.
func (s *Store) cell(id factID) *factCell {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.facts[id]
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
	// entries memoizes ForEntry.
	entries map[string]entryUnit
	// Computed, when set (before the store is used), is told of each fact
	// computed: its key's name and its file (a FileKey) or unit key.
	Computed func(name string, f *grammar.File, unit string)
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
	s.entries = nil
	// A macro shadow (grammar.File.MacroOf) is current with its file: its
	// facts dropped at each sweep were computed again by the next edit's
	// run, for every header of the unit.
	// Each parse is asked once: a unit fact pins every file of its unit,
	// and the store holds some hundreds of them while it is locked.
	known := map[*grammar.File]bool{}
	current := func(f *grammar.File) bool {
		if f.MacroOf != nil {
			f = f.MacroOf
		}
		cur, ok := known[f]
		if !ok {
			cur = in.IsCurrent(f)
			known[f] = cur
		}
		return cur
	}
	for id, c := range s.facts {
		stale := false
		for _, f := range c.pins {
			stale = stale || !current(f)
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
			if !current(x) {
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

// Release drops every fact computed from the parses fs, and their
// numbers: a later parse of a file starts afresh. `check` releases a
// file's facts with its parse once no file left to check reads it (the
// last file of a unit releases all of its files at once: one look over
// the facts, not one per file).
//
// The shadow files of their macro bodies (grammar.File.MacroOf) go with
// them.
func (s *Store) Release(fs ...*grammar.File) {
	if len(fs) == 0 {
		return
	}
	set := make(map[*grammar.File]bool, len(fs))
	for _, f := range fs {
		set[f] = true
	}
	of := func(g *grammar.File) bool { return g != nil && (set[g] || g.MacroOf != nil && set[g.MacroOf]) }
	s.mu.Lock()
	// The entries' units hold their parses: a released one must not stay
	// alive in the memo.
	s.entries = nil
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

// SweepIfGrown sweeps when the store holds a quarter more facts than
// after its last sweep (128 more at least), so a long session keeps about
// what its current files need: what an edit makes stale (its old parse's
// facts, some 35 on a unit of 50 files) is dropped within a few edits,
// however many facts the open documents keep (a sweep asks each parse
// once: cheap next to an edit's analysis).
func (s *Store) SweepIfGrown(in Inputs) {
	s.mu.Lock()
	grown := len(s.facts) > s.swept+max(s.swept/4, 128)
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
	// name is the fact's key's name; meter counts its steps (nil: a fact
	// with no steps, see UnitKey.Steps).
	name  string
	meter *cxx.Meter
	// pins are the parses and stubs the fact was computed from.
	pins  []*grammar.File
	stubs []*abi.Stub
}

func (s *Store) get(ctx context.Context, id factID, name string, steps bool, pins []*grammar.File, compute func(context.Context) any) any {
	if ctx.Err() != nil {
		// A cancelled run still reads what the store finished: computing
		// it again for the run alone (the abandoned rules of a one-function
		// file each re-summarised its effects) is the work a cancel saves.
		s.mu.Lock()
		c := s.facts[id]
		s.mu.Unlock()
		if c != nil {
			select {
			case <-c.done:
				if c.ok {
					readMetered(ctx, c)
					return c.v
				}
			default:
			}
		}
		return cancelledFact(ctx, id, compute)
	}
	for {
		s.mu.Lock()
		c := s.facts[id]
		if c == nil {
			c = &factCell{done: make(chan struct{}), pins: pins, name: name}
			if rf := runOf(ctx); steps && rf != nil && rf.steps > 0 {
				c.meter = cxx.NewMeter(rf.steps)
			}
			s.facts[id] = c
			s.mu.Unlock()
			v := s.fill(ctx, id, c, compute)
			readMetered(ctx, c)
			return v
		}
		s.mu.Unlock()
		select {
		case <-c.done:
			if c.ok {
				readMetered(ctx, c)
				return c.v
			}
			// The computing run was cancelled or crashed: compute again.
		case <-ctx.Done():
			// Our own run is cancelled: whatever we return is discarded.
			return cancelledFact(ctx, id, compute)
		}
	}
}

// runFacts is one run's view of the store. It holds the facts the run
// computed after its context was cancelled: not kept in the store (they
// may be cut short), but computed once for the rest of the run (dropping
// them made a rule abandoned at a cancel do many times the work of a
// whole run before it finished).
type runFacts struct {
	mu sync.Mutex
	m  map[factID]any
	// steps is the step budget of each fact with steps the run computes
	// (0: none); cut are those facts the run read, those from cut[from] on
	// since the last StartReads.
	steps int64
	cut   []*factCell
	from  int
}

// readMetered notes that the run under ctx read the fact of c, if it has
// a meter to be told of.
func readMetered(ctx context.Context, c *factCell) {
	if c.meter == nil {
		return
	}
	rf := runOf(ctx)
	if rf == nil {
		return
	}
	rf.mu.Lock()
	if !slices.Contains(rf.cut[rf.from:], c) {
		rf.cut = append(rf.cut, c)
	}
	rf.mu.Unlock()
}

// StartReads starts a new span of the run's reads, and returns where it
// starts (see RunCut): a run whose rules run one after another starts one
// before each.
func StartReads(ctx context.Context) int {
	rf := runOf(ctx)
	if rf == nil {
		return 0
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	rf.from = len(rf.cut)
	return rf.from
}

// RunCut names a fact read by the run under ctx, in the span of its reads
// from from to to (StartReads; to < 0: on to the last), that ran out of
// its steps ("" when none did), with its steps: what was found from it may
// miss what the rest of its work would have found. Whichever run computed
// the fact, every run reading it is told, so the answer is a property of
// the input.
func RunCut(ctx context.Context, from, to int) (fact string, steps int64) {
	rf := runOf(ctx)
	if rf == nil {
		return "", 0
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if to < 0 {
		to = len(rf.cut)
	}
	for _, c := range rf.cut[from:to] {
		if c.meter.Spent() {
			return c.name, c.meter.Limit()
		}
	}
	return "", 0
}

type runFactsKey struct{}

func runOf(ctx context.Context) *runFacts {
	rf, _ := ctx.Value(runFactsKey{}).(*runFacts)
	return rf
}

// WithRun gives a run's context the memo of the facts it computes after
// it is cancelled (see runFacts), and the step budget of each fact the run
// computes (steps <= 0: none). The runs sharing a store give the same.
func WithRun(ctx context.Context, steps int64) context.Context {
	return context.WithValue(ctx, runFactsKey{}, &runFacts{m: map[factID]any{}, steps: steps})
}

// cancelledFact returns the fact of a cancelled run, computed once per run.
func cancelledFact(ctx context.Context, id factID, compute func(context.Context) any) any {
	rf := runOf(ctx)
	if rf == nil {
		return compute(ctx)
	}
	rf.mu.Lock()
	v, ok := rf.m[id]
	rf.mu.Unlock()
	if ok {
		return v
	}
	v = compute(ctx)
	rf.mu.Lock()
	rf.m[id] = v
	rf.mu.Unlock()
	return v
}

func (s *Store) fill(ctx context.Context, id factID, c *factCell, compute func(context.Context) any) any {
	defer func() {
		if !c.ok {
			s.mu.Lock()
			delete(s.facts, id)
			s.mu.Unlock()
		}
		close(c.done)
	}()
	if c.meter != nil {
		ctx = cxx.WithMeter(ctx, c.meter)
	}
	if s.Computed != nil {
		s.Computed(c.name, id.file, id.unit)
	}
	v := compute(ctx)
	if ctx.Err() == nil {
		c.v, c.ok = v, true
	} else if rf := runOf(ctx); rf != nil {
		rf.mu.Lock()
		rf.m[id] = v
		rf.mu.Unlock()
	}
	return v
}

// DropUnit forgets u's computed facts (those under way stay): the next
// ask computes them again.
func (s *Store) DropUnit(u *Unit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, c := range s.facts {
		if id.unit == u.Key {
			select {
			case <-c.done:
				delete(s.facts, id)
			default:
			}
		}
	}
}

// idLocked numbers an input (a parsed file, a stub) for unit keys, with
// s.mu held: a new parse of a file gets a new number, so every unit
// holding it a new key.
func (s *Store) idLocked(x any) uint64 {
	if id, ok := s.ids[x]; ok {
		return id
	}
	s.lastID++
	s.ids[x] = s.lastID
	return s.lastID
}
