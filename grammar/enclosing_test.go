package grammar

import (
	"context"
	"testing"
)

// EnclosingFunction answers what a walk up the parents answers, for every
// node: nested lambdas, functions after them, code outside any function.
func TestEnclosingFunction(t *testing.T) {
	src := `int g = 1;
void f(int a) {
  auto l = [&](int b) {
    auto m = [](int c) { return c; };
    return m(b) + a;
  };
  if (a) { l(a); } else if (a > 1) { return; }
}
struct S { void method() { int x = [] { return 2; }(); } };
void h() {}
`
	f, err := ParseFile(context.Background(), nil, "f.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	lambdas := 0
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() == "lambda_expression" {
			lambdas++
		}
		if got, want := n.EnclosingFunction(), n.Ancestor("function_definition", "lambda_expression"); got != want {
			t.Errorf("%s at %d: EnclosingFunction = %v, want %v", n.Kind(), n.Start, got, want)
		}
	}
	if lambdas != 3 {
		t.Fatalf("%d lambdas parsed, want 3", lambdas)
	}
}
