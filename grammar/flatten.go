package grammar

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// Layout-compatible declarations of the tree-sitter C API that
// github.com/smacker/go-tree-sitter compiles into the binary. Walking the tree
// in C costs one cgo call per file instead of several per node.
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t row; uint32_t column; } XPoint;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } XNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } XCursor;

extern XNode ts_tree_root_node(const TSTree *self);
extern XCursor ts_tree_cursor_new(XNode node);
extern void ts_tree_cursor_delete(XCursor *self);
extern bool ts_tree_cursor_goto_first_child(XCursor *self);
extern bool ts_tree_cursor_goto_next_sibling(XCursor *self);
extern bool ts_tree_cursor_goto_parent(XCursor *self);
extern int64_t ts_tree_cursor_goto_first_child_for_byte(XCursor *self, uint32_t goal_byte);
extern XNode ts_tree_cursor_current_node(const XCursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const XCursor *self);
extern uint16_t ts_node_symbol(XNode self);
extern uint32_t ts_node_start_byte(XNode self);
extern uint32_t ts_node_end_byte(XNode self);
extern XPoint ts_node_start_point(XNode self);
extern XPoint ts_node_end_point(XNode self);
extern bool ts_node_is_named(XNode self);
extern bool ts_node_is_missing(XNode self);
extern bool ts_node_is_error(XNode self);
extern uint32_t ts_node_descendant_count(XNode self);
extern uint32_t ts_node_child_count(XNode self);
extern uint32_t ts_language_symbol_count(const TSLanguage *self);
extern const char *ts_language_symbol_name(const TSLanguage *self, uint16_t symbol);
extern uint32_t ts_language_field_count(const TSLanguage *self);
extern const char *ts_language_field_name_for_id(const TSLanguage *self, uint16_t id);

// GoNode is grammar.Node's layout: flatten_tree writes the nodes straight
// into the Go array. lo|hi<<32 holds, from bit 0 up, index (25 bits), kind
// (10), flags (4, the first Python's, which Go sets) and size (25:
// last-index); up holds dist (25: index-parent, 0 at the root), field (6)
// and the Python flag again. The caller makes sure every index fits (Go's
// maxNodes).
typedef struct {
	uint32_t start, end;
	uint32_t lo, hi, up;
} GoNode;

enum { FLAG_NAMED = 2, FLAG_MISSING = 4, FLAG_ERROR = 8 };
enum { INDEX_BITS = 25, INDEX_MASK = (1 << INDEX_BITS) - 1, KIND_BITS = 10, MAX_FIELD = (1 << (32 - INDEX_BITS - 1)) - 1 };

static int32_t gn_index(const GoNode *n) { return (int32_t)(n->lo & INDEX_MASK); }
static int32_t gn_last(const GoNode *n) { return gn_index(n) + (int32_t)(n->hi >> (32 - INDEX_BITS)); }
static int32_t gn_parent(const GoNode *n) {
	int32_t d = (int32_t)(n->up & INDEX_MASK);
	return d > 0 ? gn_index(n) - d : -1;
}

static void gn_set_last(GoNode *n, int32_t last) {
	n->hi = (n->hi & ((1u << (32 - INDEX_BITS)) - 1)) | (uint32_t)(last - gn_index(n)) << (32 - INDEX_BITS);
}

// gn_set writes a node that is its subtree's last.
static void gn_set(GoNode *n, int32_t index, int32_t parent, uint16_t kind, uint8_t field, uint8_t flags) {
	uint64_t w = (uint64_t)index | (uint64_t)kind << INDEX_BITS | (uint64_t)flags << (INDEX_BITS + KIND_BITS);
	n->lo = (uint32_t)w;
	n->hi = (uint32_t)(w >> 32);
	n->up = (uint32_t)(parent >= 0 ? index - parent : 0) | (uint32_t)field << INDEX_BITS;
}

static uint32_t node_count(const TSTree *tree) {
	return ts_node_descendant_count(ts_tree_root_node(tree)) + 1;
}

static bool dropped(const XCursor *c, XNode node, uint16_t nsym, const uint8_t *drop) {
	uint16_t sym = ts_node_symbol(node);
	return sym < nsym && drop[sym] && ts_tree_cursor_current_field_id(c) == 0 &&
	       !ts_node_is_missing(node) && ts_node_child_count(node) == 0;
}

