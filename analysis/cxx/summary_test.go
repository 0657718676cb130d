package cxx

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/grammar"
)

const summaryHeader = `
template <typename T>
__aicore__ inline __gm__ T *data_of(__gm__ int64_t *args, int32_t slot) {
  __gm__ ChipTensor *t = reinterpret_cast<__gm__ ChipTensor *>(args[slot]);
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}
__aicore__ inline void refresh(__gm__ uint8_t *base, uint64_t bytes) {
  uint64_t first = reinterpret_cast<uint64_t>(base) & ~static_cast<uint64_t>(63);
  for (uint64_t line = first; line < reinterpret_cast<uint64_t>(base) + bytes; line += 64) {
    dcci(reinterpret_cast<__gm__ void *>(line), SINGLE_CACHE_LINE);
  }
  dsb(DSB_DDR);
}
__aicore__ inline void publish(__gm__ int32_t *p, __gm__ int32_t *sync) {
  *p = 1;
  dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT);
  if (sync != nullptr) {
    AscendC::SyncAll<false>();
  }
}
`

const summaryEntry = `#include "h.h"
constexpr int kOffB = 256;
extern "C" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {
  __gm__ uint8_t *meta = data_of<uint8_t>(args, 2);
  __gm__ int32_t *a = reinterpret_cast<__gm__ int32_t *>(meta);
  __gm__ int32_t *b = reinterpret_cast<__gm__ int32_t *>(meta + kOffB);
  refresh(meta, 512);
  publish(a + 3, nullptr);
  publish(b, b);
  dcci((__gm__ void *)0, cache_line_t::ENTIRE_DATA_CACHE);
  dsb((mem_dsb_t)0);
  if (a[0] > 0) {
    b[1] = 2;
  } else {
    b[2] = 3;
  }
}
`

func summarize(t *testing.T) (*Summaries, *grammar.File) {
	t.Helper()
	h := parseCPP(t, "h.h", summaryHeader)
	f := parseCPP(t, "e.cpp", summaryEntry)
	return Summarize(nil, f, h), f
}

func TestOriginProvenance(t *testing.T) {
	s, f := summarize(t)
	use := func(name string) Origin {
		for i := range f.Tree.Nodes {
			n := &f.Tree.Nodes[i]
			if n.Kind() == "identifier" && n.Text() == name && n.Parent().Kind() != "pointer_declarator" && n.Parent().Kind() != "init_declarator" {
				return s.OriginOf(n)
			}
		}
		t.Fatalf("no use of %s", name)
		return Origin{}
	}
	meta, a, b := use("meta"), use("a"), use("b")
	if meta.Kind != ArgOrigin || meta.Slot != 2 {
		t.Fatalf("meta: got %v, want args[2]", meta)
	}
	if !a.Same(meta) || !b.Same(meta) {
		t.Errorf("a=%v b=%v: want meta's buffer", a, b)
	}
	if a.SameRegion(b) || b.Off != 256 {
		t.Errorf("a (off %d) and b (off %d) are different regions of meta", a.Off, b.Off)
	}
	if !meta.Covers(b) || b.Covers(a) {
		t.Errorf("the base covers every region, a region only itself")
	}
}

