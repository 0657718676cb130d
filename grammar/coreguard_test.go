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
