package unit

import (
	"context"
	"slices"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
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

// FactKey is a UnitKey of any type.
type FactKey interface {
	factName() string
}

func (k *UnitKey[T]) factName() string { return k.Name }

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
	// readers are the facts each rule was seen to read (Learn).
	readers map[string]map[FactKey]bool
	// entries memoizes ForEntry.
	entries map[string]entryUnit
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

// runFacts is one run's view of the store. It holds the facts the run
// computed after its context was cancelled: not kept in the store (they
// may be cut short), but computed once for the rest of the run (dropping
// them made a rule abandoned at a cancel do many times the work of a
// whole run before it finished). In a run that drops facts (WithDrops) it
// also notes which facts each rule asks for.
type runFacts struct {
	mu sync.Mutex
	m  map[factID]any
	// drops is set by WithDrops. rule is the rule running; reads are the
	// facts each rule asked for (the store learns them when the run
	// ends); dropped are the facts the run dropped, onDropped hears a
	// rule ask for one of them.
	drops     bool
	rule      string
	reads     map[string]map[FactKey]bool
	dropped   map[factID]bool
	onDropped func(rule, fact string)
}

// asked notes that the running rule asks for the fact id.
func (rf *runFacts) asked(id factID) {
	if !rf.drops {
		return
	}
	k := id.key.(FactKey)
	rf.mu.Lock()
	again := rf.dropped[id]
	rule := rf.rule
	if rf.reads[rule] == nil {
		rf.reads[rule] = map[FactKey]bool{}
	}
	rf.reads[rule][k] = true
	rf.mu.Unlock()
	if again && rf.onDropped != nil {
		rf.onDropped(rule, k.factName())
	}
}

type runFactsKey struct{}

func runOf(ctx context.Context) *runFacts {
	rf, _ := ctx.Value(runFactsKey{}).(*runFacts)
	return rf
}

// WithRun gives a run's context the memo of the facts it computes after
// it is cancelled (see runFacts).
func WithRun(ctx context.Context) context.Context {
	return context.WithValue(ctx, runFactsKey{}, &runFacts{m: map[factID]any{}})
}

// WithDrops is WithRun for a run that drops each fact of a file's own
// units after the last rule reading it (LastReaders): a one-shot check
// then holds, at each rule, what the rules still to run read. Which rule
// reads which fact the store learns from the runs before (Learn), so no
// rule declares it; onDropped, when set, hears a rule ask for a fact the
// run dropped (it is computed again).
func WithDrops(ctx context.Context, onDropped func(rule, fact string)) context.Context {
	rf := &runFacts{m: map[factID]any{}, drops: true, reads: map[string]map[FactKey]bool{}, dropped: map[factID]bool{}, onDropped: onDropped}
	return context.WithValue(ctx, runFactsKey{}, rf)
}

// SetRule names the rule the run of ctx runs now.
func SetRule(ctx context.Context, rule string) {
	if rf := runOf(ctx); rf != nil && rf.drops {
		rf.mu.Lock()
		rf.rule = rule
		rf.mu.Unlock()
	}
}

// Learn keeps what the rules of the run of ctx read (see WithDrops).
func (s *Store) Learn(ctx context.Context) {
	rf := runOf(ctx)
	if rf == nil || !rf.drops {
		return
	}
	rf.mu.Lock()
	defer rf.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readers == nil {
		s.readers = map[string]map[FactKey]bool{}
	}
	for rule, ks := range rf.reads {
		if s.readers[rule] == nil {
			s.readers[rule] = map[FactKey]bool{}
		}
		for k := range ks {
			s.readers[rule][k] = true
		}
	}
}

// LastReaders lists, for each of rules (in the order they run), the facts
// no later rule reads, as far as the runs before learned (a fact no run
// has seen read is never dropped).
func (s *Store) LastReaders(rules []string) map[string][]FactKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := map[FactKey]string{}
	var keys []FactKey
	for _, r := range rules {
		for k := range s.readers[r] {
			if _, ok := last[k]; !ok {
				keys = append(keys, k)
			}
			last[k] = r
		}
	}
	out := map[string][]FactKey{}
	for _, k := range keys {
		out[last[k]] = append(out[last[k]], k)
	}
	return out
}

// Drop forgets u's fact k when it is computed (not under way): the next
// ask computes it again.
func (u *Unit) Drop(k FactKey) {
	if u.store == nil {
		return
	}
	id := factID{key: k, unit: u.Key}
	u.store.drop(id)
	if rf := runOf(u.Context()); rf != nil && rf.drops {
		rf.mu.Lock()
		rf.dropped[id] = true
		rf.mu.Unlock()
	}
}

// cancelledFact returns the fact of a cancelled run, computed once per run.
func cancelledFact(ctx context.Context, id factID, compute func() any) any {
	rf := runOf(ctx)
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
	} else if rf := runOf(ctx); rf != nil {
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
