// Package grammar parses AscendC C++ and Python sources with tree-sitter and
// hands the rest of extern-lsp a Go-side copy of each tree, the masked
// qualifier spans and the preprocessor core-type guards.
package grammar

import (
	"context"
	"errors"
	"math/bits"
	"reflect"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/python"
)

// Lang is a source language extern-lsp parses.
type Lang int

const (
	CPP Lang = iota
	Python
)

func (l Lang) String() string {
	if l == Python {
		return "python"
	}
	return "cpp"
}

type langInfo struct {
	once  sync.Once
	lang  *sitter.Language
	names *names
}

var langs = [...]*langInfo{CPP: {}, Python: {}}

// langNames is each language's names, by Lang.
var langNames [2]*names

// kindNames and fieldNames are both languages' kinds and fields, by the
// bits of a node that Kind and Field read: a kind or field number after
// the node's Python bit. A node's kind and field are read without
// reaching its tree. Set before the language's first parse.
var (
	kindNames  [2 << kindBits]string
	fieldNames [2 << fieldBits]string
)

func (l Lang) info() *langInfo {
	li := langs[l]
	li.once.Do(func() {
		if l == Python {
			li.lang = python.GetLanguage()
		} else {
			li.lang = cpp.GetLanguage()
		}
		li.names = newNames(li.lang, l == CPP)
		langNames[l] = li.names
		copy(kindNames[int(l)<<kindBits:], li.names.symbols)
		copy(fieldNames[int(l)<<fieldBits:], li.names.fields)
	})
	return li
}

// A node's flags (see Node.flags).
const (
	flagPython  = 1 // the node's names are Python's
	flagNamed   = 2
	flagMissing = 4
	flagError   = 8
)

// Node is one syntax node in a Tree. Positions are byte offsets into the
// source; rows and byte columns (0-based, tree-sitter points) are computed
// from the tree's line index on demand. A node is 20 bytes: a file of a few
// MB has millions of them, and its nodes are the largest object of a check.
//
// A node holds no pointer: its tree's nodes are one array preceded, in
// the same allocation, by the tree's pointer (see newNodes), so a node
// reaches its relatives and its tree by its index, and a *Node keeps its
// tree alive. A node is therefore only valid in place: never copy one
// (go vet reports copies, see noCopy) but take its address in the tree.
type Node struct {
	_     noCopy
	Start uint32
	End   uint32

	// The links take 25 bits each (see maxNodes), the symbol 10 and the
	// field 6, in three words:
	//   lo: index (the node's preorder index), the kind's low 7 bits;
	//   hi: the kind's high 3 bits, the flags, size (last-index: last is
	//       the subtree's last node);
	//   up: dist (index-parent, 0 at the root), the field, the Python flag.
	// Each link is one load and a mask or shift, and the relative ones
	// make the walks (Parent, FirstChild, NextSibling, Walk) an add, with
	// no need of the node's index. The Python flag follows the kind bits
	// and the field: Kind and Field index one table of both languages.
	// flatten.go's C walk writes the same.
	lo, hi, up uint32
}

// The packing of a node's words.
const (
	indexBits  = 25
	indexMask  = 1<<indexBits - 1
	kindLow    = 32 - indexBits // kind bits in lo
	kindBits   = 10
	flagsShift = kindBits - kindLow // in hi
	sizeShift  = 32 - indexBits     // in hi
	fieldShift = indexBits          // in up
	fieldBits  = 32 - indexBits - 1
	pythonUp   = 1 << 31 // flagPython in up
)

// maxNodes is the most nodes a tree may have: its links must fit
// indexBits. A parse past it fails (errTooManyNodes); a variable so the
// tests can reach it.
var maxNodes = 1 << indexBits

// errTooManyNodes is a parse given up because its tree would have more
// nodes than a node's links can number.
var errTooManyNodes = errors.New("grammar: the syntax tree has too many nodes (source too large)")

