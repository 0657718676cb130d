package grammar

import (
	"bytes"
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
// `if ASCEND_IS_NOT_AIV { return; }` leaves on the cube only. The C API's
// ASC_IS_* aliases read the same, and an Ascend C source's host and
// workspace qualifiers parse.
func TestAscendIsNotWithoutParens(t *testing.T) {
	for _, src := range []string{
		"void k() {\n  if ASCEND_IS_NOT_AIV {\n    cube_only();\n  }\n  if ASCEND_IS_NOT_AIC { vec_only(); }\n  both();\n}\n",
		"__global__ __mix__(1, 2) void k(__kfc_workspace__ __gm__ uint8_t *w) {\n  if ASC_IS_NOT_AIV {\n    cube_only();\n  }\n" +
			"  if ASC_IS_NOT_AIC { vec_only(); }\n  both();\n}\n__host__ int main() { k<<<1, nullptr, nullptr>>>(nullptr); }\n",
	} {
		f, err := ParseFile(context.Background(), nil, "k.asc", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]Cores{"cube_only": AIC, "vec_only": AIV, "both": Both}
		for i := range f.Tree.Nodes {
			n := &f.Tree.Nodes[i]
			if n.Kind() != "call_expression" || n.EnclosingFunction() == nil || n.EnclosingFunction().ChildByField("declarator").Text() == "main()" {
				continue
			}
			name := n.ChildByField("function").Text()
			if got := f.CoresOf(n); got != want[name] {
				t.Errorf("%s: cores %v, want %v", name, got, want[name])
			}
		}
		for i := range f.Tree.Nodes {
			if n := &f.Tree.Nodes[i]; n.IsError() || n.IsMissing() {
				t.Errorf("%q does not parse: %s at %d", src, n.Kind(), n.Start)
			}
		}
	}
}

// A unit's core-valued macros select cores in a file that tests them, and
// a name a macro state leaves undefined reads as 0 in a condition.
func TestGuardsForUnit(t *testing.T) {
	src := []byte("#if ON_VEC\nint v;\n#endif\n#ifdef VEC_ONLY\nint f;\n#endif\n#if !ON_VEC\nint c;\n#endif\n#if GONE\nint g;\n#endif\n")
	g := ScanGuards(src)
	at := func(g *Guards, word string) Cores { return g.CoresAt(uint32(bytes.Index(src, []byte(word)))) }
	for _, w := range []string{"int v", "int f", "int c", "int g"} {
		if c := at(g, w); c != Both {
			t.Errorf("own guards: %q compiles on %v, want both (the macros are unknown)", w, c)
		}
	}
	u := g.ForUnit(map[string]bool{"GONE": false}, ArchNone, CoreValues{
		"ON_VEC":   {Val: [2]int64{0, 1}, Defined: [2]bool{true, true}},
		"VEC_ONLY": {Val: [2]int64{0, 1}, Defined: [2]bool{false, true}},
	})
	for w, want := range map[string]Cores{"int v": AIV, "int f": AIV, "int c": AIC, "int g": None} {
		if c := at(u, w); c != want {
			t.Errorf("unit guards: %q compiles on %v, want %v", w, c, want)
		}
	}
}
