package cxx

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

const barriersHeader = `#pragma once
__aicore__ inline void leaf() { AscendC::SyncAll<false>(); }
__aicore__ inline void mid() { leaf(); }
__aicore__ inline void loop_a() { loop_b(); }
__aicore__ inline void loop_b() { loop_a(); }
__aicore__ inline void vec_only() {
#ifdef __DAV_C220_VEC__
  leaf();
#endif
}
struct K {
  AscendC::TPipe pipe;
  AscendC::GlobalTensor<half> outGm, inGm;
  __gm__ float *raw;
  AscendC::TPipe *borrowed;
};
`

const barriersSrc = `#include "b.h"
extern "C" __aicore__ void entry(__gm__ int64_t *args) {
  uint32_t blk = get_block_idx(args);
  if (blk >= 20) {
    return;
  }
  for (int i = 0; i < 4; ++i) {
    if (i == blk && ok()) work();
  }
  int used = cond ? a() : b();
  mid();
  loop_a();
  vec_only();
}
`

func findNode(t *testing.T, f *grammar.File, kind, text string) *grammar.Node {
	t.Helper()
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() == kind && n.Text() == text {
			return n
		}
	}
	t.Fatalf("no %s %q", kind, text)
	return nil
}

func TestFuncsReach(t *testing.T) {
	hdr := parse(t, "/w/b.h", barriersHeader)
	src := parse(t, "/w/e.cpp", barriersSrc)
	fs := IndexFunctions(src, hdr)
	if got := len(fs.All()); got != 6 {
		t.Fatalf("indexed %d functions, want 6", got)
	}
	isSync := func(f *grammar.File, c Call) bool { return c.Name == "SyncAll" }
	entry := fs.Lookup("entry")[0]
	chain := fs.Reach(entry, grammar.Both, "sync", isSync)
	var names []string
	for _, h := range chain {
		c, _ := AsCall(h.Call)
		names = append(names, c.Name)
	}
	if strings.Join(names, ">") != "mid>leaf>SyncAll" {
		t.Errorf("chain = %v, want mid>leaf>SyncAll", names)
	}
	if chain[2].File != hdr {
		t.Errorf("the barrier is in the header, got %s", chain[2].File.Path)
	}
	// Mutual recursion terminates and finds nothing.
	if c := fs.Reach(fs.Lookup("loop_a")[0], grammar.Both, "sync", isSync); c != nil {
		t.Errorf("loop_a reaches %v", c)
	}
	// A call only the vector core compiles reaches the barrier on AIV only.
	vec := fs.Lookup("vec_only")[0]
	if fs.Reach(vec, grammar.AIC, "sync", isSync) != nil {
		t.Error("vec_only reaches a barrier on the cube")
	}
	if fs.Reach(vec, grammar.AIV, "sync", isSync) == nil {
		t.Error("vec_only does not reach its barrier on the vector core")
	}
	// The misses remembered share one answer; a hit keeps its chain.
	misses, hits := 0, 0
	for k, r := range fs.memo {
		switch {
		case r.hop.Call == nil && r != noReach:
			t.Errorf("the miss of %s has an answer of its own", FunctionName(k.fn))
		case r.hop.Call == nil:
			misses++
		default:
			hits++
		}
	}
	if misses == 0 || hits == 0 {
		t.Errorf("%d misses and %d hits remembered, want some of each", misses, hits)
	}
	if again := fs.Reach(vec, grammar.AIC, "sync", isSync); again != nil {
		t.Error("vec_only reaches a barrier on the cube when asked again")
	}
	// Depth bound: a zero-depth CallReaches sees only the call itself.
	midCall := findNode(t, src, "call_expression", "mid()")
	if fs.CallReaches(src, midCall, grammar.Both, "sync", isSync, 0) != nil {
		t.Error("depth 0 followed the call")
	}
}

