package rules

import (
	"context"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestUpwardDirect checks the memo-less walk and shallowUpward against
// grammar.Upward for every node of a function with shallow and deep nests:
// the same value when the node is near enough, no answer when it is not.
func TestUpwardDirect(t *testing.T) {
	var b strings.Builder
	b.WriteString("void g(int y) { if (y) return; }\nvoid f(int x) {\n  for (;;) { if (x == 0) { x = 1; return; }")
	for i := 1; i < 60; i++ {
		b.WriteString(" else if (x == 1) { while (x) { return; } }")
	}
	b.WriteString(" }\n}\n")
	f, err := grammar.ParseFile(context.Background(), nil, "a.cpp", []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	fns := f.Tree.OfKind("function_definition")
	// A value that depends on the path, not only on a count: the kinds of
	// the deciding ancestors, innermost last.
	step := func(p, child *grammar.Node, above string) string {
		if p.Kind() == "if_statement" || p.Kind() == "while_statement" {
			return above + p.Kind()[:1] + child.Field() + " "
		}
		return above
	}
	for _, stop := range append(fns, nil) {
		u := grammar.NewUpward(stop, step)
		direct, deep := 0, 0
		for i := range f.Tree.Nodes {
			n := &f.Tree.Nodes[i]
			want := u.Of(n)
			got, ok := upwardDirect(n, stop, step)
			if !ok {
				deep++
				continue
			}
			direct++
			if got != want {
				t.Fatalf("node %d (%s): %q, want %q", i, n.Kind(), got, want)
			}
		}
		// The shallow memo, asked shallow nodes first, then deep ones,
		// then shallow ones again through its memo.
		su := newShallowUpward(stop, step)
		for _, pass := range []int{0, 1, 0} {
			for i := range f.Tree.Nodes {
				n := &f.Tree.Nodes[i]
				if _, ok := upwardDirect(n, stop, step); ok != (pass == 0) {
					continue
				}
				if got, want := su.Of(n), u.Of(n); got != want {
					t.Fatalf("shallowUpward, node %d (%s): %q, want %q", i, n.Kind(), got, want)
				}
			}
		}
		if direct == 0 || deep == 0 {
			t.Errorf("stop %v: %d nodes answered, %d too deep: the test should have both", stop != nil, direct, deep)
		}
	}
}
