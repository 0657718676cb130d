package cxx

import (
	"slices"
	"sort"
	"sync/atomic"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// EffectIndex answers questions about one function's effects (what happens
// in this stretch, what comes first after this point) by lookups over
// lists built once, where a scan of the effects per question makes a rule
// quadratic in the size of the function (a question per statement, each
// over every effect). Build it with Summaries.Index; it is immutable and
// safe for concurrent use.
type EffectIndex struct {
	effects *effectList
	// keys lists the index's lists, sorted (indexKey): the positions in
	// effects of the effects by kind, core and buffer, in source order;
	// keys[k]'s list is pos[ends[k-1]:ends[k]]. A sorted array, not a map:
	// a unit holds an index per function, thousands in a large unit.
	keys []uint64
	ends []int32
	pos  positions
	// bufs are the buffers of the effects (Origin.buffer), numbered from
	// 1 in keys; bufIDs finds one when they are many. Interned: the
	// buffers are the same few across a unit's functions, and an index
	// per function holding each by value held more than its positions.
	bufs   []*Origin
	bufIDs map[Origin]int32
	// published holds, per cores mask, what AfterWriteBack needs; built on
	// first use.
	// Two goroutines may both build one: they build the same.
	published [grammar.AIC | grammar.AIV + 1]atomic.Pointer[publishIndex]
}

// positions is a list of effect positions (or of indexes into such a
// list).
type positions []int32

func (v positions) len() int { return len(v) }

func (v positions) at(k int) int32 { return v[k] }

func (v positions) slice(lo, hi int) positions { return v[lo:hi:hi] }

// search is the first k with v.at(k) >= i (v sorted).
func (v positions) search(i int32) int {
	return sort.Search(v.len(), func(k int) bool { return v.at(k) >= i })
}

// indexKey is the key of the list of the effects of a kind on the cores
// mask (grammar.Cores: AIC, AIV or both): on buffer buf (bufs[buf-1]), or
// every one (buf 0), or the whole-cache ones (all). An effect is in the
// lists of its own mask; a question about a core asks the lists of each
// mask holding it (coreMasks).

func indexKey(kind EffectKind, core grammar.Cores, buf int32, all bool) uint64 {
	k := uint64(uint32(buf))<<32 | uint64(kind)<<16 | uint64(core)<<8
	if all {
		k |= 1
	}
	return k
}

// coreMasks are the cores masks of the index's lists.
var coreMasks = [...]grammar.Cores{grammar.AIC, grammar.AIV, grammar.Both}

// manyBufs is the number of buffers above which an index finds a buffer
// by a map rather than a scan.
const manyBufs = 8

// newEffectIndex indexes effects (one function's, as effectsOf returns
// them: in source order) by kind, core and buffer; intern is the
// summaries' Origin interning (Summaries.intern).
func newEffectIndex(effects *effectList, intern func(Origin) *Origin) *EffectIndex {
	x := &EffectIndex{effects: effects}
	// The buffer of each distinct origin (shared by its effects).
	byOrigin := map[*Origin]int32{}
	ids := map[Origin]int32{}
	var bufs []*Origin
	bufOf := func(e *effectFact) int32 {
		if e.origin == nil || !e.origin.Known() {
			return 0
		}
		if id, ok := byOrigin[e.origin]; ok {
			return id
		}
		b := e.origin.buffer()
		id, ok := ids[b]
		if !ok {
			bufs = append(bufs, intern(b))
			id = int32(len(bufs))
			ids[b] = id
		}
		byOrigin[e.origin] = id
		return id
	}
	keys := func(e *effectFact, add func(uint64)) {
		buf := bufOf(e)
		cores := e.cores & grammar.Both
		if cores == grammar.None {
			return
		}
		add(indexKey(e.kind, cores, 0, false))
		if buf != 0 {
			add(indexKey(e.kind, cores, buf, false))
		}
		if e.all {
			add(indexKey(e.kind, cores, 0, true))
		}
	}
	// Counted first, then cut from one array: the index lives as long as
	// the unit's summaries.
	counts := map[uint64]int32{}
	total := 0
	for i := range effects.Len() {
		keys(effects.fact(i), func(k uint64) { counts[k]++; total++ })
	}
	x.keys = make([]uint64, 0, len(counts))
	for k := range counts {
		x.keys = append(x.keys, k)
	}
	slices.Sort(x.keys)
	x.ends = make([]int32, len(x.keys))
	next := make(map[uint64]int32, len(counts))
	at := int32(0)
	for i, k := range x.keys {
		next[k] = at
		at += counts[k]
		x.ends[i] = at
	}
	x.pos = make(positions, total)
	for i := range effects.Len() {
		keys(effects.fact(i), func(k uint64) {
			x.pos[next[k]] = int32(i)
			next[k]++
		})
	}
	// Cut to size: the index lives as long as the unit's summaries.
	x.bufs = slices.Clone(bufs)
	if len(x.bufs) > manyBufs {
		x.bufIDs = ids
	}
	return x
}

// list returns the positions of the effects of key k.
func (x *EffectIndex) list(k uint64) positions {
	i, ok := slices.BinarySearch(x.keys, k)
	if !ok {
		return nil
	}
	start := int32(0)
	if i > 0 {
		start = x.ends[i-1]
	}
	return x.pos.slice(int(start), int(x.ends[i]))
}

// kindList is the positions of the effects of the kind on the cores
// mask; with all, of the whole-cache ones.
func (x *EffectIndex) kindList(kind EffectKind, core grammar.Cores, all bool) positions {
	return x.list(indexKey(kind, core, 0, all))
}

// bufList is the positions of the effects of the kind on the cores mask
// on o's buffer (o known).
func (x *EffectIndex) bufList(kind EffectKind, core grammar.Cores, o Origin) positions {
	b := o.buffer()
	var id int32
	if x.bufIDs != nil {
		id = x.bufIDs[b]
	} else {
		for i := range x.bufs {
			if *x.bufs[i] == b {
				id = int32(i + 1)
				break
			}
		}
	}
	if id == 0 {
		return nil
	}
	return x.list(indexKey(kind, core, id, false))
}

// buffer is the origin without its offsets: what Same compares.
func (o Origin) buffer() Origin {
	o.Off, o.OffUnknown, o.idx, o.Region = 0, false, 0, ""
	return o
}

// Len is the number of indexed effects.
func (x *EffectIndex) Len() int { return x.effects.Len() }

// Effect returns the indexed effect at position i (0 <= i < Len()).
func (x *EffectIndex) Effect(i int) Effect { return x.effects.effect(i) }

// from returns the first k with v.at(k)'s effect starting at or after pos.
func (x *EffectIndex) from(v positions, pos uint32) int {
	return v.search(int32(x.effects.startAt(pos)))
}

// In reports whether an effect of the kind on one of cores happens at a
// node starting in [start, end); with a known origin o, only one on the
// same buffer (Origin.Same).
func (x *EffectIndex) In(kind EffectKind, o Origin, cores grammar.Cores, start, end uint32) bool {
	for _, core := range coreMasks {
		if cores&core == 0 {
			continue
		}
		v := x.kindList(kind, core, false)
		if o.Known() {
			v = x.bufList(kind, core, o)
		}
		if i := x.from(v, start); i < v.len() && x.effects.at(int(v.at(i))).Start < end {
			return true
		}
	}
	return false
}

// NextCovering returns the position in Effects of the first effect of the
// kind on one of cores starting in [start, end) that covers memory o
// (Effect.Covers) or happens at node also (when not nil); -1 when there is
// none.
func (x *EffectIndex) NextCovering(kind EffectKind, o Origin, cores grammar.Cores, start, end uint32, also *grammar.Node) int {
	best := int32(-1)
	better := func(i int32) bool { return x.effects.at(int(i)).Start < end && (best < 0 || i < best) }
	for _, core := range coreMasks {
		if cores&core == 0 {
			continue
		}
		if v := x.kindList(kind, core, true); v.len() > 0 {
			if k := x.from(v, start); k < v.len() && better(v.at(k)) {
				best = v.at(k)
			}
		}
		if o.Known() {
			v := x.bufList(kind, core, o)
			// Regions of the buffer at other offsets are skipped: few in
			// real code.
			for k := x.from(v, start); k < v.len() && better(v.at(k)); k++ {
				if x.effects.fact(int(v.at(k))).covers(o) {
					best = v.at(k)
					break
				}
			}
		}
		if also != nil {
			v := x.kindList(kind, core, false)
			for k := x.from(v, also.Start); k < v.len() && x.effects.at(int(v.at(k))).Start == also.Start && better(v.at(k)); k++ {
				if x.effects.at(int(v.at(k))) == also {
					best = v.at(k)
					break
				}
			}
		}
	}
	return int(best)
}

// publishIndex is, for one cores mask, what follows each point of the
// function on the way to GM: the next dsb, signal or wait, and the stores
// that are written back before a dsb (flags a consumer polls).
type publishIndex struct {
	// stops are the positions of the Dsb, Signal and Wait effects, in
	// order (nextStop finds the first at or after a point): a list of
	// the stops rather than an answer per effect.
	n int32
	// lists holds the stops, then flags, otherBuf and otherKey.
	lists          positions
	nStops, nFlags int32
	// flags are the scalar stores to known memory written back (Covers)
	// after them before any dsb, in source order; otherBuf[k] and
	// otherKey[k] are the next k' > k whose buffer, and whose buffer or
	// offset, differ from flags[k]'s.
}

func (p *publishIndex) stops() positions { return p.lists.slice(0, int(p.nStops)) }

func (p *publishIndex) flags() positions {
	return p.lists.slice(int(p.nStops), int(p.nStops+p.nFlags))
}

func (p *publishIndex) otherBuf() positions {
	return p.lists.slice(int(p.nStops+p.nFlags), int(p.nStops+2*p.nFlags))
}

func (p *publishIndex) otherKey() positions {
	return p.lists.slice(int(p.nStops+2*p.nFlags), int(p.nStops+3*p.nFlags))
}

func (x *EffectIndex) publish(cores grammar.Cores) *publishIndex {
	slot := &x.published[cores&(grammar.AIC|grammar.AIV)]
	if p := slot.Load(); p != nil {
		return p
	}
	slot.CompareAndSwap(nil, newPublishIndex(x.effects, cores))
	return slot.Load()
}

// writtenBack is the write-backs of a stretch of a function up to a dsb,
// as Covers asks about them.
type writtenBack struct {
	all  bool
	bufs map[Origin]*bufferWriteBacks
}

type bufferWriteBacks struct {
	base bool // one at the buffer's base or an unknown offset, unnamed: covers every region
	at   []Origin
}

func (w *writtenBack) add(e *effectFact) {
	if e.all {
		w.all = true
	}
	o := e.origin.value()
	if !o.Known() {
		return
	}
	if w.bufs == nil {
		w.bufs = map[Origin]*bufferWriteBacks{}
	}
	b := w.bufs[o.buffer()]
	if b == nil {
		b = &bufferWriteBacks{}
		w.bufs[o.buffer()] = b
	}
	if (o.Off == 0 || o.OffUnknown) && o.Region == "" {
		b.base = true
	} else if !slices.Contains(b.at, o) {
		b.at = append(b.at, o)
	}
}

// covers reports whether one of the write-backs covers p (Effect.Covers).
func (w *writtenBack) covers(p Origin) bool {
	if w.all {
		return true
	}
	b := w.bufs[p.buffer()]
	return p.Known() && b != nil && (b.base || slices.ContainsFunc(b.at, func(o Origin) bool { return o.Covers(p) }))
}

// nextStop is the first position at or after i that is a Dsb, Signal or
// Wait; the number of effects if none.
func (p *publishIndex) nextStop(i int) int32 {
	stops := p.stops()
	k := stops.search(int32(i))
	if k == stops.len() {
		return p.n
	}
	return stops.at(k)
}

func newPublishIndex(effects *effectList, cores grammar.Cores) *publishIndex {
	n := effects.Len()
	p := &publishIndex{n: int32(n)}
	flag := make([]bool, n)
	var stops []int32
	// From the last effect back: the write-backs between each point and
	// the next dsb.
	var wb writtenBack
	for i := n - 1; i >= 0; i-- {
		e := effects.fact(i)
		if e.cores&cores == grammar.None {
			continue
		}
		switch e.kind {
		case ScalarWrite:
			flag[i] = e.origin != nil && e.origin.Known() && wb.covers(*e.origin)
		case WriteBack:
			wb.add(e)
		case Dsb:
			wb = writtenBack{}
			stops = append(stops, int32(i))
		case Signal, Wait:
			stops = append(stops, int32(i))
		}
	}
	slices.Reverse(stops)
	var flags []int32
	for i, ok := range flag {
		if ok {
			flags = append(flags, int32(i))
		}
	}
	otherBuf := make([]int32, len(flags))
	otherKey := make([]int32, len(flags))
	for k := len(flags) - 1; k >= 0; k-- {
		otherBuf[k], otherKey[k] = int32(len(flags)), int32(len(flags))
		if k+1 < len(flags) {
			o, next := effects.fact(int(flags[k])).origin.value(), effects.fact(int(flags[k+1])).origin.value()
			otherBuf[k], otherKey[k] = int32(k+1), int32(k+1)
			if next.buffer() == o.buffer() {
				otherBuf[k] = otherBuf[k+1]
				if next == o {
					otherKey[k] = otherKey[k+1]
				}
			}
		}
	}
	// One array for the four lists, kept as long as the index.
	p.nStops, p.nFlags = int32(len(stops)), int32(len(flags))
	p.lists = make(positions, len(stops)+3*len(flags))
	at := 0
	for _, l := range [][]int32{stops, flags, otherBuf, otherKey} {
		for _, i := range l {
			p.lists[at] = i
			at++
		}
	}
	return p
}

// AfterWriteBack returns what follows the write-back Effect(wb) of
// memory o on cores before any dsb: the position of the first cross-core
// signal or wait, or store to other memory that is itself written back
// before a dsb (a flag a consumer polls, which can land first). It returns
// -1 and dsb set when a dsb comes first, -1 alone when nothing follows.
func (x *EffectIndex) AfterWriteBack(wb int, o Origin, cores grammar.Cores) (next int, dsb bool) {
	p := x.publish(cores)
	stop := p.nextStop(wb + 1)
	flags := p.flags()
	k := flags.search(int32(wb + 1))
	for k < flags.len() && flags.at(k) < stop {
		e := x.effects.fact(int(flags.at(k)))
		if !e.origin.value().SameRegion(o) {
			return int(flags.at(k)), false
		}
		// Same region: so are the stores with its key, and with o's
		// offset unknown, every store to the buffer.
		if o.OffUnknown && o.Region == "" {
			k = int(p.otherBuf().at(k))
		} else {
			k = int(p.otherKey().at(k))
		}
	}
	if int(stop) == x.effects.Len() {
		return -1, false
	}
	if x.effects.fact(int(stop)).kind == Dsb {
		return -1, true
	}
	return int(stop), false
}

// StopFrom returns the position of the first dsb, cross-core signal or
// wait on cores at or after source offset pos, or Len() when none does.
func (x *EffectIndex) StopFrom(pos uint32, cores grammar.Cores) int {
	return int(x.publish(cores).nextStop(x.effects.startAt(pos)))
}

// NextStop returns the position of the first dsb, cross-core signal or
// wait on cores after position i, or Len() when none follows.
func (x *EffectIndex) NextStop(i int, cores grammar.Cores) int {
	return int(x.publish(cores).nextStop(i + 1))
}
