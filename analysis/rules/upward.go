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