func TestFuncsTypes(t *testing.T) {
	hdr := parse(t, "/w/b.h", barriersHeader)
	fs := IndexFunctions(hdr)
	if got := fs.TypesOf("inGm"); len(got) != 1 || got[0] != "AscendC::GlobalTensor<half>" {
		t.Errorf("TypesOf(inGm) = %q", got)
	}
	if got := fs.TypesOf("raw"); len(got) != 1 || got[0] != "float *" {
		t.Errorf("TypesOf(raw) = %q", got)
	}
	if got := fs.FieldTypes("K"); len(got) != 4 || got[0] != "AscendC::TPipe" || got[3] != "AscendC::TPipe *" {
		t.Errorf("FieldTypes(K) = %q", got)
	}
}

// memoFuncs is FileFacts that keeps each parse's function index, as the
// unit store does.
type memoFuncs struct {
	FileFacts
	m map[*grammar.File]*FileFuncs
}

func (mf memoFuncs) Funcs(f *grammar.File) *FileFuncs {
	if mf.m[f] == nil {
		mf.m[f] = IndexFileFuncs(f)
	}
	return mf.m[f]
}

// TestTypesAfterAnEdit: a unit made again after an edit inside a function
// body reads the declarations of the edited file alone (the header's
// share keeps the types it read for the unit before), and answers as a
// unit made from scratch.
func TestTypesAfterAnEdit(t *testing.T) {
	const hdr = "struct K { AscendC::TPipe pipe; float *raw; };\n__gm__ float *raw;\n"
	const entry = "void f() {\n  AscendC::GlobalTensor<half> raw;\n%s}\n"
	h := parse(t, "/w/k.h", hdr)
	mf := memoFuncs{Direct, map[*grammar.File]*FileFuncs{}}
	before := FuncsOf(mf, parse(t, "/w/e.cpp", fmt.Sprintf(entry, "")), h)
	if got := before.TypesOf("raw"); !slices.Equal(got, []string{"AscendC::GlobalTensor<half>", "float *"}) {
		t.Fatalf("TypesOf(raw) = %q", got)
	}
	read := mf.m[h].types
	edited := parse(t, "/w/e.cpp", fmt.Sprintf(entry, "  uint32_t raw = 0;\n"))
	after := FuncsOf(mf, edited, h)
	want := []string{"AscendC::GlobalTensor<half>", "uint32_t", "float *"}
	if got := after.TypesOf("raw"); !slices.Equal(got, want) {
		t.Errorf("after the edit TypesOf(raw) = %q, want %q", got, want)
	}
	if got := IndexFunctions(edited, h).TypesOf("raw"); !slices.Equal(got, want) {
		t.Errorf("from scratch TypesOf(raw) = %q, want %q", got, want)
	}
	if got := after.FieldTypes("K"); !slices.Equal(got, []string{"AscendC::TPipe", "float *"}) {
		t.Errorf("FieldTypes(K) = %q", got)
	}
	if reflect.ValueOf(mf.m[h].types).UnsafePointer() != reflect.ValueOf(read).UnsafePointer() {
		t.Error("the unchanged header's declarations were read again")
	}
}

func TestConditions(t *testing.T) {
	src := parse(t, "/w/e.cpp", barriersSrc)
	fn := Functions(src)[0]
	kinds := func(n *grammar.Node) string {
		var ks []string
		for _, c := range Conditions(n, fn) {
			ks = append(ks, c.Kind()+":"+ConditionOf(c).Text())
		}
		return strings.Join(ks, ", ")
	}
	ret := findNode(t, src, "return_statement", "return;")
	if got := kinds(ret); got != "if_statement:blk >= 20" {
		t.Errorf("return: %s", got)
	}
	work := findNode(t, src, "call_expression", "work()")
	if got := kinds(work); got != "if_statement:i == blk && ok(), for_statement:i < 4" {
		t.Errorf("work(): %s", got)
	}
	ok := findNode(t, src, "call_expression", "ok()")
	if got := kinds(ok); got != "binary_expression:i == blk, for_statement:i < 4" {
		t.Errorf("ok(): %s", got)
	}
	b := findNode(t, src, "call_expression", "b()")
	if got := kinds(b); got != "conditional_expression:cond" {
		t.Errorf("b(): %s", got)
	}
	if got := kinds(findNode(t, src, "call_expression", "mid()")); got != "" {
		t.Errorf("mid(): %s", got)
	}
}

