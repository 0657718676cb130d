package cxx

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

func TestResolver(t *testing.T) {
	hdr := `#pragma once
#define FLAG_BASE 4
#define FLAG_MIX (FLAG_BASE + 2)
enum Flags : uint16_t { kA, kB, kC = 9, kD };
namespace cfg { constexpr int32_t kShift = 8; }
struct Ids { static constexpr uint16_t kReady = 12; };
`
	src := `constexpr uint16_t kLocal = 3;
const int kNeg = -kLocal;
void f() {
  use(1);
  use(0x10 | 1);
  use(kLocal);
  use(kNeg);
  use(FLAG_MIX);
  use(kD);
  use(Flags::kB);
  use(1 << cfg::kShift);
  use(Ids::kReady);
  use(static_cast<uint16_t>(kC));
  use(0x1 | (2 << 4) | (11 << 8));
  use(unknown_thing);
  use(WithRope ? 17 : 7);
  use(true ? 1 : 2);
  use(10'000u);
}
`
	parse := func(path, text string) *grammar.File {
		f, err := grammar.ParseFile(context.Background(), nil, path, []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	h, f := parse("h.hpp", hdr), parse("f.cpp", src)
	r := NewResolver(h, f)
	want := [][]int64{{1}, {17}, {3}, {-3}, {6}, {10}, {1}, {256}, {12}, {9}, {0x1 | 2<<4 | 11<<8}, nil, {17, 7}, {1}, {10000}}
	i := 0
	for j := range f.Tree.Nodes {
		n := &f.Tree.Nodes[j]
		c, ok := AsCall(n)
		if !ok || c.Name != "use" {
			continue
		}
		got := r.EvalAll(c.Args[0])
		if i >= len(want) {
			t.Fatalf("more calls than expected")
		}
		if len(got) != len(want[i]) {
			t.Errorf("%s = %v, want %v", c.Args[0].Text(), got, want[i])
		} else {
			for k := range got {
				if got[k] != want[i][k] {
					t.Errorf("%s = %v, want %v", c.Args[0].Text(), got, want[i])
				}
			}
		}
		i++
	}
	if i != len(want) {
		t.Errorf("saw %d calls, want %d", i, len(want))
	}
}

// An enumerator valued from another file's constant is valued where the
// files are joined, per resolver: the file's share is not changed by it.
func TestResolverEnumAcrossFiles(t *testing.T) {
	parse := func(path, text string) *grammar.File {
		f, err := grammar.ParseFile(context.Background(), nil, path, []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a4 := parse("a.hpp", "constexpr int kBase = 4;\n")
	a7 := parse("a2.hpp", "#define kBase 7\n")
	e := parse("e.hpp", "enum Ev { kX = kBase, kY, kZ, kLit = 1 << 3, kNext };\nenum { kFar = kZ + 10 };\n")
	share := IndexConsts(e)
	for _, tc := range []struct {
		base *grammar.File
		want map[string]int64
	}{
		{a4, map[string]int64{"kX": 4, "kY": 5, "kZ": 6, "kLit": 8, "kNext": 9, "kFar": 16}},
		{a7, map[string]int64{"kX": 7, "kY": 8, "kZ": 9, "kLit": 8, "kNext": 9, "kFar": 19}},
	} {
		r := JoinConsts(IndexConsts(tc.base), share)
		for name, want := range tc.want {
			if got, ok := r.EvalText(name); !ok || got != want {
				t.Errorf("with %s: %s = %d, %v; want %d", tc.base.Path, name, got, ok, want)
			}
			if ds := r.Lookup(name); len(ds) != 1 || !ds[0].Impl || ds[0].Value != want {
				t.Errorf("with %s: %s's definition is not valued %d: %+v", tc.base.Path, name, want, ds)
			}
		}
	}
	// Alone, the enumerators naming an unknown constant have no value.
	r := JoinConsts(share)
	if v, ok := r.EvalText("kY"); ok {
		t.Errorf("kY = %d without kBase", v)
	}
	if v, ok := r.EvalText("kNext"); !ok || v != 9 {
		t.Errorf("kNext = %d, %v; want 9", v, ok)
	}
}

func TestCallsAndParams(t *testing.T) {
	src := `extern "C" __global__ __aicore__ void entry(__gm__ int64_t *args) { AscendC::SyncAll<false>(); obj.Get<int>(1, 2); }
template <bool R> __aicore__ inline void run(__gm__ int64_t *args, int32_t n) {}
void host(int64_t *args) {}
`
	f, err := grammar.ParseFile(context.Background(), nil, "e.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, helpers := Entries(f)
	if len(entries) != 1 || FunctionName(entries[0]) != "entry" || len(helpers) != 1 || FunctionName(helpers[0]) != "run" {
		t.Fatalf("entries %d helpers %d", len(entries), len(helpers))
	}
	p, ok := ArgsParam(f, helpers[0])
	if !ok || p.Name != "args" || p.Index != 0 {
		t.Errorf("args param %+v", p)
	}
	var calls []Call
	for i := range f.Tree.Nodes {
		if c, ok := AsCall(&f.Tree.Nodes[i]); ok {
			calls = append(calls, c)
		}
	}
	if len(calls) != 2 {
		t.Fatalf("calls %d", len(calls))
	}
	if c := calls[0]; c.Name != "SyncAll" || c.Qualified != "AscendC::SyncAll" || !c.HasTArgs || len(c.TArgs) != 1 || !c.InNamespace("AscendC") {
		t.Errorf("SyncAll call %+v", c)
	}
	if c := calls[1]; c.Name != "Get" || c.Receiver == nil || c.Receiver.Text() != "obj" || len(c.Args) != 2 {
		t.Errorf("method call %+v", c)
	}
}

// A name defined in two namespaces takes the definition the use sees: its
// qualification, a `using namespace` before it in its blocks, or the
// namespace around it; with none of these it stays ambiguous.
func TestResolverNamespaces(t *testing.T) {
	src := `namespace cube { constexpr int kReady = 4; }
namespace vec { constexpr int kReady = 6; void g() { use(kReady); } }
void f() {
  use(vec::kReady);
  {
    using namespace cube;
    use(kReady);
  }
  use(kReady);
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "ns.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(f)
	want := []string{"[6]", "[6]", "[4]", "[6 4]"}
	var got []string
	for j := range f.Tree.Nodes {
		if c, ok := AsCall(&f.Tree.Nodes[j]); ok && c.Name == "use" {
			got = append(got, fmt.Sprint(r.EvalAll(c.Args[0])))
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// A class template's constant member named through an instance is valued
// with the class's parameters bound to the arguments written, else to their
// defaults; unbound, it stays unknown.
func TestResolverTemplateMember(t *testing.T) {
	src := `constexpr int kFlagBase = 8;
template <int kBase, int kSlots = 2>
struct Ring {
  static constexpr int kReady = kBase + kSlots * 2;
  static constexpr int kFree = kReady + 1;
};
template <typename T, int kLine = 64>
class Pad { public: static constexpr int kWords = kLine / 4; };
struct Plain { static constexpr int kFree = 3; };
using Flags = Ring<kFlagBase, 1>;
typedef Pad<int, 128> Wide;
void f() {
  use(Ring<kFlagBase>::kReady);
  use(Ring<4, 1>::kFree);
  use(Pad<float>::kWords);
  use(Ring<>::kReady);
  use(kReady);
  use(Flags::kFree);
  use(Wide::kWords);
}
`
	checkUses(t, src, []string{"[12]", "[7]", "[16]", "[]", "[]", "[11]", "[32]"}, true)
}

// Flag ids a ring picks per slot: an element of a constant array, a
// function returning one expression (its template arguments bound), a
// slot `it % kStages`, and a class member `= 0` (which tree-sitter reads
// as a pure virtual clause).
func TestResolverSlotIDs(t *testing.T) {
	src := `constexpr int kStages = 3;
constexpr uint16_t kReady0 = 4, kReady1 = 6;
struct Ring {
  static constexpr uint16_t kReady[2] = {0, 1};
  static constexpr uint16_t kZero = 0;
  uint32_t count = 0;
};
constexpr int kTable[] = {7, kStages + 5, 9};
int kRuntime[2];
inline uint16_t ReadyOf(uint32_t slot) { return slot == 0 ? kReady0 : kReady1; }
inline uint16_t FreeOf(uint32_t slot) { return 11 + slot; }
inline uint16_t Busy(uint32_t slot) { Log(slot); return slot; }
template <int N> inline int Shifted(int x) { return N + x; }
void f(int it, uint32_t slot) {
  use(Ring::kReady[slot]);
  use(Ring::kReady[1]);
  use(kTable[1]);
  use(kTable[it]);
  use(kRuntime[0]);
  use(ReadyOf(slot));
  use(ReadyOf(1));
  use(FreeOf(it % kStages));
  use(Busy(1));
  use(Shifted<2>(1));
  use(it % kStages);
  use(it & 1);
  use(cfg & 0xF);
  use((cfg >> 8) % 16);
  use(it % 64);
  use(Ring::kZero);
}
`
	checkUses(t, src, []string{"[0 1]", "[1]", "[8]", "[7 8 9]", "[]", "[4 6]", "[6]", "[11 12 13]", "[]", "[3]", "[0 1 2]", "[0 1]", "[]", "[]", "[]", "[0]"}, true)
}

// A static member function of a class template called through an
// instance or its alias reads the class's parameters at that instance.
func TestResolverTemplateMemberCall(t *testing.T) {
	src := `template <uint32_t kDepth, uint32_t kBase = 7>
struct AccRing {
    static constexpr uint32_t kStages = kDepth;
    static constexpr uint16_t kFreeBase = kBase + kDepth;
    __aicore__ static inline uint16_t Free(uint32_t stage) { return kFreeBase + stage; }
};
using Ring = AccRing<3>;
void f(uint32_t i) { use(Ring::Free(1)); use(AccRing<2, 0>::Free(0)); use(Ring::Free(i % Ring::kStages)); }
`
	checkUses(t, src, []string{"[11]", "[2]", "[10 11 12]"}, false)
}

// An instance named under its namespace, and through an alias of an
// alias (`using Policy = grn::DefaultPolicy;` beside `using DefaultPolicy
// = RingPolicy<>;`), reads the class's parameters as the instance does.
func TestResolverTemplateAliasChain(t *testing.T) {
	src := `namespace grn {
template <uint32_t Tile_ = 128, uint32_t Stages_ = 2>
struct RingPolicy {
    static constexpr uint32_t kStages = Stages_;
    static constexpr uint16_t kRingBase = 11;
    static constexpr uint16_t Free(uint32_t slot) { return kRingBase + kStages + slot; }
};
using DefaultPolicy = RingPolicy<>;
}
using Policy = grn::DefaultPolicy;
using Deep = grn::RingPolicy<64, 3>;
void f(uint32_t it) { use(Policy::kStages); use(Policy::Free(it % Policy::kStages)); use(Deep::kStages); }
`
	checkUses(t, src, []string{"[2]", "[13 14]", "[3]"}, false)
}

// checkUses evaluates the argument of each `use(...)` call of src with a
// resolver over it, in order, against want; with all, the number of uses
// must match too.
func checkUses(t *testing.T, src string, want []string, all bool) {
	t.Helper()
	f, err := grammar.ParseFile(context.Background(), nil, "f.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(f)
	i := 0
	for j := range f.Tree.Nodes {
		c, ok := AsCall(&f.Tree.Nodes[j])
		if !ok || c.Name != "use" {
			continue
		}
		if got := fmt.Sprint(r.EvalAll(c.Args[0])); i < len(want) && got != want[i] {
			t.Errorf("%s = %s, want %s", c.Args[0].Text(), got, want[i])
		}
		i++
	}
	if all && i != len(want) {
		t.Errorf("saw %d calls, want %d", i, len(want))
	}
}

// `sizeof` of a scalar type (also one the parser reads as a variable,
// `sizeof(half)`) and of a pointer is a constant; of a struct or an
// array it is not known here.
func TestResolverSizeof(t *testing.T) {
	src := `struct S { int a; };
constexpr uint32_t kBytes = 32;
void f() {
  use(kBytes / sizeof(int32_t));
  use(sizeof(half));
  use(sizeof(int64_t *));
  use(sizeof(S));
  use(sizeof(const float));
  use(sizeof(int[4]));
}
`
	checkUses(t, src, []string{"[8]", "[2]", "[8]", "[]", "[4]", "[]"}, true)
}

// Constants defined in the branches of one #if group combine branch by
// branch: no compile sees one branch's value beside another's.
func TestResolverBranchwise(t *testing.T) {
	src := `#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3101)
constexpr uint16_t kMatmul = 0;
constexpr uint16_t kReserved = 4;
#elif defined(ALT)
constexpr uint16_t kMatmul = 2;
constexpr uint16_t kReserved = 1;
#else
constexpr uint16_t kMatmul = 8;
constexpr uint16_t kReserved = 2;
#endif
#ifdef ONE
constexpr uint16_t kOther = 1;
#else
constexpr uint16_t kOther = 5;
#endif
constexpr uint16_t kBase = kMatmul + kReserved;
void f() {
  use(kBase);
  use(kBase + 1);
  use(kMatmul + kOther);
}
`
	f, err := grammar.ParseFile(context.Background(), nil, "ids.h", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(f)
	// Two groups are independent: every pairing is a compile.
	want := [][]int64{{3, 4, 10}, {4, 5, 11}, {1, 3, 5, 7, 9, 13}}
	i := 0
	for j := range f.Tree.Nodes {
		c, ok := AsCall(&f.Tree.Nodes[j])
		if !ok || c.Name != "use" {
			continue
		}
		got := r.EvalAll(c.Args[0])
		slices.Sort(got)
		if i < len(want) && !slices.Equal(got, want[i]) {
			t.Errorf("%s = %v, want %v", c.Args[0].Text(), got, want[i])
		}
		i++
	}
	if i != len(want) {
		t.Errorf("saw %d calls, want %d", i, len(want))
	}
}