func TestEffectsExpandHelpers(t *testing.T) {
	s, f := summarize(t)
	var entry *grammar.Node
	for _, fn := range Functions(f) {
		if FunctionName(fn) == "kernel_entry" {
			entry = fn
		}
	}
	var got []string
	for _, e := range s.Effects(entry) {
		line, _ := f.Lines.Position(e.At.Start)
		got = append(got, fmt.Sprintf("%d:%s:%v:%v", line+1, e.Kind, e.Origin(), e.All))
	}
	want := []string{
		// refresh(meta, 512): an integer line loop over meta (the
		// two-argument form also cleans), then dsb.
		"7:invalidate:args[2]:false",
		"7:write-back:args[2]:false",
		"7:dsb::false",
		// publish(a + 3, nullptr): the store and its write-back; the
		// barrier under `if (sync != nullptr)` is dead for this call.
		"8:scalar-write:args[2]:false",
		"8:invalidate:args[2]:false",
		"8:write-back:args[2]:false",
		// publish(b, b): the barrier runs.
		"9:scalar-write:args[2]:false",
		"9:invalidate:args[2]:false",
		"9:write-back:args[2]:false",
		"9:signal::false",
		"9:wait::false",
		// The generator's tail: whole cache, two-argument form, cast dsb.
		"10:invalidate::true",
		"10:write-back::true",
		"11:dsb::false",
		"13:scalar-write:args[2]:false",
		"15:scalar-write:args[2]:false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("effects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPrecedesBranches(t *testing.T) {
	_, f := summarize(t)
	then, els := findNode(t, f, "assignment_expression", "b[1] = 2"), findNode(t, f, "assignment_expression", "b[2] = 3")
	cond := findNode(t, f, "subscript_expression", "a[0]")
	if Precedes(then, els) {
		t.Error("the then branch does not run before the else branch")
	}
	if !Precedes(cond, els) || !Precedes(cond, then) {
		t.Error("the condition runs before both branches")
	}
}

// A call's block of effects refers to the callee's facts: calls that map
// them the same way share one fact each, and a call that changes nothing
// adds none; the index reads them back as Effects lists them.
func TestEffectsShareFacts(t *testing.T) {
	src := `
__aicore__ inline void put(__gm__ int32_t *p) {
  *p = 1;
  dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT);
  dsb(DSB_DDR);
}
__aicore__ inline void twice(__gm__ int32_t *p) {
  put(p);
  put(p);
}
extern "C" __global__ __aicore__ void k(__gm__ int64_t *args) {
  __gm__ int32_t *a = reinterpret_cast<__gm__ int32_t *>(args[0]);
  __gm__ int32_t *b = reinterpret_cast<__gm__ int32_t *>(args[1]);
  put(a);
  put(a);
  twice(b);
}
`
	f := parseCPP(t, "k.cpp", src)
	s := Summarize(nil, f)
	fns := map[string]*grammar.Node{}
	for _, fn := range Functions(f) {
		fns[FunctionName(fn)] = fn
	}
	s.Effects(fns["put"])
	own := s.facts.n // put's scalar write, invalidate, write-back, dsb
	if own != 4 {
		t.Fatalf("put has %d facts, want 4", own)
	}
	s.Effects(fns["twice"])
	if s.facts.n != own {
		t.Errorf("twice passes its parameter through: %d new facts, want none", s.facts.n-own)
	}
	es := s.Effects(fns["k"])
	// args[0] and args[1] each map put's three memory facts once; the dsb
	// keeps its own.
	if got := s.facts.n - own; got != 6 {
		t.Errorf("k added %d facts, want 6", got)
	}
	if len(es) != 16 {
		t.Fatalf("k has %d effects, want 16", len(es))
	}
	x := s.Index(fns["k"])
	if x.Len() != len(es) {
		t.Fatalf("index has %d effects, want %d", x.Len(), len(es))
	}
	for i, e := range es {
		if x.Effect(i) != e {
			t.Errorf("effect %d: index has %+v, Effects %+v", i, x.Effect(i), e)
		}
	}
	if es[0].At.Text() != "put(a)" || es[8].At.Text() != "twice(b)" || es[0].At == es[4].At || es[8].At != es[15].At ||
		es[0].Site != es[4].Site || es[0].SiteFile != f {
		t.Errorf("each call's block is at its call, on put's sites in %s", f.Path)
	}
}

// EntryCoherence names the calls whose caller did not make the memory
// coherent; the callers that did invalidate the same memory.
func TestEntryCoherenceMissing(t *testing.T) {
	src := `
__aicore__ inline int32_t get(__gm__ int32_t *p) { return p[0]; }
__aicore__ inline void fresh(__gm__ int32_t *p) {
  dcci(p, SINGLE_CACHE_LINE);
  get(p);
}
__aicore__ inline void fresh2(__gm__ int32_t *p) {
  dcci(p, SINGLE_CACHE_LINE);
  get(p);
}
__aicore__ inline void stale(__gm__ int32_t *p) {
  get(p);
}
`
	f := parseCPP(t, "k.cpp", src)
	s := Summarize(nil, f)
	var get *grammar.Node
	for _, fn := range Functions(f) {
		if FunctionName(fn) == "get" {
			get = fn
		}
	}
	ok, missing := s.EntryCoherence(get, Origin{Kind: ParamOrigin, Param: 0})
	if ok || len(missing) != 1 || missing[0].Caller.Name != "stale" || missing[0].Call.Text() != "get(p)" || missing[0].File != f {
		t.Fatalf("ok %v, missing %+v: want the call in stale", ok, missing)
	}
	sites := s.entrySites(get)
	if len(sites) != 3 || !slices.Equal(sites[0].coherent, sites[1].coherent) || slices.Equal(sites[0].coherent, sites[2].coherent) {
		t.Errorf("fresh and fresh2 share what they invalidated, stale has none: %+v", sites)
	}
}

// The indexes of a unit's functions share their buffers (interned), and
// find a buffer's effects whatever the offset asked.
func TestEffectIndexBuffersShared(t *testing.T) {
	src := `
__aicore__ inline void one(__gm__ int32_t *p, __gm__ int32_t *q) {
  p[0] = 1;
  q[2] = 1;
}
__aicore__ inline void two(__gm__ int32_t *p) {
  p[1] = 2;
}
`
	f := parseCPP(t, "k.cpp", src)
	s := Summarize(nil, f)
	fns := map[string]*grammar.Node{}
	for _, fn := range Functions(f) {
		fns[FunctionName(fn)] = fn
	}
	x1, x2 := s.Index(fns["one"]), s.Index(fns["two"])
	if len(x1.bufs) != 2 || cap(x1.bufs) != 2 || len(x2.bufs) != 1 {
		t.Fatalf("buffers: %d (cap %d) and %d, want 2 (cap 2) and 1", len(x1.bufs), cap(x1.bufs), len(x2.bufs))
	}
	if x1.bufs[0] != x2.bufs[0] {
		t.Error("p's buffer is not shared by one's and two's indexes")
	}
	p, r := Origin{Kind: ParamOrigin, Param: 0, Off: 3}, Origin{Kind: ParamOrigin, Param: 2}
	end := fns["one"].End
	if !x1.In(ScalarWrite, p, grammar.Both, fns["one"].Start, end) || x1.In(ScalarWrite, r, grammar.Both, fns["one"].Start, end) {
		t.Error("one writes p's buffer, no third parameter's")
	}
}

// EachIn visits, last first, the effects of the kinds that concern the
// memory; a question on a few lists allocates nothing.
func TestEffectIndexEachIn(t *testing.T) {
	src := `
__aicore__ inline void k(__gm__ int32_t *p, __gm__ int32_t *q) {
  p[0] = 1;
  dcci(p, SINGLE_CACHE_LINE);
  q[0] = 2;
  p[0] = 3;
  dcci(q, SINGLE_CACHE_LINE);
}
`
	f := parseCPP(t, "k.cpp", src)
	s := Summarize(nil, f)
	fn := Functions(f)[0]
	x := s.Index(fn)
	p := Origin{Kind: ParamOrigin, Param: 0}
	kinds := []EffectKind{ScalarWrite, Invalidate, WriteBack, Dsb, Wait}
	var got, want []int
	for i := x.Len() - 1; i >= 0; i-- {
		e := x.effects.fact(i)
		switch e.kind {
		case ScalarWrite:
			if e.origin.value().SameRegion(p) {
				want = append(want, i)
			}
		case Invalidate, WriteBack:
			if e.covers(p) {
				want = append(want, i)
			}
		case Dsb, Wait:
			want = append(want, i)
		}
	}
	x.EachIn(p, grammar.Both, fn.Start, fn.End, func(i int) bool { got = append(got, i); return true }, kinds...)
	if len(want) < 4 || !slices.Equal(got, want) {
		t.Errorf("EachIn visits %v, want %v", got, want)
	}
	n := 0
	allocs := testing.AllocsPerRun(10, func() {
		x.EachIn(p, grammar.AIV, fn.Start, fn.End, func(int) bool { n++; return true }, kinds...)
	})
	if allocs != 0 {
		t.Errorf("EachIn allocates %v times per question", allocs)
	}
}

// A function's declaring scopes find the same declarations: the lookups
// of every name use in a unit of many functions, asked twice over.
func TestDeclaringScopesAgain(t *testing.T) {
	var b strings.Builder
	for i := range manyFns + 4 {
		fmt.Fprintf(&b, "void f%d(int p) {\n  int a = p;\n  for (int i = 0; i < a; ++i) {\n    int a = i;\n    if (int b = a) { a = b; }\n  }\n  a = 1;\n}\n", i)
	}
	f := parseCPP(t, "k.cpp", b.String())
	s := Summarize(nil, f)
	var ids []*grammar.Node
	for i := range f.Tree.Nodes {
		if n := &f.Tree.Nodes[i]; n.Kind() == "identifier" && EnclosingFunction(n) != nil {
			ids = append(ids, n)
		}
	}
	first := map[*grammar.Node]*grammar.Node{}
	for _, id := range ids {
		first[id] = s.lookup(id)
	}
	found := 0
	for _, id := range ids {
		d := s.lookup(id)
		if d != first[id] {
			t.Fatalf("%s at %d: declared at %v, then at %v", id.Text(), id.Start, first[id], d)
		}
		if d != nil {
			found++
		}
	}
	if found < 5*(manyFns+4) {
		t.Errorf("%d uses found declared", found)
	}
	// The inner a shadows the outer one inside the loop, not after it.
	body := Functions(f)[0]
	var as []*grammar.Node
	for _, id := range ids {
		if id.Text() == "a" && body.Contains(id) {
			as = append(as, id)
		}
	}
	// The declaration, the loop's condition, the inner declaration,
	// b = a, a = b, a = 1.
	if len(as) != 6 || first[as[1]] == first[as[3]] || first[as[4]] != first[as[3]] || first[as[5]] != first[as[1]] {
		t.Errorf("uses of a: declared at %v %v %v %v %v", first[as[1]], first[as[3]], first[as[4]], first[as[5]], as)
	}
}

// A function's call sites are memoized with its own recursive calls;
// asked without them, the memoized list stays whole, and made again
// (after manyFns other functions) it is the same.
func TestSiteRefsSelf(t *testing.T) {
	var b strings.Builder
	b.WriteString("void f(int n) { if (n) f(n - 1); }\nvoid g() { f(3); }\n")
	for i := range manyFns + 2 {
		fmt.Fprintf(&b, "void h%d() { g(); }\n", i)
	}
	file := parseCPP(t, "k.cpp", b.String())
	s := Summarize(nil, file)
	fns := Functions(file)
	f := fns[0]
	callers := func(self bool) []string {
		var out []string
		for _, cs := range s.sitesOf(f, self) {
			out = append(out, FunctionName(cs.Caller.Node))
		}
		return out
	}
	for round := range 2 {
		if got := callers(false); !slices.Equal(got, []string{"g"}) {
			t.Errorf("round %d: other callers %v, want [g]", round, got)
		}
		if got := callers(true); !slices.Equal(got, []string{"f", "g"}) {
			t.Errorf("round %d: all callers %v, want [f g]", round, got)
		}
		for _, fn := range fns[2:] {
			s.siteRefsOf(fn, false)
		}
	}
	if got := len(s.siteRefsOf(fns[1], false)); got != manyFns+2 {
		t.Errorf("g: %d call sites, want %d", got, manyFns+2)
	}
}

// CallersWriteBack answers a function asked about again, after
// manyFns others, as the first time.
func TestCallersWriteBackAgain(t *testing.T) {
	n := manyFns + 8
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "__aicore__ inline void st%d(__gm__ int32_t *p) { *p = %d; }\n", i, i)
		if i%2 == 1 {
			fmt.Fprintf(&b, "__aicore__ inline void mid%d(__gm__ int32_t *p) { st%d(p); }\n", i, i)
		}
	}
	b.WriteString("extern \"C\" __global__ __aicore__ void k(__gm__ int32_t *a, __gm__ int32_t *c) {\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "  st%d(a);\n  dcci(a, SINGLE_CACHE_LINE, CACHELINE_OUT);\n  dsb(DSB_DDR);\n", i)
		case 1:
			fmt.Fprintf(&b, "  mid%d(c);\n  dcci(c, SINGLE_CACHE_LINE, CACHELINE_OUT);\n  dsb(DSB_DDR);\n", i)
		case 2:
			fmt.Fprintf(&b, "  st%d(c);\n", i)
		case 3:
			fmt.Fprintf(&b, "  mid%d(c);\n", i)
		}
	}
	b.WriteString("}\n")
	f := parseCPP(t, "k.cpp", b.String())
	s := Summarize(nil, f)
	sts := map[int]*grammar.Node{}
	for _, fn := range Functions(f) {
		var i int
		if _, err := fmt.Sscanf(FunctionName(fn), "st%d", &i); err == nil {
			sts[i] = fn
		}
	}
	p := Origin{Kind: ParamOrigin, Param: 0}
	// c is written back last after mid{lastC}: the stores to it after
	// that are not.
	lastC := (n-2)/4*4 + 1
	for round := range 2 {
		for i := range n {
			want := i%4 < 2 || i < lastC
			if got := s.CallersWriteBack(sts[i], p, true); got != want {
				t.Errorf("round %d: st%d: CallersWriteBack = %v, want %v", round, i, got, want)
			}
		}
	}
}

