package cxx

import (
	"sort"
	"sync"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// EffectIndex answers questions about one function's effects (what happens
// in this stretch, what comes first after this point) by lookups over
// lists built once, where a scan of the effects per question makes a rule
// quadratic in the size of the function (a question per statement, each
// over every effect). Build it with Summaries.Index; it is immutable and
// safe for concurrent use.
type EffectIndex struct {
	effects []Effect
	// at lists the positions in effects of the effects by kind, core and
	// buffer, in source order.
	at map[effectIndexKey][]int32
	// published holds, per cores mask, what AfterWriteBack needs; built on
	// first use.
	published [grammar.AIC | grammar.AIV + 1]struct {
		once sync.Once
		p    *publishIndex
	}
}

type effectIndexKey struct {
	// buf is the buffer (no offsets); NoOrigin indexes every effect of the
	// kind.
	buf  Origin
	kind EffectKind
	core grammar.Cores // one core bit
	// all indexes the whole-cache effects of the kind.
	all bool
}

// NewEffectIndex indexes effects (one function's, as Effects returns them:
// in source order) by kind, core and buffer.
func NewEffectIndex(effects []Effect) *EffectIndex {
	// Counted first, then cut from one array: the index lives as long as
	// the unit's summaries, and lists grown by append keep up to as much
	// room again.
	keys := func(e Effect, add func(effectIndexKey)) {
		for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
			if e.Cores&core == 0 {
				continue
			}
			add(effectIndexKey{kind: e.Kind, core: core})
			if e.Origin.Known() {
				add(effectIndexKey{kind: e.Kind, core: core, buf: e.Origin.buffer()})
			}
			if e.All {
				add(effectIndexKey{kind: e.Kind, core: core, all: true})
			}
		}
	}
	counts := map[effectIndexKey]int{}
	total := 0
	for _, e := range effects {
		keys(e, func(k effectIndexKey) { counts[k]++; total++ })
	}
	x := &EffectIndex{effects: effects, at: make(map[effectIndexKey][]int32, len(counts))}
	all := make([]int32, total)
	for i, e := range effects {
		keys(e, func(k effectIndexKey) {
			v, ok := x.at[k]
			if !ok {
				n := counts[k]
				v, all = all[:0:n], all[n:]
			}
			x.at[k] = append(v, int32(i))
		})
	}
	return x
}

// buffer is the origin without its offsets: what Same compares.
func (o Origin) buffer() Origin {
	o.Off, o.OffUnknown, o.idx = 0, false, 0
	return o
}

// Effects returns the indexed effects (shared: do not modify).
func (x *EffectIndex) Effects() []Effect { return x.effects }

// from returns the first k with v[k]'s effect starting at or after pos.
func (x *EffectIndex) from(v []int32, pos uint32) int {
	return sort.Search(len(v), func(k int) bool { return x.effects[v[k]].At.Start >= pos })
}

