package cxx

import (
	"context"
	"slices"
	"testing"
	"unsafe"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestEnclosingDefinition checks the indexed lookup against the walk up it
// replaces, on every node of functions holding lambdas and local classes.
func TestEnclosingDefinition(t *testing.T) {
	src := `
void outer(int x) {
  auto f = [&](int y) { auto g = [=] { return y + x; }; return g(); };
  struct Local { int m(int z) { auto h = [z] { return z; }; return h(); } };
  if (x) { f(x); }
}
int g = [] { return 1; }();
`
	f, err := grammar.ParseFile(context.Background(), nil, "e.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if got, want := EnclosingDefinition(n), n.Ancestor("function_definition"); got != want {
			t.Errorf("node %d %s %q: got %v, want %v", i, n.Kind(), n.Text(), got, want)
		}
	}
}

// TestCallIndexNamed checks the index (calls ordered by name) against a
// scan that decodes every call, for names that prefix each other, called
// through scopes, templates and objects, and names no call has; and the
// call sites of a file's functions against a scan of their own calls.
func TestCallIndexNamed(t *testing.T) {
	src := `
void Set(int a) {}
void SetFlag(int a) { Set(a); }
template <int N> void SetValue() { AscendC::SetFlag<N>(1); }
void run(Obj o) {
  Set(1); SetFlag(2); o.SetValue(3); SetValue<4>(); ns::Set(5);
  auto l = [] { Set(6); };
  (fp)(7);
  SetFlag(8);
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "n.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	x := IndexCalls(f)
	names := []string{"Set", "SetFlag", "SetValue", "S", "SetFlags", "fp", "", "zzz"}
	for _, name := range names {
		var want []*grammar.Node
		for _, n := range f.Tree.OfKind("call_expression") {
			if c, ok := AsCall(n); ok && c.Name == name {
				want = append(want, n)
			}
		}
		if got := x.Named(name); !slices.Equal(got, want) {
			t.Errorf("Named(%q) = %d calls, want %d", name, len(got), len(want))
		}
	}
	if got, want := x.Named("SetValue", "Set", "SetValue"), x.Named("Set", "SetValue"); !slices.Equal(got, want) || len(got) != 6 {
		t.Errorf("Named(SetValue, Set, SetValue) = %d calls, want the 6 of Named(Set, SetValue)", len(got))
	}
	p := IndexFileFuncs(f)
	for _, name := range names {
		var want []siteRef
		for i, d := range p.defs {
			for _, n := range ownCalls(d.Node, d.Node.ChildByField("body").Inside(f.Tree.OfKind("call_expression"))) {
				if CallName(n) == name && name != "" {
					want = append(want, siteRef{uint32(n.Index()), int32(i)})
				}
			}
		}
		got := p.callSites(name)
		if !slices.Equal(got, want) {
			t.Errorf("callSites(%q) = %v, want %v", name, got, want)
		}
		for _, r := range got {
			if cs := p.site(r); CallName(cs.Call) != name || cs.Caller.Node != p.defs[r.def].Node || !cs.Caller.Node.Contains(cs.Call) {
				t.Errorf("callSites(%q): site %+v is not a call of it in its caller", name, cs)
			}
		}
	}
	// A file keeps a site for every call its functions make.
	if size := unsafe.Sizeof(siteRef{}); size != 8 {
		t.Errorf("a siteRef is %d bytes, want 8", size)
	}
}

// Params numbers the parameters in order; a Param is kept for every
// parameter of a unit's functions, so it stays at 48 bytes.
func TestParamsIndexAndSize(t *testing.T) {
	f := parseCPP(t, "k.cpp", "__aicore__ inline void h(__gm__ float *out, int64_t n, GlobalTensor<float> &g) {}\n")
	ps := Params(Functions(f)[0])
	if len(ps) != 3 || ps[0].Index != 0 || ps[2].Index != 2 || !ps[0].Pointer || ps[1].Pointer || ps[2].Name != "g" {
		t.Errorf("params: %+v", ps)
	}
	if size := unsafe.Sizeof(Param{}); size != 48 {
		t.Errorf("a Param is %d bytes, want 48", size)
	}
}
