package grammar

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// walkByChildren is Walk as the recursion over FirstChild and NextSibling
// it replaced: the reference for the visit order and the skipping.
func walkByChildren(n *Node, fn func(*Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		walkByChildren(c, fn)
	}
}

// Walk visits what the recursion over the children visits, in the same
// order, from every node of a tree, with subtrees skipped where fn says
// so (here: below every third node visited, and below every if
// statement).
func TestWalkMatchesChildren(t *testing.T) {
	f := parse(t, "w.cpp", "int f(int a) {\n  if (a) { g(a, h(1)); } else if (a > 2) { return 1; } else { k(); }\n  for (;;) { break; }\n  return a + 1;\n}\nstruct S { int x; void m() { x = 1; } };\n")
	ds := f.Tree.Root().Descendants()
	for i := range ds {
		from := &ds[i]
		for _, skip := range []func(n *Node, k int) bool{
			func(*Node, int) bool { return false },
			func(_ *Node, k int) bool { return k%3 == 2 },
			func(n *Node, _ int) bool { return n.Kind() == "if_statement" },
		} {
			var want, got []*Node
			walkByChildren(from, func(n *Node) bool { want = append(want, n); return !skip(n, len(want)-1) })
			from.Walk(func(n *Node) bool { got = append(got, n); return !skip(n, len(got)-1) })
			if !slices.Equal(got, want) {
				t.Fatalf("from %s at %d: walked %d nodes, want %d in the children's order", from.Kind(), from.Start, len(got), len(want))
			}
		}
	}
	var none *Node
	none.Walk(func(*Node) bool { t.Error("a nil node has nothing to walk"); return true })
}

// Walk over an else-if chain of 5000 links, each nested in the one before,
// stays within a 64 KB stack: a call per level took over 256 KB for this
// chain (MBs for the chains of a 2 MB file, in the callers' walks).
func TestWalkDeepChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("void f(int a) {\n  if (a == 0) { g(0); }\n")
	for i := 1; i < 5000; i++ {
		fmt.Fprintf(&b, "  else if (a == %d) { g(%d); }\n", i, i)
	}
	b.WriteString("}\n")
	f := parse(t, "deep.cpp", b.String())
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 10))
	ifs := 0
	f.Tree.Root().Walk(func(n *Node) bool {
		if n.Kind() == "if_statement" {
			ifs++
		}
		return true
	})
	if ifs != 5000 {
		t.Errorf("walked %d if statements, want 5000", ifs)
	}
}