// kept_count is the number of nodes flatten_tree writes.
static uint32_t kept_count(const TSTree *tree, uint16_t nsym, const uint8_t *drop) {
	XCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	uint32_t n = 0;
	for (;;) {
		if (!dropped(&c, ts_tree_cursor_current_node(&c), nsym, drop)) n++;
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) { ts_tree_cursor_delete(&c); return n; }
		}
	}
}

// flatten_from writes the subtree at cursor c's node in preorder into out
// (cap nodes) and returns the count. Symbols past nsym (ERROR) become nsym.
// Byte offsets are moved by off and indexes by base. With skip_top the
// node itself is left out and its children get parent top_parent (the root
// of a file parsed in pieces, or a block parsed in pieces, see chunk.go).
static uint32_t flatten_from(XCursor c, GoNode *out, uint32_t cap, uint16_t nsym,
                             const uint8_t *drop, uint32_t off, int32_t base, bool skip_top, int32_t top_parent) {
	uint32_t n = 0;
	int32_t parent = -1;
	if (skip_top) {
		if (!ts_tree_cursor_goto_first_child(&c)) { ts_tree_cursor_delete(&c); return 0; }
		parent = top_parent;
	}
	for (;;) {
		XNode node = ts_tree_cursor_current_node(&c);
		if (dropped(&c, node, nsym, drop)) goto next;
		uint16_t sym = ts_node_symbol(node);
		if (n >= cap) break;
		GoNode *f = &out[n];
		f->start = ts_node_start_byte(node) + off;
		f->end = ts_node_end_byte(node) + off;
		bool err = ts_node_is_error(node) || sym >= nsym;
		uint16_t field = ts_tree_cursor_current_field_id(&c);
		int32_t self = base + (int32_t)n;
		gn_set(f, self, parent, sym >= nsym ? nsym : sym, field > MAX_FIELD ? 0 : (uint8_t)field,
		       (ts_node_is_named(node) ? FLAG_NAMED : 0) | (ts_node_is_missing(node) ? FLAG_MISSING : 0) |
		           (err ? FLAG_ERROR : 0));
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) { parent = self; continue; }
	next:
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (skip_top && parent == top_parent) goto done;
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			parent = gn_parent(&out[parent - base]);
		}
	}
done:
	ts_tree_cursor_delete(&c);
	// A subtree ends where its last descendant does; parents precede children.
	for (uint32_t i = n; i-- > 0;) {
		int32_t p = gn_parent(&out[i]);
		if (p >= base && gn_last(&out[p - base]) < gn_last(&out[i])) gn_set_last(&out[p - base], gn_last(&out[i]));
	}
	return n;
}

// flatten_tree flattens a whole tree (see flatten_from); with skip_root
// the root's children get parent 0.
static uint32_t flatten_tree(const TSTree *tree, GoNode *out, uint32_t cap, uint16_t nsym,
                             const uint8_t *drop, uint32_t off, int32_t base, bool skip_root) {
	return flatten_from(ts_tree_cursor_new(ts_tree_root_node(tree)), out, cap, nsym, drop, off, base, skip_root, 0);
}

// flatten_block flattens the children of the node of a symbol marked in
// block starting at byte start (a brace block, an if), as children of node parent, and
// returns their count; -1 when the tree has no such node.
static int64_t flatten_block(const TSTree *tree, uint32_t start, const uint8_t *block, GoNode *out, uint32_t cap,
                             uint16_t nsym, const uint8_t *drop, uint32_t off, int32_t base, int32_t parent) {
	XCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		XNode node = ts_tree_cursor_current_node(&c);
		uint16_t sym = ts_node_symbol(node);
		if (ts_node_start_byte(node) == start && sym < nsym && block[sym]) {
			XCursor b = ts_tree_cursor_new(node);
			ts_tree_cursor_delete(&c);
			return flatten_from(b, out, cap, nsym, drop, off, base, true, parent);
		}
		if (ts_tree_cursor_goto_first_child_for_byte(&c, start) < 0) {
			ts_tree_cursor_delete(&c);
			return -1;
		}
	}
}

