package grammar

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// A node is 20 bytes, and its links, at the largest indexes the packing
// holds, leave its kind, field and flags as the C walk wrote them (C++
// kinds past 127 and ERROR use the kind's high bits, Python nodes the
// language bit).
func TestNodePacking(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s != 20 {
		t.Fatalf("a node is %d bytes, want 20", s)
	}
	cpp := parse(t, "k.cpp", "int f(int a) { if (a > 1) { return a; } return g(a) + 1 }\nint h( {\n")
	py := parse(t, "k.py", "def f(a):\n    return [x for x in a if x]\n")
	seen := map[string]bool{}
	top := int32(maxNodes - 1)
	for _, tr := range []*Tree{cpp.Tree, py.Tree} {
		for i := range tr.Nodes {
			n := &tr.Nodes[i]
			kind, field, flags := n.Kind(), n.Field(), n.flags()
			if n.kind() >= 128 {
				seen["high kind"] = true
			}
			if n.IsError() {
				seen["error"] = true
			}
			if field != "" {
				seen["field"] = true
			}
			scratch := make([]Node, 1)
			copy(scratch, tr.Nodes[i:i+1])
			m := &scratch[0]
			for _, l := range [][3]int32{{0, 0, -1}, {top, top, 0}, {1, top, 0}, {top - 1, top, top - 2}, {7, 9, 6}} {
				m.setLinks(l[0], l[1], l[2])
				if m.index() != l[0] || m.last() != l[1] || m.parent() != l[2] {
					t.Fatalf("links %v read back as %d %d %d", l, m.index(), m.last(), m.parent())
				}
				m.setLast(l[0])
				if m.index() != l[0] || m.last() != l[0] || m.parent() != l[2] {
					t.Fatalf("links %v, last set to the index: %d %d %d", l, m.index(), m.last(), m.parent())
				}
				if m.Kind() != kind || m.Field() != field || m.flags() != flags {
					t.Fatalf("links %v: %s %q %x, want %s %q %x", l, m.Kind(), m.Field(), m.flags(), kind, field, flags)
				}
			}
		}
	}
	if len(seen) != 3 {
		t.Fatalf("the sources cover %v, want high kinds, errors and fields", seen)
	}
}

// A tree with more nodes than a node's links can number is no tree: the
// parse fails, whole or in pieces, and a parse under the limit is the
// whole parse's tree. In pieces, the bound counts the punctuation a piece
// leaves out: the parse may fail a little before the limit.
func TestTooManyNodes(t *testing.T) {
	defer func(n, a, b int) { maxNodes, chunkBytes, chunkAfter = n, a, b }(maxNodes, chunkBytes, chunkAfter)
	var b strings.Builder
	for i := 0; b.Len() < 32<<10; i++ {
		fmt.Fprintf(&b, "void f%d(int a) {\n  g(a, %d);\n  if (a) { h(a); }\n}\n", i, i)
	}
	// One function of one huge body: its statements are parsed in runs.
	b.WriteString("void big(int *out) {\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "  out[%d] = %d;\n", i, i)
	}
	b.WriteString("}\n")
	cpp := []byte(b.String())
	py := []byte(strings.Repeat("def f(a):\n    return a + 1\n", 100))
	const slack = 2000
	for _, c := range []struct {
		name, file string
		src        []byte
		pieces     bool
	}{
		{"whole", "k.cpp", cpp, false},
		{"pieces", "k.cpp", cpp, true},
		{"python", "k.py", py, false},
	} {
		maxNodes, chunkBytes, chunkAfter = 1<<indexBits, 512<<10, 512<<10
		whole := mustParse(t, c.file, c.src)
		n := len(whole.Tree.Nodes)
		if c.pieces {
			chunkBytes, chunkAfter = 2<<10, 4<<10
		}
		for _, limit := range []int{n / 2, n - 1, n, n + 1, n + slack} {
			maxNodes = limit
			f, err := ParseFile(context.Background(), nil, c.file, c.src, nil)
			if err != nil {
				if !errors.Is(err, errTooManyNodes) || limit >= n && !(c.pieces && limit < n+slack) {
					t.Fatalf("%s: %d nodes under a limit of %d: %v", c.name, n, limit, err)
				}
				continue
			}
			if limit < n {
				t.Fatalf("%s: %d nodes parsed under a limit of %d", c.name, n, limit)
			}
			if c.pieces && f.Tree.ts != nil {
				t.Fatalf("%s: parsed whole", c.name)
			}
			sameNodes(t, whole.Tree.Nodes, f.Tree.Nodes)
		}
	}
}

func mustParse(t *testing.T, path string, src []byte) *File {
	t.Helper()
	f, err := ParseFile(context.Background(), nil, path, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// PrevSibling, found from the node before in preorder, is the sibling a
// walk over the parent's children finds, on every node (punctuation left
// out of the tree, comments, nested and top-level declarations).
func TestPrevSiblingIsTheChildBefore(t *testing.T) {
	src := []byte("// lead\nint a = 1;\nnamespace n { void f() { if (a) { g(); } else if (b) { return; } } /* c */ }\n" +
		"template <int N> __global__ void k(int *p) { for (int i = 0; i < N; ++i) { p[i] = (i + 1) * 2; } }\n")
	f := mustParse(t, "a.cpp", src)
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		var want *Node
		if p := n.Parent(); p != nil {
			for c := p.FirstChild(); c != nil && c != n; c = c.NextSibling() {
				want = c
			}
		}
		if got := n.PrevSibling(); got != want {
			t.Errorf("node %d %s: PrevSibling %v, want %v", i, n.Kind(), got, want)
		}
	}
}
