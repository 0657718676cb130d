package grammar

/*
#include <stddef.h>
#ifdef _WIN32
#include <windows.h>
static void *seg_map(size_t n) { return VirtualAlloc(NULL, n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE); }
static void seg_unmap(void *p, size_t n) { VirtualFree(p, 0, MEM_RELEASE); }
#else
#include <sys/mman.h>
static void *seg_map(size_t n) {
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}
static void seg_unmap(void *p, size_t n) { munmap(p, n); }
#endif
*/
import "C"

import (
	"errors"
	"unsafe"
)

// nodeStore gathers the nodes of a source parsed in pieces, whose count is
// known only at the end, in segments mapped outside the Go heap: the final
// array is allocated once at its exact size and each segment is unmapped
// as soon as it is copied, so the nodes are never held twice (growing one
// Go array by append holds two copies at each growth, and its unused room
// is live heap the collector paces on) and a mapped page never written is
// never resident. The segments hold no Go pointers (flatten leaves the
// tree pointer nil).
type nodeStore struct {
	segs []nodeSegment
	n    int // nodes written
}

// nodeSegment is one mapping: nodes [base, base+len(nodes)) of the store.
type nodeSegment struct {
	mem   unsafe.Pointer
	base  int
	nodes []Node // len: written; cap: mapped
}

// segmentNodes is the smallest segment, in nodes (1.3 MB of them): about the
// nodes of a few pieces.
const segmentNodes = 1 << 16

// errNoRoom is a parse given up because the nodes found no memory.
var errNoRoom = errors.New("grammar: no memory for the nodes")

// room returns at least need free nodes after the last written one, in one
// segment (a piece is flattened in one call). It fails when mapping fails
// or when need more nodes would pass maxNodes: need bounds what the caller
// writes, so no index written passes it.
func (s *nodeStore) room(need int) ([]Node, error) {
	if need > maxNodes-s.n {
		return nil, errTooManyNodes
	}
	if k := len(s.segs); k > 0 {
		if g := &s.segs[k-1]; cap(g.nodes)-len(g.nodes) >= need {
			return g.nodes[len(g.nodes):cap(g.nodes)], nil
		}
	}
	c := max(need, segmentNodes)
	mem := C.seg_map(C.size_t(c * nodeSize))
	if mem == nil {
		return nil, errNoRoom
	}
	s.segs = append(s.segs, nodeSegment{mem: mem, base: s.n, nodes: unsafe.Slice((*Node)(mem), c)[:0]})
	g := &s.segs[len(s.segs)-1]
	return g.nodes[:cap(g.nodes)], nil
}

// commit counts n nodes written at the start of the last room.
func (s *nodeStore) commit(n int) {
	g := &s.segs[len(s.segs)-1]
	g.nodes = g.nodes[:len(g.nodes)+n]
	s.n += n
}

// at is node i.
func (s *nodeStore) at(i int) *Node {
	for k := len(s.segs) - 1; ; k-- {
		if g := &s.segs[k]; i >= g.base {
			return &g.nodes[i-g.base]
		}
	}
}

// truncate drops the nodes from index n on.
func (s *nodeStore) truncate(n int) {
	for k := len(s.segs) - 1; k >= 0 && s.n > n; k-- {
		g := &s.segs[k]
		if g.base >= n && k > 0 {
			s.unmap(g)
			s.segs = s.segs[:k]
			s.n = g.base
			continue
		}
		g.nodes = g.nodes[:n-g.base]
		s.n = n
	}
}

// cut moves the nodes from index from on out of the store into a Go
// slice (few: the nodes of a span after its huge statement, see
// parseSpan).
func (s *nodeStore) cut(from int) []Node {
	out := make([]Node, s.n-from)
	for k := range s.segs {
		g := &s.segs[k]
		if lo, hi := max(from, g.base), g.base+len(g.nodes); lo < hi {
			copy(out[lo-from:], g.nodes[lo-g.base:])
		}
	}
	s.truncate(from)
	return out
}

// put appends nodes cut from index from, delta nodes having been written
// in their place: their indexes move by delta, and their parents' when
// among them. It fails as room does.
func (s *nodeStore) put(nodes []Node, from, delta int) error {
	if len(nodes) == 0 {
		return nil
	}
	room, err := s.room(len(nodes))
	if err != nil {
		return err
	}
	copy(room, nodes)
	d := int32(delta)
	for i := range nodes {
		n := &room[i]
		p := n.parent()
		if p >= int32(from) {
			p += d
		}
		n.setLinks(n.index()+d, n.last()+d, p)
	}
	s.commit(len(nodes))
	return nil
}

// settle makes the nodes from index from on end, and end their subtrees,
// where their children do (when children were inserted after them, see
// parseSpan): tree-sitter's parents contain their children.
func (s *nodeStore) settle(from int) {
	for k := len(s.segs) - 1; k >= 0; k-- {
		g := &s.segs[k]
		for j := len(g.nodes) - 1; j >= 0 && g.base+j > from; j-- {
			n := &g.nodes[j]
			p := int(n.parent())
			if p < from {
				continue
			}
			var pn *Node
			if p >= g.base {
				pn = &g.nodes[p-g.base]
			} else {
				pn = s.at(p)
			}
			pn.setLast(max(pn.last(), n.last()))
			pn.End = max(pn.End, n.End)
		}
		if g.base <= from {
			break
		}
	}
}

// finish moves the nodes into t's array of their exact count (newNodes),
// unmapping each segment once copied.
func (s *nodeStore) finish(t *Tree) []Node {
	out := newNodes(t, s.n)
	for k := range s.segs {
		g := &s.segs[k]
		copy(out[g.base:], g.nodes)
		s.unmap(g)
	}
	s.segs, s.n = nil, 0
	return out
}

// free unmaps every segment (a parse given up).
func (s *nodeStore) free() {
	for k := range s.segs {
		s.unmap(&s.segs[k])
	}
	s.segs, s.n = nil, 0
}

func (s *nodeStore) unmap(g *nodeSegment) {
	if g.mem != nil {
		C.seg_unmap(g.mem, C.size_t(cap(g.nodes)*nodeSize))
		g.mem, g.nodes = nil, nil
	}
}
