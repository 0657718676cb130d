package cxx

import (
	"context"
	"maps"
	"slices"
	"strings"
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

// A pasting macro is read once per list of pasted arguments: its body
// expanded with them, the other parameters left as they are, at the
// offsets of the #define.
func TestPastedShadows(t *testing.T) {
	src := `#pragma once
// Pasting macros: a shadow writes each instance's function head over
// the text before the #define's body, so the first needs some.
#define SET_FLAG(trigger, waiter, e) AscendC::SetFlag<AscendC::HardEvent::trigger##_##waiter>((e))
#define PIPE_BARRIER(pipe) AscendC::PipeBarrier<PIPE_##pipe>()
#define NAMED(x) log(#x, x)
`
	f, err := grammar.ParseFile(context.Background(), nil, "/k/common.h", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	ms := ScanMacros(context.Background(), f)
	set, bar, named := ms.ByName["SET_FLAG"][0], ms.ByName["PIPE_BARRIER"][0], ms.ByName["NAMED"][0]
	if !slices.Equal(set.Pasted, []int{0, 1}) || !slices.Equal(bar.Pasted, []int{0}) || !slices.Equal(named.Pasted, []int{0}) {
		t.Fatalf("pasted: %v %v %v", set.Pasted, bar.Pasted, named.Pasted)
	}
	def := func(name string) *Macro {
		if ms := ms.ByName[name]; len(ms) > 0 {
			return ms[0]
		}
		return nil
	}
	uses := []PastedUse{
		{set, []string{"MTE2", "V", "EVENT_ID0"}},
		{bar, []string{"ALL"}},
		{bar, []string{"V"}},
		{set, []string{"V", "MTE3", "id"}},
	}
	// The same pasted arguments reach the same instance.
	if PastedName(set, uses[0].Args) != PastedName(set, []string{"MTE2", "V", "EVENT_ID7"}) || PastedName(bar, uses[1].Args) == PastedName(bar, uses[2].Args) {
		t.Error("instances are keyed by the pasted arguments alone")
	}
	want := map[string]string{
		PastedName(set, uses[0].Args): "AscendC::SetFlag<AscendC::HardEvent::MTE2_V>((e))",
		PastedName(set, uses[3].Args): "AscendC::SetFlag<AscendC::HardEvent::V_MTE3>((e))",
		PastedName(bar, uses[1].Args): "AscendC::PipeBarrier<PIPE_ALL>()",
		PastedName(bar, uses[2].Args): "AscendC::PipeBarrier<PIPE_V>()",
	}
	got := map[string]string{}
	for _, sh := range PastedShadows(context.Background(), uses, def) {
		if sh.MacroOf != f {
			t.Error("an instance's shadow is not of the defining file")
		}
		for _, fn := range Functions(sh) {
			stmts := namedNonComments(fn.ChildByField("body"))
			got[FunctionName(fn)] = strings.TrimSuffix(stmts[0].Text(), ";")
			if body := fn.ChildByField("body"); body.Start+1 != def(pastedBase(FunctionName(fn))).BodyStart {
				t.Errorf("%s: body at %d, not the #define's", FunctionName(fn), body.Start+1)
			}
			if len(Params(fn)) != len(def(pastedBase(FunctionName(fn))).Params) {
				t.Errorf("%s: %d parameters", FunctionName(fn), len(Params(fn)))
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("instances:\n got %v\nwant %v", got, want)
	}
	// The same instances asked for again (an edit elsewhere in the unit)
	// are the parses already made; others are parsed anew.
	first := PastedShadows(context.Background(), uses, def)
	if again := PastedShadows(context.Background(), uses, def); len(again) == 0 || again[0] != first[0] {
		t.Error("the same instances were parsed again")
	}
	if fewer := PastedShadows(context.Background(), uses[1:2], def); len(fewer) != 1 || fewer[0] == first[0] || len(Functions(fewer[0])) != 1 {
		t.Errorf("other instances: %d shadows", len(fewer))
	}
}
