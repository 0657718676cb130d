package grammar

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestDumpFile(t *testing.T) {
	path := os.Getenv("DUMP")
	if path == "" {
		t.Skip("set DUMP=file to print its tree")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFile(context.Background(), nil, path, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + Dump(f.Tree.Root()))
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() == "call_expression" || n.Kind() == "subscript_expression" || n.Kind() == "pointer_expression" {
			t.Logf("%s %q cores=%s", n.Kind(), n.Text(), f.CoresOf(n))
		}
	}
}

// Dump renders a node as an S-expression with field names, for debugging and
// tests.
func Dump(n *Node) string {
	var b strings.Builder
	var rec func(n *Node, depth int)
	rec = func(n *Node, depth int) {
		b.WriteString(strings.Repeat("  ", depth))
		if n.Field() != "" {
			b.WriteString(n.Field() + ": ")
		}
		b.WriteString("(" + n.Kind())
		if n.FirstChild() == nil {
			b.WriteString(" " + strings.ReplaceAll(n.Text(), "\n", "\\n"))
		}
		b.WriteString(")\n")
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if c.IsNamed() {
				rec(c, depth+1)
			}
		}
	}
	rec(n, 0)
	return b.String()
}