func TestLineHelpers(t *testing.T) {
	src := []byte("a;\n\t  x = 1; // c\nb;")
	off := uint32(strings.Index(string(src), "x"))
	if in, alone := LineIndent(src, off); in != "\t  " || !alone {
		t.Errorf("LineIndent = %q %v", in, alone)
	}
	if in, alone := LineIndent(src, off+2); in != "\t  " || alone {
		t.Errorf("LineIndent mid-line = %q %v", in, alone)
	}
	if LineStart(src, off) != 3 || LineEnd(src, off) != uint32(strings.Index(string(src), "b")) {
		t.Errorf("LineStart/LineEnd = %d/%d", LineStart(src, off), LineEnd(src, off))
	}
	if LineEnd(src, uint32(len(src)-1)) != uint32(len(src)) {
		t.Error("LineEnd at EOF")
	}
}

func TestFuncsCallees(t *testing.T) {
	src := parse(t, "/w/k.cpp", `template <bool R> struct Kernel {
  __aicore__ inline void operator()(int p) { AscendC::SyncAll<false>(); }
};
struct Other { void operator()(int p); };
void Other::operator()(int p) {}
void entry() {
  Kernel<true> kernel;
  Other other;
  kernel(1);
  other(2);
  unknown(3);
}
`)
	fs := IndexFunctions(src)
	for text, want := range map[string]string{"kernel(1)": "Kernel", "other(2)": "Other", "unknown(3)": ""} {
		c, _ := AsCall(findNode(t, src, "call_expression", text))
		defs := fs.Callees(c)
		got := ""
		if len(defs) == 1 {
			got = ClassOf(defs[0].Node)
		} else if len(defs) > 1 {
			got = "many"
		}
		if got != want {
			t.Errorf("Callees(%s) = %q, want %q", text, got, want)
		}
	}
}

// A chain through more helpers than maxChain keeps its first hops and the
// match, asked from any helper of the chain, and a call's chain starts
// with the call.
func TestReachLongChain(t *testing.T) {
	const n = 12
	var b strings.Builder
	b.WriteString("__aicore__ inline void h12() { AscendC::SyncAll(); }\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "__aicore__ inline void h%d() { other(); h%d(); }\n", i, i+1)
	}
	f := parse(t, "/w/chain.cpp", b.String())
	fs := IndexFunctions(f)
	isSync := func(f *grammar.File, c Call) bool { return c.Name == "SyncAll" }
	names := func(chain []Hop) string {
		var out []string
		for _, h := range chain {
			out = append(out, CallName(h.Call))
		}
		return strings.Join(out, ">")
	}
	// From the deepest helper up, so that each answer is built on the
	// memoized answer of the helper it calls.
	for i := n; i >= 0; i-- {
		var want []string
		for j := i + 1; j <= n; j++ {
			want = append(want, fmt.Sprintf("h%d", j))
		}
		want = append(want, "SyncAll")
		if len(want) > maxChain {
			want = append(want[:maxChain-1], "SyncAll")
		}
		if got := names(fs.Reach(fs.Lookup(fmt.Sprintf("h%d", i))[0], grammar.Both, "sync", isSync)); got != strings.Join(want, ">") {
			t.Errorf("h%d: chain %s, want %s", i, got, strings.Join(want, ">"))
		}
	}
	call := findNode(t, f, "call_expression", "h1()")
	got := fs.CallReaches(f, call, grammar.Both, "sync", isSync, MaxCallDepth)
	if names(got) != "h1>h2>h3>h4>h5>h6>SyncAll" {
		t.Errorf("CallReaches(h1()) = %s", names(got))
	}
	if !fs.CallReachesAny(f, call, grammar.Both, "sync", isSync, MaxCallDepth) {
		t.Error("CallReachesAny(h1()) = false")
	}
	if other := findNode(t, f, "call_expression", "other()"); fs.CallReachesAny(f, other, grammar.Both, "sync", isSync, MaxCallDepth) {
		t.Error("CallReachesAny(other()) = true")
	}
}

// IndexFunctions indexes every function definition of the files.
func IndexFunctions(files ...*grammar.File) *Funcs { return FuncsOf(Direct, files...) }
