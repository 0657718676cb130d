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
extern uint32_t ts_language_symbol_count(const TSLanguage *self);
extern const char *ts_language_symbol_name(const TSLanguage *self, uint16_t symbol);
extern uint32_t ts_language_field_count(const TSLanguage *self);
extern const char *ts_language_field_name_for_id(const TSLanguage *self, uint16_t id);

typedef struct {
	uint32_t start, end;
	uint32_t srow, scol, erow, ecol;
	int32_t parent, next;
	uint16_t sym, field;
	uint8_t flags;
} FlatNode;

enum { FLAG_NAMED = 1, FLAG_MISSING = 2, FLAG_ERROR = 4 };

static FlatNode *flatten_tree(const TSTree *tree, uint32_t *count) {
	XNode root = ts_tree_root_node(tree);
	uint32_t cap = ts_node_descendant_count(root) + 1;
	FlatNode *out = (FlatNode *)malloc(sizeof(FlatNode) * cap);
	if (!out) { *count = 0; return NULL; }
	int32_t *lastChild = (int32_t *)malloc(sizeof(int32_t) * cap);
	XCursor c = ts_tree_cursor_new(root);
	uint32_t n = 0;
	int32_t parent = -1;
	for (;;) {
		if (n >= cap) break;
		XNode node = ts_tree_cursor_current_node(&c);
		FlatNode *f = &out[n];
		f->start = ts_node_start_byte(node);
		f->end = ts_node_end_byte(node);
		XPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
		f->srow = sp.row; f->scol = sp.column; f->erow = ep.row; f->ecol = ep.column;
		f->sym = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(node) ? FLAG_NAMED : 0) |
		           (ts_node_is_missing(node) ? FLAG_MISSING : 0) |
		           (ts_node_is_error(node) ? FLAG_ERROR : 0);
		f->parent = parent;
		f->next = -1;
		lastChild[n] = -1;
		if (parent >= 0) {
			if (lastChild[parent] >= 0) out[lastChild[parent]].next = (int32_t)n;
			lastChild[parent] = (int32_t)n;
		}
		int32_t self = (int32_t)n;
		n++;
		if (ts_tree_cursor_goto_first_child(&c)) { parent = self; continue; }
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			parent = out[parent].parent;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	free(lastChild);
	*count = n;
	return out;
}

static const char *symbol_name(const void *lang, uint16_t sym) { return ts_language_symbol_name((const TSLanguage *)lang, sym); }
static const char *field_name(const void *lang, uint16_t id) { return ts_language_field_name_for_id((const TSLanguage *)lang, id); }
static uint32_t symbol_count(const void *lang) { return ts_language_symbol_count((const TSLanguage *)lang); }
static uint32_t field_count(const void *lang) { return ts_language_field_count((const TSLanguage *)lang); }
*/
import "C"

import (
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// names interns a language's symbol and field names once, so node kinds are
// shared Go strings and comparisons never cross cgo.
type names struct {
	symbols []string
	fields  []string
}

func newNames(lang *sitter.Language) *names {
	// sitter.Language holds the TSLanguage pointer as its only field.
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(lang))
	nm := &names{}
	ns := int(C.symbol_count(ptr))
	nm.symbols = make([]string, ns)
	for i := 0; i < ns; i++ {
		if s := C.symbol_name(ptr, C.uint16_t(i)); s != nil {
			nm.symbols[i] = C.GoString(s)
		}
	}
	nf := int(C.field_count(ptr))
	nm.fields = make([]string, nf+1)
	for i := 1; i <= nf; i++ {
		if s := C.field_name(ptr, C.uint16_t(i)); s != nil {
			nm.fields[i] = C.GoString(s)
		}
	}
	return nm
}

// flatten copies a tree-sitter tree into Go memory in preorder.
func flatten(t *sitter.Tree, nm *names) []Node {
	// sitter.BaseTree holds the TSTree pointer as its first field.
	cTree := *(**C.TSTree)(unsafe.Pointer(t.BaseTree))
	var count C.uint32_t
	flat := C.flatten_tree(cTree, &count)
	if flat == nil {
		return nil
	}
	defer C.free(unsafe.Pointer(flat))
	src := unsafe.Slice(flat, int(count))
	nodes := make([]Node, len(src))
	for i := range src {
		f := &src[i]
		n := &nodes[i]
		n.Start, n.End = uint32(f.start), uint32(f.end)
		n.StartRow, n.StartCol = uint32(f.srow), uint32(f.scol)
		n.EndRow, n.EndCol = uint32(f.erow), uint32(f.ecol)
		n.parent, n.next = int32(f.parent), int32(f.next)
		n.firstChild = -1
		if int(f.sym) < len(nm.symbols) {
			n.Kind = nm.symbols[f.sym]
		}
		if int(f.field) < len(nm.fields) {
			n.Field = nm.fields[f.field]
		}
		n.flags = uint8(f.flags)
		n.index = int32(i)
	}
	// Children follow their parent immediately in preorder, so the first
	// child of node i is i+1 when its parent is i.
	for i := 1; i < len(nodes); i++ {
		p := nodes[i].parent
		if p >= 0 && nodes[p].firstChild < 0 {
			nodes[p].firstChild = int32(i)
		}
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		if nodes[i].last < int32(i) {
			nodes[i].last = int32(i)
		}
		if p := nodes[i].parent; p >= 0 && nodes[p].last < nodes[i].last {
			nodes[p].last = nodes[i].last
		}
	}
	return nodes
}
