package cxx

import (
	"sort"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// EffectIndex answers "does this kind of effect happen in this stretch of
// the function" over one function's effects in logarithmic time, where a
// scan of the effects per question makes a rule quadratic in the size of
// the function (a question per statement, each over every effect).
type EffectIndex struct {
	at map[effectIndexKey][]uint32
}

type effectIndexKey struct {
	kind EffectKind
	core grammar.Cores // one core bit
	buf  Origin        // the buffer (no offsets); NoOrigin indexes every effect of the kind
}

// NewEffectIndex indexes effects (one function's, as Effects returns them)
// by kind, core and buffer.
func NewEffectIndex(effects []Effect) *EffectIndex {
	x := &EffectIndex{at: map[effectIndexKey][]uint32{}}
	for _, e := range effects {
		for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
			if e.Cores&core == 0 {
				continue
			}
			k := effectIndexKey{kind: e.Kind, core: core}
			x.at[k] = append(x.at[k], e.At.Start)
			if e.Origin.Known() {
				k.buf = e.Origin.buffer()
				x.at[k] = append(x.at[k], e.At.Start)
			}
		}
	}
	for _, v := range x.at {
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	}
	return x
}

// buffer is the origin without its offsets: what Same compares.
func (o Origin) buffer() Origin {
	o.Off, o.OffUnknown, o.idx = 0, false, 0
	return o
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
		i := sort.Search(len(v), func(i int) bool { return v[i] >= start })
		if i < len(v) && v[i] < end {
			return true
		}
	}
	return false
}
