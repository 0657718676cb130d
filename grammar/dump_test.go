package grammar

import (
	"context"
	"os"
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
