package grammar

import (
	"context"
	"testing"
)

// TestCoresOfIndexMatchesWalk: the span index answers as the walk up
// through the core tests does, for every node of nested and chained tests.
func TestCoresOfIndexMatchesWalk(t *testing.T) {
	src := `void k() {
  if ASCEND_IS_AIV {
    a();
    if (g_coreType == AscendC::AIC) { dead(); } else { vec(); }
  } else if (x) {
    cube();
    if ASCEND_IS_AIC { c2(); }
  } else {
    other();
  }
  if (!ASCEND_IS_AIC) { v2(); } else if (y) { if ASCEND_IS_AIV { dead2(); } c3(); }
  both();
}
`
	f, err := ParseFile(context.Background(), nil, "k.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if got, want := f.CoresOf(n), f.Guards.CoresAt(n.Start)&coresUp(n); got != want {
			t.Errorf("%s %q at %d: index %v, walk %v", n.Kind(), n.Text(), n.Start, got, want)
		}
	}
}

// The negated macros select the other core without parentheses too:
// `if ASCEND_IS_NOT_AIV { return; }` leaves on the cube only.
func TestAscendIsNotWithoutParens(t *testing.T) {
	src := "void k() {\n  if ASCEND_IS_NOT_AIV {\n    cube_only();\n  }\n  if ASCEND_IS_NOT_AIC { vec_only(); }\n  both();\n}\n"
	f, err := ParseFile(context.Background(), nil, "k.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Cores{"cube_only": AIC, "vec_only": AIV, "both": Both}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() != "call_expression" {
			continue
		}
		name := n.ChildByField("function").Text()
		if got := f.CoresOf(n); got != want[name] {
			t.Errorf("%s: cores %v, want %v", name, got, want[name])
		}
	}
	for i := range f.Tree.Nodes {
		if n := &f.Tree.Nodes[i]; n.IsError() || n.IsMissing() {
			t.Errorf("the masked condition does not parse: %s at %d", n.Kind(), n.Start)
		}
	}
}
