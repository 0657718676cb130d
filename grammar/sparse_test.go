package grammar

import (
	"context"
	"fmt"
	"testing"
)

// sparseText blanks src outside ranges (newlines kept), as a macro shadow is.
func sparseText(src string, ranges [][2]uint32) []byte {
	out := []byte(src)
	at := uint32(0)
	blankOut := func(a, b uint32) {
		for i := a; i < b; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	for _, r := range ranges {
		blankOut(at, r[0])
		at = r[1]
	}
	blankOut(at, uint32(len(out)))
	return out
}

// sameParse fails unless the two files have the same nodes and masks.
func sameParse(t *testing.T, name string, want, got *File) {
	t.Helper()
	if len(want.Tree.Nodes) != len(got.Tree.Nodes) {
		t.Fatalf("%s: %d nodes, want %d", name, len(got.Tree.Nodes), len(want.Tree.Nodes))
	}
	for i := range want.Tree.Nodes {
		a, b := &want.Tree.Nodes[i], &got.Tree.Nodes[i]
		if a.Kind() != b.Kind() || a.Start != b.Start || a.End != b.End || a.parent() != b.parent() || a.last() != b.last() || a.field() != b.field() || a.flags() != b.flags() {
			t.Fatalf("%s: node %d is %s [%d,%d) parent %d last %d, want %s [%d,%d) parent %d last %d", name, i, b.Kind(), b.Start, b.End, b.parent(), b.last(), a.Kind(), a.Start, a.End, a.parent(), a.last())
		}
	}
	if fmt.Sprint(want.Masks) != fmt.Sprint(got.Masks) {
		t.Fatalf("%s: masks %v, want %v", name, got.Masks, want.Masks)
	}
}

func TestParseSparseAsWhole(t *testing.T) {
	src := "#define X 1\n" +
		"  void A(auto p){ __gm__ float* x = p; x[0] = 1; ;}\n" +
		"\n\n" +
		"void B(){ if ASCEND_IS_AIC { return; } ;}   \n" +
		"int y;\n" +
		"void C(auto a,auto b){ CHECK(a, return); pipe_barrier(PIPE_ALL) ;}"
	a := uint32(12 + 2)
	b := uint32(len("#define X 1\n  void A(auto p){ __gm__ float* x = p; x[0] = 1; ;}"))
	c := b + 3
	d := c + uint32(len("void B(){ if ASCEND_IS_AIC { return; } ;}"))
	e := uint32(len(src)) - uint32(len("void C(auto a,auto b){ CHECK(a, return); pipe_barrier(PIPE_ALL) ;}"))
	for _, ranges := range [][][2]uint32{
		{{a, b}},
		{{a, b}, {c, d}},
		{{a, b}, {c, d}, {e, uint32(len(src))}},
		{{c, d}, {e, uint32(len(src))}},
		{{a, a + 10}, {e, e + 20}}, // broken bodies: errors recovered alike
	} {
		text := sparseText(src, ranges)
		want, err := ParseFile(context.Background(), nil, "x.cpp", text, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseSparse(context.Background(), "x.cpp", text, ranges)
		if err != nil {
			t.Fatal(err)
		}
		sameParse(t, fmt.Sprint(ranges), want, got)
	}
}
