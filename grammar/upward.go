package grammar

// Upward memoizes a value that a node inherits from its ancestors up to a
// stop node: v(n) = step(p, n, v(p)) for n's parent p when p is not the
// stop node, and the zero value for the stop node, its children and the
// root (p nil). A question asked per statement that
// walks up to its function costs the statement's depth, and that depth is
// the length of the chain in an else-if chain: quadratic in the chain.
// With the memo each node is stepped once however many questions pass it.
// Not safe for concurrent use.
type Upward[T any] struct {
	stop *Node
	step func(p, child *Node, above T) T
	memo map[*Node]T
	path []*Node
}

// NewUpward returns a memo of step up to (not including) stop.
func NewUpward[T any](stop *Node, step func(p, child *Node, above T) T) *Upward[T] {
	return &Upward[T]{stop: stop, step: step, memo: map[*Node]T{}}
}

// Of returns v(n).
func (u *Upward[T]) Of(n *Node) T {
	var above T
	path := u.path[:0]
	for ; n != nil && n != u.stop; n = n.Parent() {
		if v, ok := u.memo[n]; ok {
			above = v
			break
		}
		path = append(path, n)
	}
	for i := len(path) - 1; i >= 0; i-- {
		c := path[i]
		if p := c.Parent(); p != nil && p != u.stop {
			above = u.step(p, c, above)
		} else {
			var zero T
			above = zero
		}
		u.memo[c] = above
	}
	u.path = path[:0]
	return above
}
