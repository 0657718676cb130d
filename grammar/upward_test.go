package grammar

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestUpward checks the memo against the walk it replaces (the number of
// enclosing if statements below the function, for every node) and that
// each node is stepped at most once.
func TestUpward(t *testing.T) {
	var b strings.Builder
	b.WriteString("void f(int x) {\n  if (x == 0) { x = 1; }")
	for i := 1; i < 200; i++ {
		b.WriteString(" else if (x == 1) { x = 2; }")
	}
	b.WriteString("\n}\n")
	f, err := ParseFile(context.Background(), nil, "a.cpp", []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	var fn *Node
	for i := range f.Tree.Nodes {
		if f.Tree.Nodes[i].Kind() == "function_definition" {
			fn = &f.Tree.Nodes[i]
			break
		}
	}
	steps := 0
	u := NewUpward(fn, func(p, _ *Node, above int) int {
		steps++
		if p.Kind() == "if_statement" {
			return above + 1
		}
		return above
	})
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		want := 0
		for p := n.Parent(); p != nil && p != fn; p = p.Parent() {
			if p.Kind() == "if_statement" {
				want++
			}
		}
		if n == fn || !fn.Contains(n) {
			want = 0
		}
		if got := u.Of(n); got != want {
			t.Fatalf("node %d (%s): %d enclosing ifs, want %d", i, n.Kind(), got, want)
		}
	}
	if steps > len(f.Tree.Nodes) {
		t.Errorf("%d steps for %d nodes: a node was stepped twice", steps, len(f.Tree.Nodes))
	}
}

// naiveUpward is the walk Upward memoizes.
func naiveUpward[T comparable](stop *Node, step func(p, child *Node, above T) T, n *Node) T {
	var path []*Node
	for ; n != nil && n != stop; n = n.Parent() {
		path = append(path, n)
	}
	var v T
	for i := len(path) - 1; i >= 0; i-- {
		if p := path[i].Parent(); p != nil && p != stop {
			v = step(p, path[i], v)
		}
	}
	return v
}

// TestUpwardWide checks the memo when its values outgrow one byte and
// then two (a value per node), asked in an order that fills the map
// first and then the array, and across two trees with no stop node.
func TestUpwardWide(t *testing.T) {
	parse := func(src string) *File {
		f, err := ParseFile(context.Background(), nil, "a.cpp", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	var b strings.Builder
	b.WriteString("void f() {\n  int a[] = {")
	for i := range 70000 {
		fmt.Fprintf(&b, "%d, ", i)
	}
	b.WriteString("};\n}\n")
	big := parse(b.String())
	small := parse("void g(int x) { if (x) { x = 1; } else { x = 2; } }\n")
	fn := big.Tree.OfKind("function_definition")[0]
	step := func(p, c *Node, above int) int { return above*7 + c.Index() }
	for _, stop := range []*Node{fn, nil} {
		u := NewUpward(stop, step)
		nodes := big.Tree.Nodes
		// Every 97th node first (the map), then all of them, then the
		// small tree's nodes.
		for pass := range 2 {
			for i := range nodes {
				if pass == 1 || i%97 == 0 {
					n := &nodes[i]
					if got, want := u.Of(n), naiveUpward(stop, step, n); got != want {
						t.Fatalf("stop %v, node %d (%s): %d, want %d", stop != nil, i, n.Kind(), got, want)
					}
				}
			}
		}
		for i := range small.Tree.Nodes {
			n := &small.Tree.Nodes[i]
			if got, want := u.Of(n), naiveUpward(stop, step, n); got != want {
				t.Fatalf("stop %v, small tree node %d (%s): %d, want %d", stop != nil, i, n.Kind(), got, want)
			}
		}
		if u.width != 4 {
			t.Errorf("stop %v: %d distinct values in slots of %d bytes", stop != nil, len(u.vals), u.width)
		}
	}
}

// TestUpwardOutsideStop asks, once the array holds slots of two bytes,
// about nodes after the stop node's subtree: their values are the walk's
// up to the root, not slots read past the subtree.
func TestUpwardOutsideStop(t *testing.T) {
	var b strings.Builder
	b.WriteString("void g(int x) {\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "  x = x + %d;\n", i)
	}
	b.WriteString("}\nvoid h(int y) {\n")
	for i := 0; i < 800; i++ {
		fmt.Fprintf(&b, "  y = y * %d;\n", i)
	}
	b.WriteString("}\n")
	f, err := ParseFile(context.Background(), nil, "a.cpp", []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := &f.Tree.Nodes[0]
	for i := range f.Tree.Nodes {
		if n := &f.Tree.Nodes[i]; n.Kind() == "function_definition" {
			g = n
			break
		}
	}
	// A value per node: more than a byte's worth.
	step := func(p, c *Node, above int) int { return above + c.Index() }
	u := NewUpward(g, step)
	for i := g.Index(); i <= g.Index()+int(g.last()-g.index()); i++ {
		u.Of(&f.Tree.Nodes[i])
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if got, want := u.Of(n), naiveUpward(g, step, n); got != want {
			t.Fatalf("node %d (%s): %d, want %d", i, n.Kind(), got, want)
		}
	}
}
