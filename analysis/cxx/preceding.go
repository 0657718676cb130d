package cxx

import (
	"sort"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Preceding says which of a function's effects (its Index's) can run before
// one node of its body (Precedes): those that start before the node and do
// not contain it, except the stretches of effects in a branch the node's
// branch does not follow (an if's consequence for its alternative, a
// switch's condition for its body).
type Preceding struct {
	node *grammar.Node
	// end: the effects at positions below end start before the node.
	end int
	// hidden are the stretches [lo, hi) of positions that do not precede
	// it, in source order and disjoint.
	hidden [][2]int32
}

// hiddenAt returns the start of the hidden stretch holding position i, or -1.
func (p *Preceding) hiddenAt(i int) int {
	k := sort.Search(len(p.hidden), func(k int) bool { return int(p.hidden[k][1]) > i })
	if k < len(p.hidden) && int(p.hidden[k][0]) <= i {
		return int(p.hidden[k][0])
	}
	return -1
}

// PrecedingAt computes Preceding for nodes of fn's body in one walk of it:
// the hidden stretches are pushed when the walk enters a branch the previous
// one does not precede and popped after the statement, adjacent ones
// joined. A test of every effect per node, each walking up the tree
// (Precedes), is quadratic in the size of the function and cubic in an
// else-if chain.
func (s *Summaries) PrecedingAt(fn *grammar.Node, nodes []*grammar.Node) []Preceding {
	s.mu.Lock()
	effects := s.effectsOf(fn)
	s.mu.Unlock()
	out := make([]Preceding, len(nodes))
	startAt := func(pos uint32) int32 { return int32(effects.startAt(pos)) }
	byNode := map[int][]int{}
	for i, n := range nodes {
		out[i] = Preceding{node: n, end: int(startAt(n.Start))}
		byNode[n.Index()] = append(byNode[n.Index()], i)
	}
	body := fn.ChildByField("body")
	if body == nil {
		return out
	}
	type frame struct {
		n    *grammar.Node
		last int // index of the last node of n's subtree
		// pushed: a stretch was pushed at one of n's children (joined:
		// by extending the previous one, which ended at prevHi).
		pushed, joined bool
		prevHi         int32
	}
	var hidden [][2]int32
	var stack []frame
	hide := func(f *frame, lo, hi int32) {
		if lo >= hi {
			return
		}
		f.pushed = true
		if l := len(hidden); l > 0 && hidden[l-1][1] == lo {
			f.joined, f.prevHi = true, hidden[l-1][1]
			hidden[l-1][1] = hi
			return
		}
		hidden = append(hidden, [2]int32{lo, hi})
	}
	nodesOf := body.Descendants()
	for k := range nodesOf {
		n := &nodesOf[k]
		for len(stack) > 0 && stack[len(stack)-1].last < n.Index() {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch {
			case f.joined:
				hidden[len(hidden)-1][1] = f.prevHi
			case f.pushed:
				hidden = hidden[:len(hidden)-1]
			}
		}
		if len(stack) > 0 {
			p := &stack[len(stack)-1]
			switch p.n.Kind() {
			case "if_statement", "conditional_expression":
				if n.Field() == "alternative" {
					if cons := p.n.ChildByField("consequence"); cons != nil {
						hide(p, startAt(cons.Start), startAt(cons.End))
					}
				}
			case "switch_statement":
				if n.Field() == "body" {
					hide(p, startAt(p.n.Start), startAt(n.Start))
				}
			}
		}
		for _, i := range byNode[n.Index()] {
			out[i].hidden = append([][2]int32(nil), hidden...)
		}
		stack = append(stack, frame{n: n, last: n.Index() + len(n.Descendants()) - 1})
	}
	return out
}

// EachBefore calls visit with the positions of the effects of the kinds on
// one of cores that precede p's node and concern memory o, last first,
// until visit returns false: an Invalidate or WriteBack that covers it
// (Effect.Covers), a DMAWrite or ScalarWrite to the same region
// (Origin.SameRegion), any Wait, Signal or Dsb.
func (x *EffectIndex) EachBefore(p Preceding, o Origin, cores grammar.Cores, visit func(i int) bool, kinds ...EffectKind) {
	x.eachBack(o, cores, p.end, p.hiddenAt, func(i int) bool {
		return x.effects.at(i).Contains(p.node) || visit(i)
	}, kinds)
}

// EachIn is EachBefore for the effects starting in [start, end).
func (x *EffectIndex) EachIn(o Origin, cores grammar.Cores, start, end uint32, visit func(i int) bool, kinds ...EffectKind) {
	to := x.effects.startAt(end)
	x.eachBack(o, cores, to, func(int) int { return -1 }, func(i int) bool {
		return x.effects.at(i).Start >= start && visit(i)
	}, kinds)
}

// eachBack merges, last first, the index's lists of the kinds below
// position end, jumping over the stretches hiddenAt reports (their start,
// or -1), and visits the effects that concern o until visit returns false.
func (x *EffectIndex) eachBack(o Origin, cores grammar.Cores, end int, hiddenAt func(int) int, visit func(i int) bool, kinds []EffectKind) {
	type list struct {
		v    positions
		kind EffectKind
		at   int
	}
	// On the stack while they are few (a question asks a few kinds on
	// one or two cores masks): a rule asks one per access, and the lists
	// on the heap were the most bytes allocated over an index.
	var stack [16]list
	lists := stack[:0]
	add := func(v positions, kind EffectKind) {
		// An empty list never yields.
		if v.len() > 0 {
			lists = append(lists, list{v: v, kind: kind})
		}
	}
	for _, kind := range kinds {
		for _, core := range coreMasks {
			if cores&core == 0 {
				continue
			}
			switch kind {
			case Invalidate, WriteBack:
				add(x.kindList(kind, core, true), kind)
				if o.Known() {
					add(x.bufList(kind, core, o), kind)
				}
			case DMAWrite, ScalarWrite:
				if o.Known() {
					add(x.bufList(kind, core, o), kind)
				}
			default:
				add(x.kindList(kind, core, false), kind)
			}
		}
	}
	// below returns the last k of v with v[k] < end.
	below := func(v positions, end int) int { return v.search(int32(end)) - 1 }
	for l := range lists {
		lists[l].at = below(lists[l].v, end)
	}
	last := -1
	for {
		best := -1
		for l, li := range lists {
			if li.at >= 0 && (best < 0 || li.v.at(li.at) > lists[best].v.at(lists[best].at)) {
				best = l
			}
		}
		if best < 0 {
			return
		}
		i := int(lists[best].v.at(lists[best].at))
		if lo := hiddenAt(i); lo >= 0 {
			for l := range lists {
				if li := &lists[l]; li.at >= 0 && int(li.v.at(li.at)) >= lo {
					li.at = below(li.v, lo)
				}
			}
			continue
		}
		lists[best].at--
		if i == last {
			continue
		}
		e := x.effects.fact(i)
		switch lists[best].kind {
		case Invalidate, WriteBack:
			if !e.covers(o) {
				continue
			}
		case DMAWrite, ScalarWrite:
			if !e.origin.value().SameRegion(o) {
				continue
			}
		}
		last = i
		if !visit(i) {
			return
		}
	}
}