// The unit's functions' effects are memoized; asked in either order they
// are the same.
func TestEffectsInEitherOrder(t *testing.T) {
	s, _ := summarize(t)
	r, _ := summarize(t)
	var fns []*grammar.Node
	for _, d := range s.funcs.All() {
		fns = append(fns, d.Node)
	}
	describe := func(s *Summaries, fn *grammar.Node) string {
		var b strings.Builder
		for _, e := range s.Effects(fn) {
			fmt.Fprintf(&b, "%d:%s:%v:%v ", e.At.Start, e.Kind, e.Origin(), e.All)
		}
		return b.String()
	}
	want := map[int]string{}
	for i, fn := range fns {
		want[i] = describe(s, fn)
	}
	rfns := slices.Clone(fns)
	for i := len(fns) - 1; i >= 0; i-- {
		// r's nodes are its own trees': find fn by name.
		for _, d := range r.funcs.All() {
			if FunctionName(d.Node) == FunctionName(fns[i]) {
				rfns[i] = d.Node
			}
		}
		if got := describe(r, rfns[i]); got != want[i] {
			t.Errorf("%s: %s, asked first %s", FunctionName(fns[i]), got, want[i])
		}
	}
	if !s.effectsKept(fns[0]) {
		t.Errorf("effects of %s not kept", FunctionName(fns[0]))
	}
	if len(fns) < 4 || strings.Count(strings.Join(slices.Collect(maps.Values(want)), ""), ":") < 30 {
		t.Errorf("too few effects: %v", want)
	}
}