func (n *Node) index() int32 { return int32(n.lo & indexMask) }
func (n *Node) size() int32  { return int32(n.hi >> sizeShift) }
func (n *Node) dist() int32  { return int32(n.up & indexMask) }
func (n *Node) kind() uint16 { return uint16(n.lo>>indexBits|n.hi<<kindLow) & (1<<kindBits - 1) }
func (n *Node) flags() uint8 { return uint8(n.hi>>flagsShift) & 0xf }
func (n *Node) field() uint8 { return uint8(n.up>>fieldShift) & (1<<fieldBits - 1) }

// last is the index of the subtree's last node.
func (n *Node) last() int32 { return n.index() + n.size() }

// parent is the parent's index, -1 at the root.
func (n *Node) parent() int32 {
	if d := n.dist(); d > 0 {
		return n.index() - d
	}
	return -1
}

// setLinks sets the node's index, last and parent (-1 at the root).
func (n *Node) setLinks(index, last, parent int32) {
	d := uint32(0)
	if parent >= 0 {
		d = uint32(index-parent) & indexMask
	}
	n.lo = n.lo&^indexMask | uint32(index)&indexMask
	n.hi = n.hi&(1<<sizeShift-1) | uint32(last-index)<<sizeShift
	n.up = n.up&^indexMask | d
}

// setLast sets the index of the subtree's last node.
func (n *Node) setLast(last int32) {
	n.hi = n.hi&(1<<sizeShift-1) | uint32(last-n.index())<<sizeShift
}

// setPython marks the node's names Python's.
func (n *Node) setPython() {
	n.hi |= flagPython << flagsShift
	n.up |= pythonUp
}

// noCopy makes go vet's copylocks check report a Node copied by value (a
// copy is not in its tree's array: its methods would read past it).
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

const nodeSize = int(unsafe.Sizeof(Node{}))

// nodeBlock types, by capacity: struct{ T *Tree; N [capacity]Node }.
var nodeBlocks sync.Map

// nodesOffset is where node 0 lies in a nodeBlock: after the tree pointer.
const nodesOffset = int(unsafe.Sizeof((*Tree)(nil)))

// newNodes allocates the n nodes of t in one block after a pointer to t
// (what tree reads). The capacity is rounded up to 5 significant bits, so
// the block types made are a few hundred at most, each block at most a
// sixteenth larger than its nodes; the nodes hold no pointer, so the
// collector scans the tree pointer alone.
func newNodes(t *Tree, n int) []Node {
	c := n
	if shift := bits.Len(uint(n)) - 5; shift > 0 {
		c = (n + 1<<shift - 1) >> shift << shift
	}
	typ, ok := nodeBlocks.Load(c)
	if !ok {
		typ, _ = nodeBlocks.LoadOrStore(c, reflect.StructOf([]reflect.StructField{
			{Name: "T", Type: reflect.TypeFor[*Tree]()},
			{Name: "N", Type: reflect.ArrayOf(c, reflect.TypeFor[Node]())},
		}))
	}
	block := reflect.New(typ.(reflect.Type)).UnsafePointer()
	*(**Tree)(block) = t
	return unsafe.Slice((*Node)(unsafe.Add(block, nodesOffset)), c)[:n:n]
}

// tree is the node's tree: the pointer before node 0 of its block.
func (n *Node) tree() *Tree {
	return *(**Tree)(unsafe.Add(unsafe.Pointer(n), -int(n.lo&indexMask)*nodeSize-nodesOffset))
}

// root is node 0 of n's tree.
func (n *Node) root() *Node {
	return (*Node)(unsafe.Add(unsafe.Pointer(n), -int(n.lo&indexMask)*nodeSize))
}

// rel is the node d places after n in its tree (before it if d < 0).
func (n *Node) rel(d int32) *Node {
	return (*Node)(unsafe.Add(unsafe.Pointer(n), int(d)*nodeSize))
}