static const char *symbol_name(const void *lang, uint16_t sym) { return ts_language_symbol_name((const TSLanguage *)lang, sym); }
static const char *field_name(const void *lang, uint16_t id) { return ts_language_field_name_for_id((const TSLanguage *)lang, id); }
static uint32_t symbol_count(const void *lang) { return ts_language_symbol_count((const TSLanguage *)lang); }
static uint32_t field_count(const void *lang) { return ts_language_field_count((const TSLanguage *)lang); }
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// names interns a language's symbol and field names once, so node kinds are
// shared Go strings and comparisons never cross cgo. symbols has one entry
// past the language's symbols: "ERROR".
type names struct {
	symbols []string
	fields  []string
	// drop marks the C++ punctuation tokens the Go tree leaves out when
	// they hold no field (operators do): brackets, separators and scope
	// colons are a third of a file's nodes, and no analysis reads them.
	drop []uint8
	// kind numbers the symbols by name: aliased symbols share a name.
	kind []uint16
	// byName is a kind name's number (see kind).
	byName map[string]uint16
	// block marks the symbols of the brace blocks a huge statement is
	// parsed in runs of, ifs the if statements (see huge).
	block, ifs []uint8
	// asks counts, by kind number, the trees asked for the kind's list
	// (Tree.OfKind), again those asked for it again after a first list
	// was not kept, trees the trees asked for any.
	asks, again []atomic.Int32
	trees       atomic.Int32
}

// note counts a tree's first ask for kind k (first: its first ask).
func (nm *names) note(k uint16, first bool) {
	if first {
		nm.trees.Add(1)
	}
	nm.asks[k].Add(1)
}

// asksAgain reports whether most trees asking for kind k so far asked
// for it again: its list is then kept from the first ask (it would be
// from the second, after a second walk of the tree).
func (nm *names) asksAgain(k uint16) bool {
	return nm.trees.Load() >= 16 && nm.again[k].Load()*2 >= nm.asks[k].Load()
}

// common lists the kinds other than k that three in four trees so far were
// asked for: a tree's first walk lists them too.
func (nm *names) common(k uint16) []uint16 {
	trees := nm.trees.Load()
	if trees < 16 {
		return nil
	}
	var out []uint16
	for c := range nm.asks {
		if uint16(c) != k && nm.asks[c].Load()*4 >= trees*3 && len(out) < 100 {
			out = append(out, uint16(c))
		}
	}
	return out
}

// field is the number of the field name (0 for "" or an unknown name).
func (nm *names) field(name string) uint8 {
	for i, f := range nm.fields {
		if i > 0 && f == name {
			return uint8(i)
		}
	}
	return 0
}

// punctuation is what names.drop marks.
var punctuation = map[string]bool{"(": true, ")": true, "{": true, "}": true, "[": true, "]": true,
	";": true, ",": true, "::": true, "<": true, ">": true}

func newNames(lang *sitter.Language, dropPunct bool) *names {
	// sitter.Language holds the TSLanguage pointer as its only field.
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(lang))
	nm := &names{}
	ns := int(C.symbol_count(ptr))
	nm.symbols = make([]string, ns+1)
	for i := 0; i < ns; i++ {
		if s := C.symbol_name(ptr, C.uint16_t(i)); s != nil {
			nm.symbols[i] = C.GoString(s)
		}
	}
	nm.symbols[ns] = "ERROR"
	nm.kind = make([]uint16, ns+1)
	nm.asks = make([]atomic.Int32, ns+1)
	nm.again = make([]atomic.Int32, ns+1)
	first := map[string]uint16{}
	for i, name := range nm.symbols {
		if _, ok := first[name]; !ok {
			first[name] = uint16(i)
		}
		nm.kind[i] = first[name]
	}
	nm.byName = first
	nm.block = make([]uint8, ns+1)
	nm.ifs = make([]uint8, ns+1)
	for i := 0; i < ns; i++ {
		switch nm.symbols[i] {
		case "compound_statement", "declaration_list":
			nm.block[i] = 1
		case "if_statement":
			nm.ifs[i] = 1
		}
	}
	nm.drop = make([]uint8, ns+1)
	for i := 0; i < ns && dropPunct; i++ {
		if punctuation[nm.symbols[i]] && lang.SymbolType(sitter.Symbol(i)) != sitter.SymbolTypeRegular {
			nm.drop[i] = 1
		}
	}
	if ns+1 > 1<<kindBits {
		panic("grammar: more symbols than a node's kind holds")
	}
	nf := int(C.field_count(ptr))
	if nf >= 1<<fieldBits {
		panic("grammar: more field names than a node's field holds")
	}
	nm.fields = make([]string, nf+1)
	for i := 1; i <= nf; i++ {
		if s := C.field_name(ptr, C.uint16_t(i)); s != nil {
			nm.fields[i] = C.GoString(s)
		}
	}
	return nm
}