// manyFns is a number of functions past any per-function cache the
// summaries might keep.
const manyFns = 40

// A named offset carves a region (a field, a member, a parameter); a
// local index stays in its pointer's region; regions at different names
// are apart and a write-back of one covers it alone.
func TestRegionNames(t *testing.T) {
	src := `
struct Layout { uint64_t rows_off; uint64_t counts_off; };
__aicore__ inline void k(__gm__ uint8_t *sym, __gm__ Layout *ctl, uint64_t off) {
  __gm__ int32_t *rows = (__gm__ int32_t *)(sym + ctl->rows_off);
  __gm__ int32_t *counts = (__gm__ int32_t *)(sym + ctl->counts_off);
  __gm__ int32_t *tail = (__gm__ int32_t *)(sym + ctl->counts_off + off);
  for (int i = 0; i < 4; ++i) {
    rows[i] = *(counts + i);
  }
  tail[0] = 1;
}
`
	f := parseCPP(t, "k.cpp", src)
	s := Summarize(nil, f)
	origin := func(name string) Origin {
		for _, id := range f.Tree.OfKind("identifier") {
			if k := id.Parent().Kind(); id.Text() == name && (k == "subscript_expression" || k == "binary_expression") {
				return s.OriginOf(id)
			}
		}
		t.Fatalf("no %s", name)
		return Origin{}
	}
	rows, counts, tail := origin("rows"), origin("counts"), origin("tail")
	if rows.Region != "ctl->rows_off" || counts.Region != "ctl->counts_off" || tail.Region != "ctl->counts_off+off" {
		t.Fatalf("regions %q %q %q", rows.Region, counts.Region, tail.Region)
	}
	if rows.SameRegion(counts) || !counts.SameRegion(tail) || !rows.Same(counts) || rows.Covers(counts) || !counts.Covers(tail) {
		t.Error("rows and counts are apart; the tail lies in counts; all one buffer")
	}
	for _, n := range f.Tree.OfKind("binary_expression") {
		if n.Text() == "counts + i" && s.OriginOf(n).Region != "ctl->counts_off" {
			t.Errorf("counts + i: region %q, want counts'", s.OriginOf(n).Region)
		}
	}
}

