package grammar

import "encoding/binary"

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
	// ids numbers the value of node base+i (0: not known) in its i-th
	// slot of width bytes, once made; other holds the other nodes'. The
	// slots are as narrow as the count of values allows (a byte for the
	// few values of most questions), widened when it grows.
	ids   []byte
	width int
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
		u.tree, u.base, u.size = u.stop.tree(), u.stop.index(), int(u.stop.last()-u.stop.index()+1)
		return
	}
	u.tree, u.base, u.size = n.tree(), 0, len(n.tree().Nodes)
}

// at returns the position of n in the array, or -1 when n is outside it
// or there is no array yet.
func (u *Upward[T]) at(n *Node) int {
	// i < size, not len(ids): slots wider than a byte make ids longer.
	if i := int(n.index() - u.base); u.ids != nil && n.tree() == u.tree && i >= 0 && i < u.size {
		return i
	}
	return -1
}

// id returns the value number in slot i of the array.
func (u *Upward[T]) id(i int) int32 {
	switch u.width {
	case 1:
		return int32(u.ids[i])
	case 2:
		return int32(u.ids[2*i]) | int32(u.ids[2*i+1])<<8
	}
	return int32(binary.LittleEndian.Uint32(u.ids[4*i:]))
}

// setID numbers slot i's value id, widening the slots when id needs it.
func (u *Upward[T]) setID(i int, id int32) {
	if id >= 1<<(8*u.width) && u.width < 4 {
		w := 2 * u.width
		if id >= 1<<16 {
			w = 4
		}
		wider := make([]byte, w*u.size)
		for j := range u.size {
			v := uint32(u.id(j))
			for b := range w {
				wider[w*j+b] = byte(v >> (8 * b))
			}
		}
		u.ids, u.width = wider, w
	}
	switch u.width {
	case 1:
		u.ids[i] = byte(id)
	case 2:
		u.ids[2*i], u.ids[2*i+1] = byte(id), byte(id>>8)
	default:
		binary.LittleEndian.PutUint32(u.ids[4*i:], uint32(id))
	}
}

// known returns the value number of n, 0 if not known.
func (u *Upward[T]) known(n *Node) int32 {
	if i := u.at(n); i >= 0 {
		return u.id(i)
	}
	return u.other[n]
}

// keep records that n's value is v, numbered id when v is its parent's
// value (no need to look it up), or 0, and returns v's number.
func (u *Upward[T]) keep(n *Node, v T, id int32) int32 {
	if id == 0 {
		var ok bool
		if id, ok = u.valID[v]; !ok {
			u.vals = append(u.vals, v)
			id = int32(len(u.vals))
			u.valID[v] = id
		}
	}
	if i := u.at(n); i >= 0 {
		u.setID(i, id)
		return id
	}
	u.other[n] = id
	// A map entry costs about sixteen byte slots: past a sixteenth of
	// the range, the array is smaller.
	if u.ids == nil && len(u.other)*16 > u.size {
		u.width = 1
		u.ids = make([]byte, u.size)
		for m, id := range u.other {
			if i := u.at(m); i >= 0 {
				u.setID(i, id)
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
	return id
}

// Of returns v(n).
func (u *Upward[T]) Of(n *Node) T {
	var above T
	if n == nil {
		return above
	}
	u.cover(n)
	var id int32 // above's number, 0 for the zero value
	path := u.path[:0]
	for ; n != nil && n != u.stop; n = n.Parent() {
		if id = u.known(n); id != 0 {
			above = u.vals[id-1]
			break
		}
		path = append(path, n)
	}
	for i := len(path) - 1; i >= 0; i-- {
		c := path[i]
		if p := c.Parent(); p != nil && p != u.stop {
			// Most steps hand their parent's value down: its number
			// stays, without hashing the value.
			if v := u.step(p, c, above); v != above || id == 0 {
				above, id = v, 0
			}
		} else {
			var zero T
			above, id = zero, 0
		}
		id = u.keep(c, above, id)
	}
	u.path = path[:0]
	return above
}