// flatten copies a tree-sitter tree into Go memory in preorder. One C walk
// writes the nodes into a C buffer sized by the tree's node count (known
// without a walk, an upper bound: punctuation is dropped), and the kept
// ones are copied into a Go array of their number: a walk to count them
// first cost as much as a third of the copy.
func flatten(ts *sitter.Tree, t *Tree) ([]Node, error) {
	total := nodeCount(ts)
	if total > maxNodes {
		// Rare (far past max-file-size): count exactly before refusing.
		return flattenCounted(ts, t)
	}
	buf := C.malloc(C.size_t(total) * C.sizeof_GoNode)
	if buf == nil {
		return flattenCounted(ts, t)
	}
	defer C.free(buf)
	n := flattenInto(ts, t, unsafe.Slice((*Node)(buf), total), 0, 0, false)
	nodes := newNodes(t, n)
	copy(nodes, unsafe.Slice((*Node)(buf), n))
	return markPython(t, nodes), nil
}

// flattenCounted is flatten for a tree past maxNodes: it counts the kept
// nodes first, and refuses a tree that keeps too many.
func flattenCounted(ts *sitter.Tree, t *Tree) ([]Node, error) {
	n := keptCount(ts, t)
	if n > maxNodes {
		return nil, errTooManyNodes
	}
	nodes := newNodes(t, n)
	return markPython(t, nodes[:flattenInto(ts, t, nodes, 0, 0, false)]), nil
}

// markPython sets the Python flag of a Python tree's nodes.
func markPython(t *Tree, nodes []Node) []Node {
	if t.names == langNames[Python] {
		for i := range nodes {
			nodes[i].setPython()
		}
	}
	return nodes
}

func cTree(ts *sitter.Tree) *C.TSTree {
	// sitter.BaseTree holds the TSTree pointer as its first field.
	return *(**C.TSTree)(unsafe.Pointer(ts.BaseTree))
}

// nodeCount is the number of nodes of a tree, its root included.
func nodeCount(ts *sitter.Tree) int { return int(C.node_count(cTree(ts))) }

// keptCount is the number of nodes of a tree that flatten keeps.
func keptCount(ts *sitter.Tree, t *Tree) int {
	return int(C.kept_count(cTree(ts), C.uint16_t(len(t.names.symbols)-1), (*C.uint8_t)(&t.names.drop[0])))
}

// flattenInto writes ts's nodes into out (see flatten_tree) and returns
// how many it wrote.
func flattenInto(ts *sitter.Tree, t *Tree, out []Node, off uint32, base int, skipRoot bool) int {
	if len(out) == 0 {
		return 0
	}
	n := C.flatten_tree(cTree(ts), (*C.GoNode)(unsafe.Pointer(&out[0])), C.uint32_t(len(out)),
		C.uint16_t(len(t.names.symbols)-1), (*C.uint8_t)(&t.names.drop[0]), C.uint32_t(off), C.int32_t(base), C.bool(skipRoot))
	return int(n)
}

// flattenBlock writes the children of ts's node of a symbol marked in
// marks (a brace block: compound statement or declaration list; an if
// statement) that starts at byte start into out, as children of the node
// at index parent (see flatten_block); false when ts has no such node.
func flattenBlock(ts *sitter.Tree, t *Tree, start uint32, marks []uint8, out []Node, off uint32, base, parent int) (int, bool) {
	if len(out) == 0 {
		return 0, false
	}
	n := C.flatten_block(cTree(ts), C.uint32_t(start), (*C.uint8_t)(&marks[0]),
		(*C.GoNode)(unsafe.Pointer(&out[0])), C.uint32_t(len(out)),
		C.uint16_t(len(t.names.symbols)-1), (*C.uint8_t)(&t.names.drop[0]), C.uint32_t(off), C.int32_t(base), C.int32_t(parent))
	return int(n), n >= 0
}

// The C walk writes Node's fields by this layout.
var _ = [1]struct{}{}[unsafe.Sizeof(Node{})-C.sizeof_GoNode]

// ... and packs it as Node's accessors read it.
var (
	_ = [1]struct{}{}[C.INDEX_BITS-indexBits]
	_ = [1]struct{}{}[indexBits-C.INDEX_BITS]
	_ = [1]struct{}{}[C.KIND_BITS-kindBits]
	_ = [1]struct{}{}[kindBits-C.KIND_BITS]
	_ = [1]struct{}{}[C.MAX_FIELD-(1<<fieldBits-1)]
	_ = [1]struct{}{}[(1<<fieldBits-1)-C.MAX_FIELD]
)
