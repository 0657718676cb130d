package grammar

// Upward memoizes a value that a node inherits from its ancestors up to a
// stop node: v(n) = step(p, n, v(p)) for n's parent p when p is not the
// stop node, and the zero value for the stop node, its children and the
// root (p nil). A question asked per statement that
// walks up to its function costs the statement's depth, and that depth is
// the length of the chain in an else-if chain: quadratic in the chain.
// With the memo each node is stepped once however many questions pass it.
// Not safe for concurrent use.
//
// The memo numbers the distinct values (most nodes of a chain inherit the
// same one) and keeps a value number per node: in a map while few nodes
// are known, then in an array over the stop node's subtree (the tree,
// without one) once that is smaller. A map from node to value was the
// largest working set of a rule on an else-if chain; an array from the
// start would cost the function's size for every memo of a rule that
// makes one per call.
type Upward[T comparable] struct {
	stop *Node
	step func(p, child *Node, above T) T
	// The range of nodes an array covers: size nodes of tree from base.
	tree *Tree
	base int32
	size int
	// ids[i] numbers the value of node base+i (0: not known), once made;
	// other holds the other nodes'.
	ids   []int32
	other map[*Node]int32
	// vals are the distinct values, numbered from 1 by valID.
	vals  []T
	valID map[T]int32
	path  []*Node
}

// NewUpward returns a memo of step up to (not including) stop.
func NewUpward[T comparable](stop *Node, step func(p, child *Node, above T) T) *Upward[T] {
	return &Upward[T]{stop: stop, step: step, valID: map[T]int32{}, other: map[*Node]int32{}}
}

// cover sets the range an array would cover on first use: stop's
// subtree, or the tree of the first node asked when there is no stop.
func (u *Upward[T]) cover(n *Node) {
	if u.tree != nil {
		return
	}
	if u.stop != nil {
		u.tree, u.base, u.size = u.stop.tree(), u.stop.index, int(u.stop.last-u.stop.index+1)
		return
	}
	u.tree, u.base, u.size = n.tree(), 0, len(n.tree().Nodes)
}

// at returns the position of n in the array, or -1 when n is outside it
// or there is no array yet.
func (u *Upward[T]) at(n *Node) int {
	if i := int(n.index - u.base); u.ids != nil && n.tree() == u.tree && i >= 0 && i < len(u.ids) {
		return i
	}
	return -1
}

func (u *Upward[T]) known(n *Node) (T, bool) {
	var id int32
	if i := u.at(n); i >= 0 {
		id = u.ids[i]
	} else {
		id = u.other[n]
	}
	if id == 0 {
		var zero T
		return zero, false
	}
	return u.vals[id-1], true
}

func (u *Upward[T]) keep(n *Node, v T) {
	id, ok := u.valID[v]
	if !ok {
		u.vals = append(u.vals, v)
		id = int32(len(u.vals))
		u.valID[v] = id
	}
	if i := u.at(n); i >= 0 {
		u.ids[i] = id
		return
	}
	u.other[n] = id
	// A map entry costs about four array slots: past a quarter of the
	// range, the array is smaller.
	if u.ids == nil && len(u.other)*4 > u.size {
		u.ids = make([]int32, u.size)
		for m, id := range u.other {
			if i := u.at(m); i >= 0 {
				u.ids[i] = id
				delete(u.other, m)
			}
		}
		// The map's room stays after its entries go: start a new one.
		other := make(map[*Node]int32, len(u.other))
		for m, id := range u.other {
			other[m] = id
		}
		u.other = other
	}
}

// Of returns v(n).
func (u *Upward[T]) Of(n *Node) T {
	var above T
	if n == nil {
		return above
	}
	u.cover(n)
	path := u.path[:0]
	for ; n != nil && n != u.stop; n = n.Parent() {
		if v, ok := u.known(n); ok {
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
		u.keep(c, above)
	}
	u.path = path[:0]
	return above
}