// Tree is a parsed file's nodes in preorder; Nodes[0] is the root. A C++
// tree leaves out the punctuation tokens that hold no field (brackets,
// `;`, `,`, `::`, template angle brackets): operators and keywords stay.
type Tree struct {
	Nodes []Node
	Src   []byte // the original (unmasked) source
	ts    *sitter.Tree
	names *names
	lines *Lines
	funcs funcIndex
	kinds struct {
		mu     sync.Mutex
		lists  map[uint16]keptList // by kind number: OfKind's lists
		asked  map[uint16]bool     // the kinds asked for once, whose list was not kept
		ahead  map[uint16][]*Node  // made in the first walk, not asked for yet
		walked bool                // the first walk was made
	}
}

// funcIndex lists a tree's function definitions and lambdas in preorder,
// each with the position in the list of the one around it (-1): the
// function around a node is found by a binary search, where a walk up the
// parents costs the node's depth (thousands in an else-if chain).
type funcIndex struct {
	once  sync.Once
	nodes []int32
	outer []int32
}

func (t *Tree) funcIndex() *funcIndex {
	x := &t.funcs
	x.once.Do(func() {
		var stack []int32
		for i := range t.Nodes {
			n := &t.Nodes[i]
			if k := n.Kind(); k != "function_definition" && k != "lambda_expression" {
				continue
			}
			for len(stack) > 0 && t.Nodes[x.nodes[stack[len(stack)-1]]].last() < n.index() {
				stack = stack[:len(stack)-1]
			}
			outer := int32(-1)
			if len(stack) > 0 {
				outer = stack[len(stack)-1]
			}
			x.nodes = append(x.nodes, n.index())
			x.outer = append(x.outer, outer)
			stack = append(stack, int32(len(x.nodes)-1))
		}
	})
	return x
}

// EnclosingFunction returns the nearest proper ancestor that is a function
// definition or a lambda, or nil: Ancestor("function_definition",
// "lambda_expression") without the walk up.
func (n *Node) EnclosingFunction() *Node {
	if n == nil {
		return nil
	}
	t := n.tree()
	x := t.funcIndex()
	k := sort.Search(len(x.nodes), func(k int) bool { return x.nodes[k] >= n.index() }) - 1
	for k >= 0 && t.Nodes[x.nodes[k]].last() < n.index() {
		k = int(x.outer[k])
	}
	if k < 0 {
		return nil
	}
	return &t.Nodes[x.nodes[k]]
}

// Root returns the root node.
func (t *Tree) Root() *Node {
	if t == nil || len(t.Nodes) == 0 {
		return nil
	}
	return &t.Nodes[0]
}

// Index is the node's preorder position in its tree.
func (n *Node) Index() int      { return int(n.lo & indexMask) }
func (n *Node) Tree() *Tree     { return n.tree() }
func (n *Node) IsNamed() bool   { return n.hi&(flagNamed<<flagsShift) != 0 }
func (n *Node) IsMissing() bool { return n.hi&(flagMissing<<flagsShift) != 0 }
func (n *Node) IsError() bool   { return n.hi&(flagError<<flagsShift) != 0 }
func (n *Node) Text() string    { return string(n.tree().Src[n.Start:n.End]) }
func (n *Node) Bytes() []byte   { return n.tree().Src[n.Start:n.End] }
func (n *Node) Contains(m *Node) bool {
	return m != nil && m.root() == n.root() && n.Start <= m.Start && m.End <= n.End
}

// Kind is the node's grammar symbol ("call_expression", "ERROR", ...).
func (n *Node) Kind() string {
	if counting.Load() {
		visits.Add(1)
	}
	return kindNames[(n.lo>>indexBits|n.hi<<kindLow)&(2<<kindBits-1)]
}

// counting and visits count the nodes the analyses look at (each Kind,
// Field and Parent asked, each node of an OfKind walk) while a test asks (CountVisits): a
// measure of work that is the same on any machine and sees walks that
// allocate nothing.
var (
	counting atomic.Bool
	visits   atomic.Int64
)

// CountVisits starts counting node visits and returns the function that
// stops and returns the count. For tests: one count at a time.
func CountVisits() (stop func() int64) {
	visits.Store(0)
	counting.Store(true)
	return func() int64 {
		counting.Store(false)
		return visits.Load()
	}
}

