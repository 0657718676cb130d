package grammar

import (
	"context"
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