// In reports whether an effect of the kind on one of cores happens at a
// node starting in [start, end); with a known origin o, only one on the
// same buffer (Origin.Same).
func (x *EffectIndex) In(kind EffectKind, o Origin, cores grammar.Cores, start, end uint32) bool {
	for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
		if cores&core == 0 {
			continue
		}
		k := effectIndexKey{kind: kind, core: core}
		if o.Known() {
			k.buf = o.buffer()
		}
		v := x.at[k]
		if i := x.from(v, start); i < len(v) && x.effects[v[i]].At.Start < end {
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
	better := func(i int32) bool { return x.effects[i].At.Start < end && (best < 0 || i < best) }
	for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
		if cores&core == 0 {
			continue
		}
		if v := x.at[effectIndexKey{kind: kind, core: core, all: true}]; len(v) > 0 {
			if k := x.from(v, start); k < len(v) && better(v[k]) {
				best = v[k]
			}
		}
		if o.Known() {
			v := x.at[effectIndexKey{kind: kind, core: core, buf: o.buffer()}]
			// Regions of the buffer at other offsets are skipped: few in
			// real code.
			for k := x.from(v, start); k < len(v) && better(v[k]); k++ {
				if x.effects[v[k]].Covers(o) {
					best = v[k]
					break
				}
			}
		}
		if also != nil {
			v := x.at[effectIndexKey{kind: kind, core: core}]
			for k := x.from(v, also.Start); k < len(v) && x.effects[v[k]].At.Start == also.Start && better(v[k]); k++ {
				if x.effects[v[k]].At == also {
					best = v[k]
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
	// nextStop[i] is the first j >= i that is a Dsb, Signal or Wait;
	// len(effects) if none.
	nextStop []int32
	// flags are the scalar stores to known memory written back (Covers)
	// after them before any dsb, in source order; otherBuf[k] and
	// otherKey[k] are the next k' > k whose buffer, and whose buffer or
	// offset, differ from flags[k]'s.
	flags              []int32
	otherBuf, otherKey []int32
}

func (x *EffectIndex) publish(cores grammar.Cores) *publishIndex {
	slot := &x.published[cores&(grammar.AIC|grammar.AIV)]
	slot.once.Do(func() { slot.p = newPublishIndex(x.effects, cores) })
	return slot.p
}

// writtenBack is the write-backs of a stretch of a function up to a dsb,
// as Covers asks about them.
type writtenBack struct {
	all  bool
	bufs map[Origin]*bufferWriteBacks
}

type bufferWriteBacks struct {
	base bool // one at the buffer's base or an unknown offset: covers every region
	offs map[int64]bool
}

func (w *writtenBack) add(e Effect) {
	if e.All {
		w.all = true
	}
	if !e.Origin.Known() {
		return
	}
	if w.bufs == nil {
		w.bufs = map[Origin]*bufferWriteBacks{}
	}
	b := w.bufs[e.Origin.buffer()]
	if b == nil {
		b = &bufferWriteBacks{offs: map[int64]bool{}}
		w.bufs[e.Origin.buffer()] = b
	}
	b.base = b.base || e.Origin.Off == 0 || e.Origin.OffUnknown
	b.offs[e.Origin.Off] = true
}

// covers reports whether one of the write-backs covers p (Effect.Covers).
func (w *writtenBack) covers(p Origin) bool {
	if w.all {
		return true
	}
	b := w.bufs[p.buffer()]
	return p.Known() && b != nil && (b.base || p.OffUnknown || b.offs[p.Off])
}

func newPublishIndex(effects []Effect, cores grammar.Cores) *publishIndex {
	n := len(effects)
	p := &publishIndex{nextStop: make([]int32, n+1)}
	p.nextStop[n] = int32(n)
	flag := make([]bool, n)
	// From the last effect back: the write-backs between each point and
	// the next dsb.
	var wb writtenBack
	for i := n - 1; i >= 0; i-- {
		e := effects[i]
		p.nextStop[i] = p.nextStop[i+1]
		if e.Cores&cores == grammar.None {
			continue
		}
		switch e.Kind {
		case ScalarWrite:
			flag[i] = e.Origin.Known() && wb.covers(e.Origin)
		case WriteBack:
			wb.add(e)
		case Dsb:
			wb = writtenBack{}
			p.nextStop[i] = int32(i)
		case Signal, Wait:
			p.nextStop[i] = int32(i)
		}
	}
	for i, ok := range flag {
		if ok {
			p.flags = append(p.flags, int32(i))
		}
	}
	p.otherBuf = make([]int32, len(p.flags))
	p.otherKey = make([]int32, len(p.flags))
	for k := len(p.flags) - 1; k >= 0; k-- {
		p.otherBuf[k], p.otherKey[k] = int32(len(p.flags)), int32(len(p.flags))
		if k+1 < len(p.flags) {
			o, next := effects[p.flags[k]].Origin, effects[p.flags[k+1]].Origin
			p.otherBuf[k], p.otherKey[k] = int32(k+1), int32(k+1)
			if next.buffer() == o.buffer() {
				p.otherBuf[k] = p.otherBuf[k+1]
				if next == o {
					p.otherKey[k] = p.otherKey[k+1]
				}
			}
		}
	}
	return p
}

// AfterWriteBack returns what follows the write-back Effects()[wb] of
// memory o on cores before any dsb: the position of the first cross-core
// signal or wait, or store to other memory that is itself written back
// before a dsb (a flag a consumer polls, which can land first). It returns
// -1 and dsb set when a dsb comes first, -1 alone when nothing follows.
func (x *EffectIndex) AfterWriteBack(wb int, o Origin, cores grammar.Cores) (next int, dsb bool) {
	p := x.publish(cores)
	stop := p.nextStop[wb+1]
	k := sort.Search(len(p.flags), func(k int) bool { return int(p.flags[k]) > wb })
	for k < len(p.flags) && p.flags[k] < stop {
		e := x.effects[p.flags[k]]
		if !e.Origin.SameRegion(o) {
			return int(p.flags[k]), false
		}
		// Same region: so are the stores with its key, and with o's
		// offset unknown, every store to the buffer.
		if o.OffUnknown {
			k = int(p.otherBuf[k])
		} else {
			k = int(p.otherKey[k])
		}
	}
	if int(stop) == len(x.effects) {
		return -1, false
	}
	if x.effects[stop].Kind == Dsb {
		return -1, true
	}
	return int(stop), false
}

// NextStop returns the position of the first dsb, cross-core signal or
// wait on cores after position i, or len(Effects()) when none follows.
func (x *EffectIndex) NextStop(i int, cores grammar.Cores) int {
	return int(x.publish(cores).nextStop[i+1])
}
