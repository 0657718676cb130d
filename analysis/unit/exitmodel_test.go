package unit

import (
	"context"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// The exit model answers for every node as a walk up from it would,
// whichever nodes were asked first: its two states a byte are kept apart,
// and a block's scan records its children's answers.
func TestExitedBeforeAnyOrder(t *testing.T) {
	src := `#define LEAVE_ON_CUBE() if ASCEND_IS_AIC { return; }
extern "C" __global__ __aicore__ void k(__gm__ int64_t *args) {
  int a = 0;
  if ASCEND_IS_AIV {
    a = 1;
  }
  if ASCEND_IS_AIV { return; }
  a = 2;
  {
    a = 3;
    LEAVE_ON_CUBE();
    helper();
    a = 4;
  }
  a = 5;
}
__aicore__ void h() {
  int b = 0;
  if ASCEND_IS_AIC { return; }
  b = 1;
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "/k.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	answers := func(reverse bool) []grammar.Cores {
		u := NewStore().New(context.Background(), nil, f.Path, []*grammar.File{f}, nil, 0, "closure")
		out := make([]grammar.Cores, len(f.Tree.Nodes))
		for k := range f.Tree.Nodes {
			i := k
			if reverse {
				i = len(f.Tree.Nodes) - 1 - k
			}
			out[i] = u.ExitedBefore(f, &f.Tree.Nodes[i])
		}
		return out
	}
	fwd, rev := answers(false), answers(true)
	// A statement calling a function leaves nothing behind to remember.
	u := NewStore().New(context.Background(), nil, f.Path, []*grammar.File{f}, nil, 0, "closure")
	if got := u.Macros().Exits("helper"); got != grammar.None {
		t.Errorf("helper() exits on %v", got)
	}
	if got := u.Macros().Exits("LEAVE_ON_CUBE"); got != grammar.AIC {
		t.Errorf("LEAVE_ON_CUBE() exits on %v, want AIC", got)
	}
	if _, ok := u.Macros().exits["helper"]; ok || len(u.Macros().exits) != 1 {
		t.Errorf("exits remembers %v, want LEAVE_ON_CUBE alone", u.Macros().exits)
	}
	for i := range fwd {
		if fwd[i] != rev[i] {
			n := &f.Tree.Nodes[i]
			t.Errorf("node %d %s %q: %v asked first, %v asked last", i, n.Kind(), n.Text(), fwd[i], rev[i])
		}
	}
	at := func(text string) grammar.Cores {
		t.Helper()
		off := uint32(strings.Index(src, text))
		for i := range f.Tree.Nodes {
			if n := &f.Tree.Nodes[i]; n.Start == off && n.Kind() == "expression_statement" {
				return fwd[i]
			}
		}
		t.Fatalf("no statement %q", text)
		return 0
	}
	for text, want := range map[string]grammar.Cores{
		"a = 1;": grammar.None, "a = 2;": grammar.AIV, "a = 3;": grammar.AIV,
		"a = 4;": grammar.Both, "a = 5;": grammar.Both, "b = 1;": grammar.AIC,
	} {
		if got := at(text); got != want {
			t.Errorf("%s: exited %v, want %v", text, got, want)
		}
	}
}
