package rules

import "github.com/extern-lsp/extern-lsp/grammar"

// shortWalk is the most ancestors upwardDirect steps through.
const shortWalk = 48

// upwardDirect answers what grammar.NewUpward(stop, step).Of(n) would,
// without a memo, when n is fewer than shortWalk levels below stop (or
// the root); ok is false when it is deeper. A rule that asks one question
// per return, each about a different barrier call, made a memo per call
// for a walk of a few levels; a memo pays for itself only on deep nests
// (an else-if chain), whose questions would each walk the whole chain.
func upwardDirect[T comparable](n, stop *grammar.Node, step func(p, child *grammar.Node, above T) T) (v T, ok bool) {
	var path [shortWalk]*grammar.Node
	k := 0
	for ; n != nil && n != stop; n = n.Parent() {
		if k == len(path) {
			return v, false
		}
		path[k] = n
		k++
	}
	// The topmost node's parent is stop or the root's nil: its value is
	// the zero value, and each node below steps from its parent's.
	for i := k - 2; i >= 0; i-- {
		v = step(path[i+1], path[i], v)
	}
	return v, true
}

// shallowUpward answers grammar.Upward's questions by walking up when the
// node is near its stop (upwardDirect), and through a memo made at the
// first deeper question: a rule asking about every read or call of a
// large shallow function kept a byte per node of it for each question
// kind, where a walk of a few levels answers.
type shallowUpward[T comparable] struct {
	stop *grammar.Node
	step func(p, child *grammar.Node, above T) T
	memo *grammar.Upward[T]
}

func newShallowUpward[T comparable](stop *grammar.Node, step func(p, child *grammar.Node, above T) T) *shallowUpward[T] {
	return &shallowUpward[T]{stop: stop, step: step}
}

// Of returns what grammar.NewUpward(stop, step).Of(n) would.
func (u *shallowUpward[T]) Of(n *grammar.Node) T {
	if u.memo == nil {
		if v, ok := upwardDirect(n, u.stop, u.step); ok {
			return v
		}
		u.memo = grammar.NewUpward(u.stop, u.step)
	}
	return u.memo.Of(n)
}
