package cxx

import (
	"iter"
	"slices"
	"sort"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// effectList is one function's effects (Summaries.effectsOf), stored
// compactly. In a call graph where helpers call helpers, each call's block
// repeats its callee's effects, so a unit holds hundreds of effects per
// function on a few thousand distinct operations: an effect is the id of
// its operation in the unit's table (effectFact: the site, the memory, the
// kind, the cores), and the node it happens at is shared by the run of
// effects at one node (a call's block, a dcci's invalidate and write-back).
type effectList struct {
	ids  []uint32
	runs []atRun
	// facts is the unit's table when the list was made: it holds the
	// list's ids; the list reads it without the summaries' lock.
	facts *factTable
}

// atRun is a run of effects at one node: positions [the previous run's
// end, end).
type atRun struct {
	end int32
	at  *grammar.Node
}

// effectFact is what an Effect says besides the node it happens at.
type effectFact struct {
	site   *grammar.Node
	origin *Origin
	// file is the site's file (factTable.files).
	file  int32
	kind  EffectKind
	all   bool
	cores grammar.Cores
}

// factChunk is the table's unit of growth: a chunk never moves, so the
// lists made before it was added keep reading the chunks they know while
// new facts go in the last one's free slots.
const factChunk = 1024

// factTable is one state of a unit's table of effect facts: a new state
// is made (its chunk list copied) when a chunk is added; the facts of a
// chunk, once written, never change.
type factTable struct {
	chunks []*[factChunk]effectFact
	// n counts the facts written; it is the writer's (addFact) and
	// changes in place, so the lists read without the lock never read it.
	n     uint32
	files []*grammar.File
}

func (t *factTable) fact(id uint32) *effectFact { return &t.chunks[id/factChunk][id%factChunk] }

func (t *factTable) effect(id uint32, at *grammar.Node) Effect {
	f := t.fact(id)
	return Effect{At: at, Site: f.site, SiteFile: t.files[f.file], origin: f.origin, Kind: f.kind, All: f.all, Cores: f.cores}
}

// covers is Effect.Covers.
func (f *effectFact) covers(o Origin) bool { return f.all || f.origin.value().Covers(o) }

// addFact adds fact f to the unit's table and returns its id.
func (s *Summaries) addFact(f effectFact) uint32 {
	t := s.facts
	if t.n%factChunk == 0 {
		t = &factTable{chunks: append(slices.Clip(t.chunks), new([factChunk]effectFact)), n: t.n, files: t.files}
		s.facts = t
	}
	id := t.n
	*t.fact(id) = f
	t.n++
	return id
}

// mappedFact is a fact of a callee with the memory and cores it has at a
// call.
type mappedFact struct {
	id     uint32
	origin *Origin
	cores  grammar.Cores
}

// mapFact returns the id of fact id with memory origin on cores: the same
// id when nothing changes, otherwise one shared by every call that maps
// it the same way.
func (s *Summaries) mapFact(id uint32, origin *Origin, cores grammar.Cores) uint32 {
	f := *s.facts.fact(id)
	if f.origin == origin && f.cores == cores {
		return id
	}
	k := mappedFact{id, origin, cores}
	if m, ok := s.mapped[k]; ok {
		return m
	}
	if s.mapped == nil {
		s.mapped = map[mappedFact]uint32{}
	}
	f.origin, f.cores = origin, cores
	m := s.addFact(f)
	s.mapped[k] = m
	return m
}

// fileID is the index of file f in the table's files.
func (s *Summaries) fileID(f *grammar.File) int32 {
	if i, ok := s.fileIDs[f]; ok {
		return i
	}
	if s.fileIDs == nil {
		s.fileIDs = map[*grammar.File]int32{}
	}
	t := s.facts
	t = &factTable{chunks: t.chunks, n: t.n, files: append(slices.Clip(t.files), f)}
	s.facts = t
	s.fileIDs[f] = int32(len(t.files) - 1)
	return int32(len(t.files) - 1)
}

// Len is the number of effects (0 for a nil list).
func (l *effectList) Len() int {
	if l == nil {
		return 0
	}
	return len(l.ids)
}

// fact is what the effect at position i says.
func (l *effectList) fact(i int) *effectFact { return l.facts.fact(l.id(i)) }

// id is the fact id of the effect at position i.
func (l *effectList) id(i int) uint32 { return l.ids[i] }

// run is the index of the run holding position i.
func (l *effectList) run(i int) int {
	return sort.Search(len(l.runs), func(k int) bool { return int(l.runs[k].end) > i })
}

// at is the node the effect at position i happens at.
func (l *effectList) at(i int) *grammar.Node { return l.runs[l.run(i)].at }

// effect is the effect at position i.
func (l *effectList) effect(i int) Effect { return l.facts.effect(l.id(i), l.at(i)) }

// startAt is the first position whose effect starts at or after pos (the
// effects are in source order).
func (l *effectList) startAt(pos uint32) int {
	if l == nil {
		return 0
	}
	k := sort.Search(len(l.runs), func(k int) bool { return l.runs[k].at.Start >= pos })
	if k == 0 {
		return 0
	}
	return int(l.runs[k-1].end)
}

// all yields the effects in order, with their positions.
func (l *effectList) all() iter.Seq2[int, Effect] {
	return func(yield func(int, Effect) bool) {
		if l == nil {
			return
		}
		i := 0
		for _, r := range l.runs {
			for ; i < int(r.end); i++ {
				if !yield(i, l.facts.effect(l.id(i), r.at)) {
					return
				}
			}
		}
	}
}

// effectBuilder appends effects to a list.
type effectBuilder struct {
	ids  []uint32
	runs []atRun
}

func (b *effectBuilder) add(at *grammar.Node, id uint32) {
	b.ids = append(b.ids, id)
	if n := len(b.runs); n > 0 && b.runs[n-1].at == at {
		b.runs[n-1].end++
		return
	}
	b.runs = append(b.runs, atRun{end: int32(len(b.ids)), at: at})
}

// list returns the built list, its arrays cut to size (it is kept for the
// unit's life), or nil when empty.
func (b *effectBuilder) list(facts *factTable) *effectList {
	if len(b.ids) == 0 {
		return nil
	}
	return &effectList{
		ids:   slices.Clip(b.ids),
		runs:  append(make([]atRun, 0, len(b.runs)), b.runs...),
		facts: facts,
	}
}

// condensed returns the positions condense keeps of a list longer than
// condenseAbove, in order; nil (every position) for a shorter one.
func (l *effectList) condensed() []int32 {
	if l.Len() <= condenseAbove {
		return nil
	}
	type key struct {
		origin *Origin
		kind   EffectKind
		all    bool
		cores  grammar.Cores
	}
	keyOf := func(i int) key {
		f := l.fact(i)
		return key{f.origin, f.kind, f.all, f.cores}
	}
	first := map[key]int{}
	last := map[key]int{}
	for i := range l.Len() {
		k := keyOf(i)
		if _, ok := first[k]; !ok {
			first[k] = i
		}
		last[k] = i
	}
	out := make([]int32, 0, 2*len(first))
	for i := range l.Len() {
		if k := keyOf(i); first[k] == i || last[k] == i {
			out = append(out, int32(i))
		}
	}
	return out
}
