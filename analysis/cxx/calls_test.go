package cxx

import (
	"context"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestEnclosingDefinition checks the indexed lookup against the walk up it
// replaces, on every node of functions holding lambdas and local classes.
func TestEnclosingDefinition(t *testing.T) {
	src := `
void outer(int x) {
  auto f = [&](int y) { auto g = [=] { return y + x; }; return g(); };
  struct Local { int m(int z) { auto h = [z] { return z; }; return h(); } };
  if (x) { f(x); }
}
int g = [] { return 1; }();
`
	f, err := grammar.ParseFile(context.Background(), nil, "e.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if got, want := EnclosingDefinition(n), n.Ancestor("function_definition"); got != want {
			t.Errorf("node %d %s %q: got %v, want %v", i, n.Kind(), n.Text(), got, want)
		}
	}
}