// OfKind lists the tree's named nodes of the kind in preorder (source
// order; aliased symbols share their name's list), shared, with no room
// to append: callers must not modify it. A kind's list is kept from its
// second ask on: a file's analyses ask for a few kinds, many of them read
// by one fact's computation, once, and keeping those lists held 0.15 MB
// per MB of source for nothing; a list made again costs a walk of the
// nodes. A kind most trees were asked for again (names.asksAgain) is kept
// from its first ask: an entry's tree was walked 7-9 times, most of them
// for such second asks. The first ask's walk also lists the kinds most trees were asked
// for (names.common), held until asked: a walk per kind was 1.5% of a
// check's CPU.
func (t *Tree) OfKind(kind string) []*Node {
	if t == nil || t.names == nil {
		return nil
	}
	k, ok := t.names.byName[kind]
	if !ok {
		return nil
	}
	x := &t.kinds
	x.mu.Lock()
	defer x.mu.Unlock()
	if l, ok := x.lists[k]; ok {
		if !l.again {
			t.names.again[k].Add(1)
			l.again = true
			x.lists[k] = l
		}
		return l.ns
	}
	first := !x.asked[k]
	if first {
		t.names.note(k, !x.walked)
	} else {
		t.names.again[k].Add(1)
	}
	ns, ok := x.ahead[k]
	if ok {
		delete(x.ahead, k)
	} else {
		want := []uint16{k}
		if !x.walked {
			want = append(want, t.names.common(k)...)
		}
		x.walked = true
		lists := t.walk(want)
		ns = lists[0]
		for i, c := range want[1:] {
			if x.ahead == nil {
				x.ahead = map[uint16][]*Node{}
			}
			x.ahead[c] = lists[i+1]
		}
	}
	if first && !t.names.asksAgain(k) {
		if x.asked == nil {
			x.asked = map[uint16]bool{}
		}
		x.asked[k] = true
		return ns
	}
	if x.lists == nil {
		x.lists = map[uint16]keptList{}
	}
	x.lists[k] = keptList{ns: ns, again: !first}
	return ns
}

// keptList is a kind's list OfKind keeps, and whether the tree was asked
// for it again since it was kept (names.again counts each tree once).
type keptList struct {
	ns    []*Node
	again bool
}

// walk lists the named nodes of each kind in one walk of the nodes.
func (t *Tree) walk(kinds []uint16) [][]*Node {
	if counting.Load() {
		visits.Add(int64(len(t.Nodes)))
	}
	slot := make([]int8, len(t.names.symbols))
	for i := range slot {
		slot[i] = -1
	}
	for i, k := range kinds {
		slot[k] = int8(i)
	}
	lists := make([][]*Node, len(kinds))
	for i := range t.Nodes {
		if n := &t.Nodes[i]; n.flags()&flagNamed != 0 {
			if j := slot[t.names.kind[n.kind()]]; j >= 0 {
				lists[j] = append(lists[j], n)
			}
		}
	}
	for i := range lists {
		lists[i] = slices.Clip(lists[i])
	}
	return lists
}

// Field is the node's field name in its parent ("" when none).
func (n *Node) Field() string {
	if counting.Load() {
		visits.Add(1)
	}
	return fieldNames[n.up>>fieldShift]
}

// StartRow and the other point accessors give 0-based rows and byte
// columns, as tree-sitter's points.
func (n *Node) StartRow() uint32 { r, _ := n.tree().lines.Position(n.Start); return uint32(r) }
func (n *Node) StartCol() uint32 { _, c := n.tree().lines.Position(n.Start); return uint32(c) }
func (n *Node) EndRow() uint32   { r, _ := n.tree().lines.Position(n.End); return uint32(r) }

// Parent returns the parent node or nil at the root.
func (n *Node) Parent() *Node {
	if counting.Load() {
		visits.Add(1)
	}
	if n == nil || n.up&indexMask == 0 {
		return nil
	}
	return n.rel(-n.dist())
}

// FirstChild returns the first child (named or not) or nil.
func (n *Node) FirstChild() *Node {
	if n == nil || n.size() == 0 {
		return nil
	}
	// Children follow their parent immediately in preorder.
	return n.rel(1)
}

