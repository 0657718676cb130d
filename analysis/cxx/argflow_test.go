package cxx

import (
	"fmt"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

const argflowSrc = `
__aicore__ inline void leaf(__gm__ uint8_t *sync, int mode) {
  if (sync != nullptr) { mark_a(); }
  if (mode == 2) { mark_b(); }
  if (mode == 3) { mark_c(); }
  if (!sync && mode > 0) { mark_d(); }
}
__aicore__ inline void middle(__gm__ uint8_t *sync, int mode, int n = 0) {
  if (sync == nullptr || n == 0) {
    mark_e();
    return;
  }
  mark_f();
  leaf(sync, mode);
  for (int i = 0; i < n; ++i) { mark_g(); }
}
__aicore__ inline void moved(__gm__ uint8_t *sync) {
  sync = get_sync();
  if (sync != nullptr) { mark_h(); }
}
__aicore__ inline int spin(int k) {
  if (k == 0) { mark_i(); return 0; }
  return spin(k - 1);
}
struct CubeArgs {
  __aicore__ inline void Set(__gm__ uint8_t *sync, int n) { if (sync != nullptr) { mark_j(); } }
};
struct VecArgs {
  __aicore__ inline void Set(int n, __gm__ uint8_t *sync) { if (sync != nullptr) { mark_k(); } }
};
extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  cube.Set(nullptr, args[0]);
  middle(nullptr, 2);
  middle(nullptr, 3, 4);
  leaf(nullptr, 2);
  moved(nullptr);
  spin(3);
}
`

func TestDeadForEveryCall(t *testing.T) {
	f := parseCPP(t, "e.cpp", argflowSrc)
	s := Summarize(nil, f)
	cases := []struct {
		call string
		dead bool
		why  string
	}{
		{"mark_a()", true, "every call passes nullptr, directly or through middle's own nullptr"},
		{"mark_b()", false, "one call passes mode 2"},
		{"mark_c()", true, "leaf is reached only from middle's dead tail and directly with 2"},
		{"mark_d()", false, "!sync && mode > 0 holds for the direct call"},
		{"mark_e()", false, "the early-exit branch runs"},
		{"mark_f()", true, "after `if (sync == nullptr || n == 0) return;` with sync null"},
		{"mark_g()", true, "the loop is after the early exit"},
		{"mark_h()", false, "sync is reassigned before the test"},
		{"mark_i()", false, "k is not constant through the recursion"},
		// A call names every method of its name; each binds its own
		// parameters (vec.Set passes 1 for CubeArgs::Set's sync).
		{"mark_j()", true, "cube.Set passes nullptr for CubeArgs::Set's sync"},
		{"mark_k()", false, "cube.Set may call VecArgs::Set, whose sync is args[0]"},
	}
	for _, c := range cases {
		n := findNode(t, f, "call_expression", c.call)
		if got := s.NeverRuns(n); got != c.dead {
			t.Errorf("%s: NeverRuns = %v, want %v (%s)", c.call, got, c.dead, c.why)
		}
	}
	// Asked in the other order, the answers stay the same: nothing cut
	// short by recursion is memoized.
	s = Summarize(nil, f)
	for i := len(cases) - 1; i >= 0; i-- {
		n := findNode(t, f, "call_expression", cases[i].call)
		if got := s.NeverRuns(n); got != cases[i].dead {
			t.Errorf("reversed order: %s: NeverRuns = %v, want %v", cases[i].call, got, cases[i].dead)
		}
	}
}

const argflowGuardedHeader = `#pragma once
__aicore__ inline void body(__gm__ uint8_t *sync) {
  if (sync != nullptr) { reset(sync); }
}
#ifndef NO_NATIVE
extern "C" __global__ __aicore__ void native(__gm__ uint8_t *sync) { body(sync); }
#endif
`

const argflowGuardedEntry = `#define NO_NATIVE
#include "b.h"
extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) { body(nullptr); }
`

func TestDeadForEveryCallUnitGuards(t *testing.T) {
	h := parseCPP(t, "/w/b.h", argflowGuardedHeader)
	e := parseCPP(t, "/w/e.cpp", argflowGuardedEntry)
	reset := findNode(t, h, "call_expression", "reset(sync)")
	if Summarize(nil, e, h).NeverRuns(reset) {
		t.Error("under the header's own guards the native entry passes a real pointer")
	}
	unit := guardedUnit{FileFacts: Direct, h: h, cut: grammar.ScanGuardsWith(h.Src, map[string]bool{"NO_NATIVE": true})}
	if !Summarize(unit, e, h).NeverRuns(reset) {
		t.Error("the unit compiles the native entry out: the only call passes nullptr")
	}
}

// guardedUnit compiles header h under the guards cut.
type guardedUnit struct {
	FileFacts
	h   *grammar.File
	cut *grammar.Guards
}

func (u guardedUnit) IncludeGuards(f *grammar.File) *grammar.Guards {
	if f == u.h {
		return u.cut
	}
	return f.Guards
}

// The tests of a function's parameters and its local names, made again
// for a function asked about after manyFns others, give the same answers.
func TestDeadForEveryCallMadeAgain(t *testing.T) {
	var b strings.Builder
	b.WriteString(argflowSrc)
	n := manyFns + 4
	for i := range n {
		fmt.Fprintf(&b, "__aicore__ inline void pad%d(int m) {\n  int x = m;\n  if (m) { mark_p(); }\n  if (x) { mark_q(); }\n}\n", i)
	}
	b.WriteString("extern \"C\" __global__ __aicore__ void pads(__gm__ int64_t *args) {\n")
	for i := range n {
		fmt.Fprintf(&b, "  pad%d(0);\n", i)
	}
	b.WriteString("}\n")
	f := parseCPP(t, "e.cpp", b.String())
	s := Summarize(nil, f)
	var marks []*grammar.Node
	for i := range f.Tree.Nodes {
		if c := &f.Tree.Nodes[i]; c.Kind() == "call_expression" && strings.HasPrefix(c.Text(), "mark_") {
			marks = append(marks, c)
		}
	}
	want := make([]bool, len(marks))
	dead := map[string]int{}
	for i, m := range marks {
		want[i] = s.NeverRuns(m)
		if want[i] {
			dead[m.Text()]++
		}
	}
	if dead["mark_p()"] != n || dead["mark_q()"] != 0 {
		t.Fatalf("dead: %v; want every mark_p (m is 0), no mark_q (x is a local)", dead)
	}
	for i := len(marks) - 1; i >= 0; i-- {
		if got := s.NeverRuns(marks[i]); got != want[i] {
			t.Errorf("%s at %d: asked again, NeverRuns = %v, want %v", marks[i].Text(), marks[i].Start, got, want[i])
		}
	}
}

// A call that passes no constant skips nothing, and keeps no entry: it
// is answered again from the function's tests and the call's binding.
func TestCallDeadKeepsOnlyKnown(t *testing.T) {
	f := parseCPP(t, "e.cpp", argflowSrc+`
extern "C" __global__ __aicore__ void other(__gm__ int64_t *args) {
  leaf(args, args[1]);
}
`)
	s := Summarize(nil, f)
	leaf := Functions(f)[0]
	byCaller := map[string]CallSite{}
	for _, cs := range s.sitesOf(leaf, false) {
		byCaller[FunctionName(cs.Caller.Node)] = cs
	}
	opaque, direct := byCaller["other"], byCaller["kernel_entry"]
	if opaque.Call == nil || direct.Call == nil {
		t.Fatalf("callers of leaf: %v", byCaller)
	}
	for range 2 {
		if sp := s.callDead(leaf, opaque.Call, opaque.Caller.Node); sp != nil {
			t.Errorf("leaf(args, args[1]) skips %v", sp)
		}
		if sp := s.callDead(leaf, direct.Call, direct.Caller.Node); len(sp) == 0 {
			t.Error("leaf(nullptr, 2) skips nothing")
		}
	}
	if _, ok := s.args().dead[calleeCall{leaf, opaque.Call}]; ok {
		t.Error("an entry is kept for a call passing no constant")
	}
	if _, ok := s.args().dead[calleeCall{leaf, direct.Call}]; !ok {
		t.Error("no entry is kept for leaf(nullptr, 2)")
	}
}
