package cxx

import (
	"context"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestScanMacros(t *testing.T) {
	src := `#include "kernel_operator.h"
#define SETUP(p, n) if ASCEND_IS_AIC { return; } \
  p.Init(n)
#define LEAVE_VEC if (g_coreType == AscendC::AIV) return
#define DRAIN() pipe_barrier(PIPE_ALL)
#define ONCE(x) do { if ASCEND_IS_AIC { return; } } while (0)
#define MAYBE(x) if (x) return
#define KB 1024
#define PASTE(a, b) a##b()
#ifdef __CPU_SIM
#define SIM_ONLY() return
#endif
`
	f, err := grammar.ParseFile(context.Background(), nil, "/k/m.h", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := ScanMacros(context.Background(), f)
	if len(ms.Shadows) == 0 {
		t.Fatalf("no shadow")
	}
	for _, sh := range ms.Shadows {
		if len(sh.Src) < len(src) || sh.MacroOf != f {
			t.Fatalf("a shadow shorter than the file")
		}
	}
	for _, tc := range []struct {
		name     string
		expanded bool
		exits    grammar.Cores
		params   int
	}{
		{"SETUP", true, grammar.AIC, 2},
		{"LEAVE_VEC", true, grammar.AIV, 0},
		{"DRAIN", true, grammar.None, 0},
		{"ONCE", true, grammar.AIC, 1},
		{"MAYBE", true, grammar.None, 1},
		{"KB", false, grammar.None, 0},
		{"PASTE", false, grammar.None, 2},
		{"SIM_ONLY", false, grammar.None, 0},
	} {
		m := ms.ByName[tc.name]
		if len(m) != 1 {
			t.Errorf("%s: %d definitions", tc.name, len(m))
			continue
		}
		if m[0].Expanded() != tc.expanded || m[0].Exits != tc.exits || len(m[0].Params) != tc.params {
			t.Errorf("%s: expanded %v exits %v params %v; want %v %v %d", tc.name, m[0].Expanded(), m[0].Exits, m[0].Params, tc.expanded, tc.exits, tc.params)
		}
		if m[0].Expanded() {
			// The body sits where the #define's body is.
			def := m[0].Def
			if body := def.ChildByField("body"); body.Start+1 != m[0].BodyStart {
				t.Errorf("%s: shadow body at %d, define body at %d", tc.name, body.Start+1, m[0].BodyStart)
			}
		}
	}
	if !ms.ByName["PASTE"][0].Opaque {
		t.Error("PASTE: a body pasting tokens is opaque")
	}
	// The drain's call in the shadow is the define's text.
	for i := range ms.Shadows[0].Tree.Nodes {
		n := &ms.Shadows[0].Tree.Nodes[i]
		if n.Kind() == "call_expression" && n.Text() == "pipe_barrier(PIPE_ALL)" {
			if string(f.Src[n.Start:n.End]) != n.Text() {
				t.Errorf("shadow call at %d..%d reads %q in the file", n.Start, n.End, f.Src[n.Start:n.End])
			}
			return
		}
	}
	t.Error("the drain's body has no call in the shadow")
}