// NextSibling returns the next sibling (named or not) or nil.
func (n *Node) NextSibling() *Node {
	if n == nil || n.up&indexMask == 0 { // the root
		return nil
	}
	// n's subtree ends before its parent's: n's size plus its distance
	// to the parent is less than the parent's size.
	d, s := n.dist(), n.size()
	if s+d >= n.rel(-d).size() {
		return nil
	}
	// The next sibling starts right after this node's subtree.
	return n.rel(s + 1)
}

// PrevSibling returns the previous sibling or nil: the ancestor, below
// n's parent, of the node before n in preorder (the last of the previous
// sibling's subtree, a closing brace or semicolon a few levels down). A
// walk over the siblings before n, asked for each of thousands of
// functions of a file, was quadratic (77% of a 2 MB file of helpers).
func (n *Node) PrevSibling() *Node {
	p := n.Parent()
	if p == nil || n.index() == p.index()+1 {
		return nil
	}
	m := n.rel(-1)
	for m != nil && m.Parent() != p {
		m = m.Parent()
	}
	return m
}

// Children returns all children, named and anonymous.
func (n *Node) Children() []*Node {
	var out []*Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, c)
	}
	return out
}

// NamedChildren returns the named children.
func (n *Node) NamedChildren() []*Node {
	var out []*Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.IsNamed() {
			out = append(out, c)
		}
	}
	return out
}

// ChildByField returns the first child in the given field, or nil.
func (n *Node) ChildByField(field string) *Node {
	if n == nil {
		return nil
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Field() == field {
			return c
		}
	}
	return nil
}

// ChildrenByField returns every child in the given field.
func (n *Node) ChildrenByField(field string) []*Node {
	var out []*Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Field() == field {
			out = append(out, c)
		}
	}
	return out
}

// ChildOfKind returns the first child of the given kind, or nil.
func (n *Node) ChildOfKind(kind string) *Node {
	if n == nil {
		return nil
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Kind() == kind {
			return c
		}
	}
	return nil
}

// Ancestor returns the nearest proper ancestor of one of the kinds, or nil.
func (n *Node) Ancestor(kinds ...string) *Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		for _, k := range kinds {
			if p.Kind() == k {
				return p
			}
		}
	}
	return nil
}

// Descendants returns the node and everything below it in preorder. It is a
// slice view of the tree, so it costs nothing to take.
func (n *Node) Descendants() []Node {
	return unsafe.Slice(n, n.hi>>sizeShift+1)
}

// Inside returns the nodes of sorted (nodes of n's tree, in preorder)
// that lie in n's subtree, n excluded: a sub-slice (with no room to
// append), found by binary search.
func (n *Node) Inside(sorted []*Node) []*Node {
	lo := sort.Search(len(sorted), func(i int) bool { return sorted[i].index() > n.index() })
	hi := lo + sort.Search(len(sorted)-lo, func(i int) bool { return sorted[lo+i].index() > n.last() })
	return sorted[lo:hi:hi]
}

// Walk calls fn on n and its descendants in preorder; fn returning false
// skips the node's children. A loop over the subtree's nodes, which lie in
// preorder after n, not a call per level: an else-if chain of thousands
// nests as deep, and a recursion kept a stack of MBs.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil {
		return
	}
	ds := n.Descendants()
	for i := 0; i < len(ds); {
		d := &ds[i]
		if fn(d) {
			i++
		} else {
			i += int(d.size()) + 1 // past d's subtree
		}
	}
}