// A helper first expanded from the bottom of a chain of wrappers deeper
// than the expansion limit has its summary asked again from the top: what
// the limit cut off there is not kept as the helper's (a post asked for
// from a kernel's API wrappers, then by a rule about its own stores).
func TestEffectsAfterDeepChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("__aicore__ inline void flush(__gm__ uint8_t *p) { dcci((__gm__ void *)p, cache_line_t::SINGLE_CACHE_LINE); }\n")
	b.WriteString("__aicore__ inline void fill(__gm__ uint32_t *p) { *p = 3; }\n")
	b.WriteString("__aicore__ inline void post(__gm__ uint8_t *ring) { ring[4096] = 1; fill((__gm__ uint32_t *)ring); flush(ring); }\n")
	depth := maxExpand + 2
	for i := depth; i >= 0; i-- {
		callee := fmt.Sprintf("w%d", i+1)
		if i == depth {
			callee = "post"
		}
		fmt.Fprintf(&b, "__aicore__ inline void w%d(__gm__ uint8_t *ring) { %s(ring); }\n", i, callee)
	}
	src := b.String()
	describe := func(s *Summaries, f *grammar.File, name string) string {
		var out strings.Builder
		for _, fn := range Functions(f) {
			if FunctionName(fn) == name {
				for _, e := range s.Effects(fn) {
					fmt.Fprintf(&out, "%d:%s ", e.At.Start, e.Kind)
				}
			}
		}
		return out.String()
	}
	f := parseCPP(t, "chain.h", src)
	first := Summarize(nil, f)
	want := describe(first, f, "post")
	if !strings.Contains(want, "write-back") {
		t.Fatalf("post asked first: %s, want its flush's write-back", want)
	}
	g := parseCPP(t, "chain.h", src)
	deep := Summarize(nil, g)
	for i := 0; i <= depth; i++ {
		describe(deep, g, fmt.Sprintf("w%d", i))
	}
	if got := describe(deep, g, "post"); got != want {
		t.Errorf("post asked after its wrappers: %s, asked first: %s", got, want)
	}
	if !slices.ContainsFunc(Functions(g), func(fn *grammar.Node) bool {
		return FunctionName(fn) == "fill" && deep.CallersWriteBack(fn, Origin{Kind: ParamOrigin}, false)
	}) {
		t.Error("fill's store: CallersWriteBack = false after the wrappers were asked, want true (post flushes it)")
	}
}