// NodeAt returns the smallest named node that contains [start, end).
func (t *Tree) NodeAt(start, end uint32) *Node {
	n := t.Root()
	if n == nil {
		return nil
	}
	for {
		var next *Node
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Start <= start && end <= c.End && (c.End > start || c.Start == start) {
				if c.IsNamed() {
					next = c
					break
				}
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
}

// HasError reports whether the tree contains ERROR or MISSING nodes.
func (t *Tree) HasError() bool { return t.ErrorCount() > 0 }

// ErrorCount counts ERROR and MISSING nodes.
func (t *Tree) ErrorCount() int {
	c := 0
	for i := range t.Nodes {
		if t.Nodes[i].IsError() || t.Nodes[i].IsMissing() {
			c++
		}
	}
	return c
}

// Parser parses one language; it keeps the previous tree so edits reparse
// incrementally. A Parser is not safe for concurrent use.
type Parser struct {
	lang Lang
	p    *sitter.Parser
	// batch: its trees are never reparsed (NewBatchParser).
	batch bool
}

// NewParser returns a parser for the language.
func NewParser(l Lang) *Parser {
	p := sitter.NewParser()
	p.SetLanguage(l.info().lang)
	return &Parser{lang: l, p: p}
}

// NewBatchParser returns a parser whose trees are never reparsed
// incrementally, as in a check: a C++ source over batchChunkAfter is parsed
// in pieces, so no C tree of the whole file is ever alive.
func NewBatchParser(l Lang) *Parser {
	p := NewParser(l)
	p.batch = true
	return p
}

// Edit describes a text change for incremental reparsing (tree-sitter's
// InputEdit: byte offsets and row/byte-column points).
type Edit struct {
	StartByte, OldEndByte, NewEndByte uint32
	StartRow, StartCol                uint32
	OldEndRow, OldEndCol              uint32
	NewEndRow, NewEndCol              uint32
}

// ApplyEdit records an edit in the tree so the next Parse with it as old
// tree reuses unchanged subtrees.
func (t *Tree) ApplyEdit(e Edit) {
	if t == nil || t.ts == nil {
		return
	}
	t.ts.Edit(sitter.EditInput{
		StartIndex: e.StartByte, OldEndIndex: e.OldEndByte, NewEndIndex: e.NewEndByte,
		StartPoint:  sitter.Point{Row: e.StartRow, Column: e.StartCol},
		OldEndPoint: sitter.Point{Row: e.OldEndRow, Column: e.OldEndCol},
		NewEndPoint: sitter.Point{Row: e.NewEndRow, Column: e.NewEndCol},
	})
}

// Parse parses src (already masked for C++) and returns the tree whose Src
// is orig. old may be nil or a tree edited with ApplyEdit.
func (p *Parser) Parse(ctx context.Context, parseSrc, orig []byte, old *Tree) (*Tree, error) {
	return p.parse(ctx, parseSrc, orig, old, nil)
}

func (p *Parser) parse(ctx context.Context, parseSrc, orig []byte, old *Tree, lines *Lines) (*Tree, error) {
	if lines == nil {
		lines = NewLines(orig)
	}
	after := chunkAfter
	if p.batch {
		after = batchChunkAfter
	}
	if (old == nil || old.ts == nil) && p.lang == CPP && len(parseSrc) > after {
		// A large source is parsed in pieces and keeps no C tree, so it
		// never reparses incrementally.
		cuts := topLevelSplits(parseSrc, chunkBytes)
		// No top-level cut: one huge statement may still be cut inside
		// (parseChunks finds where per piece, but for this one).
		var h *huge
		if len(cuts) == 0 {
			h = hugeIn(parseSrc, spanTop, chunkBytes, true)
		}
		if len(cuts) > 0 || h != nil {
			if t, err := p.parseChunks(ctx, parseSrc, orig, lines, cuts, h); err != errChunks {
				return t, err
			}
		}
	}
	var oldTS *sitter.Tree
	if old != nil {
		oldTS = old.ts
	}
	ts, err := p.p.ParseCtx(ctx, oldTS, parseSrc)
	if err != nil {
		return nil, err
	}
	t := &Tree{Src: orig, ts: ts, names: p.lang.info().names, lines: lines}
	if t.Nodes, err = flatten(ts, t); err != nil {
		ts.Close()
		return nil, err
	}
	return t, nil
}

// Close releases the C tree; the Go-side nodes stay usable.
func (t *Tree) Close() {
	if t != nil && t.ts != nil {
		t.ts.Close()
		t.ts = nil
		if len(t.Nodes) > trimAfter {
			trimCHeap()
		}
	}
}
