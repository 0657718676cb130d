package cxx

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/extern-lsp/extern-lsp/grammar"
)

func parseCPP(t *testing.T, name, src string) *grammar.File {
	t.Helper()
	f, err := grammar.ParseFile(context.Background(), nil, name, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const gmHeader = `
using DescAlias = ChipTensor;
struct Meta {
  int32_t len;
  __gm__ int32_t *tbl;
  int32_t arr[4];
};
__aicore__ inline void flush_lines(__gm__ void *base, uint32_t bytes) {
  for (uint32_t off = 0; off < bytes; off += 64) {
    dcci((__gm__ uint8_t *)base + off, SINGLE_CACHE_LINE);
  }
}
__aicore__ inline void flush_via(__gm__ void *q) { flush_lines(q, 64); }
template <typename T> __aicore__ inline __gm__ T *data_of(__gm__ Tensor *t) {
  return reinterpret_cast<__gm__ T *>(t->buffer.addr) + t->start_offset;
}
`

const gmSource = `
class Op {
public:
  __aicore__ void Run(int32_t i) {
    int32_t v = xGm.GetValue(i) + yUb.GetValue(i) + seq_[i];
    xGm.SetValue(i, v);
    auto z = xGm[i];
  }
  AscendC::GlobalTensor<half> xGm;
  AscendC::LocalTensor<half> yUb;
  __gm__ int32_t *seq_;
};
extern "C" __global__ __aicore__ void entry(__gm__ int64_t *args) {
  __gm__ DescAlias *t = reinterpret_cast<__gm__ DescAlias *>(args[0]);
  __gm__ Tensor *u = reinterpret_cast<__gm__ Tensor *>(args[1]);
  int64_t n = args[2];
  __gm__ int32_t *p = data_of<int32_t>(t);
  auto q = reinterpret_cast<__gm__ int32_t *>(u->buffer.addr) + u->start_offset;
  __gm__ Meta *m = (__gm__ Meta *)args[3];
  GM_ADDR raw = (GM_ADDR)args[4];
  __gm__ half *pair[2] = {nullptr, nullptr};
  int32_t a = p[0] + *q + *(q + 1) + m->len + m->tbl[1] + m->arr[2] + t->shapes[0];
  p[1] = a;
  q[2] += a;
  ++p[3];
  __gm__ int32_t *addr = &p[4];
  int32_t s = sizeof(p[5]);
  int32_t &ref = p[6];
  half h = pair[1][0];
  uint8_t b = raw[7];
  dcci(p, SINGLE_CACHE_LINE);
  int32_t c = p[8];
  flush_lines(q, 256);
  int32_t d = q[9];
  flush_via(m);
  int32_t e = m->len;
  p[10] = 1;
  dcci(p, SINGLE_CACHE_LINE, CACHELINE_OUT);
  if (n > 0) a = u[0].start_offset;
  AscendC::GlobalTensor<int32_t> g;
  AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE>(g);
  int32_t f = g(3) + g.GetValue(4);
}
`

func TestGMAccesses(t *testing.T) {
	hdr := parseCPP(t, "h.h", gmHeader)
	f := parseCPP(t, "entry.cpp", gmSource)
	gm := NewGM(nil, f, []*grammar.File{hdr})
	var got []string
	for _, a := range gm.Accesses() {
		cov := ""
		if gm.CoherentBefore(a) != nil {
			cov = " coherent"
		}
		if d := gm.FlushedAfter(a); d != nil {
			cov += " flushed"
		}
		got = append(got, fmt.Sprintf("%s %s root=%s via=%s addr=%s%s", a.Node.Text(), a.Kind, a.Root(), a.Via, a.Addr(), cov))
	}
	want := []string{
		"xGm.GetValue(i) read root=xGm via=GetValue addr=xGm.GetPhyAddr(i)",
		"seq_[i] read root=seq_ via=subscript addr=&seq_[i]",
		"xGm.SetValue(i, v) write root=xGm via=SetValue addr=xGm.GetPhyAddr(i)",
		"p[0] read root=p via=subscript addr=&p[0] flushed",
		"*q read root=q via=deref addr=q",
		"*(q + 1) read root=q via=deref addr=q + 1",
		"m->len read root=m via=arrow addr=&m->len",
		"m->tbl[1] read root=m->tbl via=subscript addr=&m->tbl[1]",
		"m->tbl read root=m via=arrow addr=&m->tbl",
		"m->arr[2] read root=m via=arrow addr=&m->arr[2]",
		"p[1] write root=p via=subscript addr=&p[1] flushed",
		"q[2] read-write root=q via=subscript addr=&q[2]",
		"p[3] read-write root=p via=subscript addr=&p[3] flushed",
		"pair[1][0] read root=pair via=subscript addr=&pair[1][0]",
		"raw[7] read root=raw via=subscript addr=&raw[7]",
		"p[8] read root=p via=subscript addr=&p[8] coherent flushed",
		"q[9] read root=q via=subscript addr=&q[9] coherent",
		"m->len read root=m via=arrow addr=&m->len coherent",
		"p[10] write root=p via=subscript addr=&p[10] coherent flushed",
		"g(3) read root=g via=call addr=g.GetPhyAddr(3) coherent",
		"g.GetValue(4) read root=g via=GetValue addr=g.GetPhyAddr(4) coherent",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("accesses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGMKinds(t *testing.T) {
	hdr := parseCPP(t, "h.h", gmHeader)
	f := parseCPP(t, "entry.cpp", gmSource)
	gm := NewGM(nil, f, []*grammar.File{hdr})
	want := map[string]GMKind{
		"args": GMArgs, "t": GMDescriptor, "u": GMDescriptor, "n": NotGM, "p": GMData, "q": GMData,
		"m": GMData, "raw": GMData, "g": GMGlobalTensor, "xGm": GMGlobalTensor, "yUb": LocalTensor, "seq_": GMData,
	}
	body := &f.Tree.Nodes[len(f.Tree.Nodes)-1]
	for name, k := range want {
		v := gm.Lookup(name, body)
		if v == nil {
			t.Errorf("%s: not found", name)
			continue
		}
		if v.Kind != k {
			t.Errorf("%s: kind %s, want %s", name, v.Kind, k)
		}
	}
	if !gm.descTypes["DescAlias"] {
		t.Error("alias of ChipTensor is not a descriptor type")
	}
	helper := false
	for _, d := range gm.Dccis(f.Tree.OfKind("function_definition")[1]) {
		helper = helper || d.Helper == "flush_via" && d.Root == "m"
	}
	if !helper {
		t.Error("flush_via(m) (dcci through flush_lines) is not a helper call")
	}
}

func TestGMArgsOnlyByShape(t *testing.T) {
	// A __gm__ int64_t pointer that is not the args pointer is data.
	src := `__aicore__ inline void body(__gm__ int64_t *block_table, __gm__ int64_t *my_args) {
  int64_t x = block_table[0] + my_args[1];
}`
	f := parseCPP(t, "x.cpp", src)
	gm := NewGM(nil, f, nil)
	var got []string
	for _, a := range gm.Accesses() {
		got = append(got, a.Node.Text())
	}
	if strings.Join(got, ",") != "block_table[0]" {
		t.Errorf("accesses = %v, want [block_table[0]]", got)
	}
}

func TestStatementOf(t *testing.T) {
	src := `void f(__gm__ int *p, int c) {
  if (c) c = p[0];
  switch (c) { case 1: c = p[1]; break; }
  for (int i = 0; i < p[2]; i++) {}
#ifdef __DAV_C220_VEC__
  c = p[3];
#endif
}
int g = 0;`
	f := parseCPP(t, "x.cpp", src)
	gm := NewGM(nil, f, nil)
	var got []string
	for _, a := range gm.Accesses() {
		got = append(got, strings.SplitN(a.Stmt().Text(), "\n", 2)[0])
	}
	want := "if (c) c = p[0];|c = p[1];|for (int i = 0; i < p[2]; i++) {}|c = p[3];"
	if strings.Join(got, "|") != want {
		t.Errorf("statements = %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestArgsParamLeadingQualifier(t *testing.T) {
	// The masked `__gm__` precedes the parameter node; it must still count.
	f := parseCPP(t, "x.cpp", `extern "C" __global__ __aicore__ void k(__gm__ int64_t *args) {}
void h(int64_t *args) {}`)
	entries, helpers := Entries(f)
	if len(entries) != 1 || len(helpers) != 0 {
		t.Fatalf("entries=%d helpers=%d, want 1 and 0", len(entries), len(helpers))
	}
}

func TestRootForms(t *testing.T) {
	src := `void f() {
  use(p);
  use((__gm__ uint8_t *)p + off);
  use(&p[i]);
  use(&m->len);
  use(m->tbl);
  use(&s.tbl[3]);
  use(this->seq_);
  use(g.GetPhyAddr(4));
  use(reinterpret_cast<__gm__ void *>(q));
  use(data_of<int32_t>( t ));
  use(4 + p);
  use(&p[i].x);
}`
	f := parseCPP(t, "x.cpp", src)
	var got []string
	for _, n := range Direct.Nodes(f, "call_expression") {
		if c, ok := AsCall(n); ok && c.Name == "use" {
			got = append(got, Root(c.Args[0]))
		}
	}
	want := "p|p|p|m|m->tbl|s.tbl|seq_|g|q|data_of<int32_t>( t )|p|p"
	if strings.Join(got, "|") != want {
		t.Errorf("roots = %q, want %q", strings.Join(got, "|"), want)
	}
}

// dumpGM renders what a GM model answers: its accesses with their
// coherence, its helpers and the kinds of its members.
func dumpGM(gm *GM) string {
	var b strings.Builder
	for _, a := range gm.Accesses() {
		fmt.Fprintf(&b, "%s %s root=%s via=%s addr=%s", a.Node.Text(), a.Kind, a.Root(), a.Via, a.Addr())
		if d := gm.CoherentBefore(a); d != nil {
			fmt.Fprintf(&b, " coherent@%d", d.Call.Start)
		}
		if d := gm.FlushedAfter(a); d != nil {
			fmt.Fprintf(&b, " flushed@%d", d.Call.Start)
		}
		b.WriteString("\n")
	}
	// The dccis of each function, helper calls with their helper's
	// arguments.
	for i := 0; i+1 < len(gm.dcciFns); i++ {
		var fn *grammar.Node
		if k := gm.dcciFns[i].fn; k >= 0 {
			fn = &gm.file.Tree.Nodes[k]
		}
		for _, d := range gm.Dccis(fn) {
			fmt.Fprintf(&b, "dcci@%d root=%s all=%v args=%v helper=%s\n", d.Call.Start, d.Root, d.All, d.Args, d.Helper)
		}
	}
	fmt.Fprintf(&b, "funcs %v\naliases %v %v\n", gm.funcs, gm.typeAliases, gm.descTypes)
	// The members, the includes' (a model over a GMEnv shares them) first.
	names := make([]string, 0, len(gm.fields))
	for name := range gm.fields {
		names = append(names, name)
	}
	for name := range gm.envFields {
		if _, ok := gm.fields[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range gm.members(name) {
			fmt.Fprintf(&b, "field %s %s %s scoped=%v\n", name, v.Kind, v.Type(), v.Scope() != nil)
		}
	}
	return b.String()
}

// NewGMWith over the includes' environment answers as NewGM does, whether
// the file adds nothing to the environment (reused) or changes it (built
// again): a descriptor alias, a GM-returning function, a helper the
// includes call, a member read through a cast.
func TestGMWithEnvMatchesNewGM(t *testing.T) {
	extras := map[string]string{
		"none":   "",
		"alias":  "using Later = DescAlias;\nusing LaterGm = AscendC::GlobalTensor<half>;\n",
		"func":   "__aicore__ inline __gm__ Tensor *desc_of(__gm__ int64_t *a) { return (__gm__ Tensor *)a[0]; }\n",
		"helper": "__aicore__ inline void own_flush(__gm__ void *p) { dcci(p, SINGLE_CACHE_LINE); }\n",
	}
	headers := map[string]string{
		"plain": gmHeader,
		"calls": gmHeader + "__aicore__ inline void call_own(__gm__ void *p) { own_flush(p); flush_via(p); }\n",
		"cast": gmHeader + "struct Holder {\n  int32_t *raw = reinterpret_cast<__gm__ int32_t *>(0);\n  __gm__ Meta *meta;\n};\n" +
			"__aicore__ inline void call_own(__gm__ void *p) { own_flush(p); }\n",
	}
	for hn, hsrc := range headers {
		for en, extra := range extras {
			hdr := parseCPP(t, "h.h", hsrc)
			f := parseCPP(t, "entry.cpp", extra+gmSource+"\n__aicore__ inline void more(__gm__ Holder *h) { int32_t x = h->meta->len; }\n"+
				"__aicore__ inline void calls(__gm__ int32_t *p) { call_own(p); own_flush(p + 1); }\n")
			want := dumpGM(NewGM(nil, f, []*grammar.File{hdr}))
			env := NewGMEnv(nil, []*grammar.File{hdr})
			if got := dumpGM(NewGMWith(nil, f, env)); got != want {
				t.Errorf("%s/%s: NewGMWith:\n%s\nNewGM:\n%s", hn, en, got, want)
			}
			// The environment is shared: a second file's model leaves it as it was.
			again := parseCPP(t, "other.cpp", gmSource)
			w2 := dumpGM(NewGM(nil, again, []*grammar.File{hdr}))
			if got := dumpGM(NewGMWith(nil, again, env)); got != w2 {
				t.Errorf("%s/%s: second file over a used environment:\n%s\nwant:\n%s", hn, en, got, w2)
			}
		}
	}
}

// PrependGMEnv over the environment of the rest of the includes answers as
// NewGMEnv over all of them, or declines: a body header put before the
// headers it includes, with members, helpers and aliases of its own.
func TestPrependGMEnvMatchesNewGMEnv(t *testing.T) {
	firsts := map[string]string{
		"none":    "",
		"members": "struct Params { __gm__ int32_t *tbl; int32_t n; };\n__aicore__ inline void body(__gm__ Params *p) { int32_t v = p->tbl[0]; }\n",
		"helper":  "__aicore__ inline void own_flush(__gm__ void *p) { dcci(p, SINGLE_CACHE_LINE); }\n",
		"alias":   "using Later = DescAlias;\n",
		"func":    "__aicore__ inline __gm__ Tensor *desc_of(__gm__ int64_t *a) { return (__gm__ Tensor *)a[0]; }\n",
		"asked":   "struct Early { __gm__ int32_t *seen; };\n",
	}
	rest := gmHeader + "__aicore__ inline void call_own(__gm__ void *p) { own_flush(p); flush_via(p); }\n" +
		"struct Later2 { int32_t *q = seen + 1; };\n"
	for name, src := range firsts {
		first := parseCPP(t, "body.h", src)
		hdr := parseCPP(t, "h.h", rest)
		env := PrependGMEnv(nil, first, NewGMEnv(nil, []*grammar.File{hdr}))
		if env == nil {
			if name == "none" || name == "members" || name == "helper" {
				t.Errorf("%s: declined", name)
			}
			continue
		}
		if name == "alias" || name == "func" || name == "asked" {
			t.Errorf("%s: not declined", name)
		}
		f := parseCPP(t, "entry.cpp", gmSource)
		want := dumpGM(NewGM(nil, f, []*grammar.File{first, hdr}))
		if got := dumpGM(NewGMWith(nil, f, env)); got != want {
			t.Errorf("%s: over the prepended environment:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// A cast in an included header is judged by the header's own qualifiers:
// a `__gm__` the including file has at the same offsets is not the
// header's (it was read there, and so made a plain pointer member GM).
func TestHeaderCastReadsItsOwnQualifiers(t *testing.T) {
	const hsrc = "struct Holder {\n  int32_t *plain = reinterpret_cast<int32_t *>(0);\n};\n"
	hdr := parseCPP(t, "h.h", hsrc)
	// The entry puts a __gm__ exactly where the header's cast type starts.
	at := strings.Index(hsrc, "int32_t *>")
	prefix := "//" + strings.Repeat("x", at-3) + "\n"
	src := prefix + "__gm__ int32_t *q;\nextern \"C\" __global__ __aicore__ void entry(__gm__ int64_t *args) {}\n"
	if got := strings.Index(src, "__gm__"); got != at {
		t.Fatalf("the entry's __gm__ is at %d, want %d", got, at)
	}
	f := parseCPP(t, "entry.cpp", src)
	for name, g := range map[string]*GM{
		"NewGM":     NewGM(nil, f, []*grammar.File{hdr}),
		"NewGMWith": NewGMWith(nil, f, NewGMEnv(nil, []*grammar.File{hdr})),
	} {
		for _, v := range g.members("plain") {
			if v.Kind != NotGM {
				t.Errorf("%s: member plain is %v, want not GM (the header's cast has no __gm__)", name, v.Kind)
			}
		}
		if len(g.members("plain")) == 0 {
			t.Errorf("%s: member plain not recorded", name)
		}
	}
}

// TestGMLookupScopes resolves names against file-scope variables declared
// before, between and after the functions, locals that shadow them and
// parameters: the index splits them by function (see varIndex).
func TestGMLookupScopes(t *testing.T) {
	src := `#include "k.h"
__gm__ float *p;
__aicore__ inline void f1(int x) {
  float p = 0;
  use(p, x, late);
}
__aicore__ inline void f2() {
  use(p);
  { __gm__ int32_t *p = nullptr; use(p); }
  use(p);
}
__gm__ half *late;
__aicore__ inline void f3(__gm__ float *p, int x) { use(p, x, late); }
`
	f := parseCPP(t, "x.cpp", src)
	gm := NewGM(nil, f, nil)
	var got []string
	for _, c := range f.Tree.OfKind("call_expression") {
		call, _ := AsCall(c)
		for _, a := range call.Args {
			v := gm.Lookup(a.Text(), a)
			if v == nil {
				got = append(got, fmt.Sprintf("%d:%s=nil", a.StartRow()+1, a.Text()))
				continue
			}
			got = append(got, fmt.Sprintf("%d:%s=%d/%s", a.StartRow()+1, a.Text(), v.Decl.StartRow()+1, v.Kind))
		}
	}
	want := []string{
		"5:p=4/not-gm", "5:x=3/not-gm", "5:late=nil",
		"8:p=2/gm-data",
		"9:p=9/gm-data",
		"10:p=2/gm-data",
		"13:p=13/gm-data", "13:x=13/not-gm", "13:late=12/gm-data",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("lookups:\n%s\nwant:\n%s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

// paramsNamed numbers the parameters as Params does (comments, `...` and
// unnamed parameters included) and finds a name through pointer and
// reference declarators.
func TestParamsNamedAgreesWithParams(t *testing.T) {
	f := parseCPP(t, "p.cpp", `
void a(int, __gm__ float *p /* c */, int &q, int *&r, int p, ...) {}
void b(void) {}
void c(int x = 1, __gm__ int *y = nullptr) {}
`)
	for _, fn := range f.Tree.OfKind("function_definition") {
		for _, name := range []string{"p", "q", "r", "x", "y", "z", ""} {
			var want []int
			for _, p := range Params(fn) {
				if p.Name != "" && p.Name == name {
					want = append(want, int(p.Index))
				}
			}
			if got := paramsNamed(fn, name); !slices.Equal(got, want) {
				t.Errorf("%s: paramsNamed(%q) = %v, Params gives %v", FunctionName(fn), name, got, want)
			}
		}
	}
	if got := paramsNamed(f.Tree.OfKind("function_definition")[0], "p"); !slices.Equal(got, []int{1, 4}) {
		t.Errorf(`paramsNamed(a, "p") = %v, want [1 4]`, got)
	}
}

// Each function's dccis are its own, in source order, at their size (the
// model keeps them while the rules run), also when a lambda's dccis fall
// between its enclosing function's.
func TestDccisGroupedByFunction(t *testing.T) {
	f := parseCPP(t, "d.cpp", `
__aicore__ void a(__gm__ int *p, __gm__ int *q) {
  dcci(p, SINGLE_CACHE_LINE);
  auto l = [&]() { dcci(q, SINGLE_CACHE_LINE, CACHELINE_OUT); };
  dcci(q, ENTIRE_DATA_CACHE);
}
__aicore__ void b(__gm__ int *r) { dcci(r, SINGLE_CACHE_LINE); dcci(r, SINGLE_CACHE_LINE, CACHELINE_OUT); }
__aicore__ void c() {}
`)
	g := NewGM(nil, f, nil)
	got := map[string][]string{}
	total := 0
	for _, fn := range append(f.Tree.OfKind("function_definition"), f.Tree.OfKind("lambda_expression")...) {
		ds := g.Dccis(fn)
		if cap(ds) != len(ds) {
			t.Errorf("%s: %d dccis in a slice of cap %d", fn.Kind(), len(ds), cap(ds))
		}
		for i, d := range ds {
			if d.Func != fn || i > 0 && ds[i-1].Call.Start >= d.Call.Start {
				t.Errorf("%s: dcci %q out of place", fn.Kind(), d.Call.Text())
			}
			key := fn.Kind() + " " + FunctionName(fn)
			got[key] = append(got[key], d.Root+fmt.Sprint(d.All, d.WritesOut()))
		}
		total += len(ds)
	}
	want := map[string][]string{
		"function_definition a": {"pfalse false", "true false"},
		"lambda_expression ":    {"qfalse true"},
		"function_definition b": {"rfalse false", "rfalse true"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || total != 5 {
		t.Errorf("dccis by function = %v, want %v", got, want)
	}
}

// The dccis of a helper's calls share one string of its name (the model
// keeps a Dcci per call), and a call through a member or a parenthesized
// callee of the same name is no helper call.
func TestHelperDccisShareName(t *testing.T) {
	f := parseCPP(t, "h.cpp", `
__aicore__ inline void fl(__gm__ int *p) { dcci(p, SINGLE_CACHE_LINE); }
__aicore__ void a(__gm__ int *x, __gm__ int *y) { fl(x); fl(y); o.fl(x); (fl)(y); }
`)
	g := NewGM(nil, f, nil)
	ds := g.Dccis(f.Tree.OfKind("function_definition")[1])
	if len(ds) != 2 || ds[0].Helper != "fl" || ds[0].Root != "x" || ds[1].Root != "y" {
		t.Fatalf("dccis of a = %+v, want the helper calls fl(x), fl(y)", ds)
	}
	if unsafe.StringData(ds[0].Helper) != unsafe.StringData(ds[1].Helper) {
		t.Error("the helper calls' dccis hold two strings of its name")
	}
}

// A Var keeps its scope and initializer as offsets from its declared name:
// Name, Scope and Init give back the nodes the declaration has, for a
// parameter, locals, members (the included file's have no scope) and a
// file-scope variable.
func TestVarScopeAndInit(t *testing.T) {
	h := parseCPP(t, "k.h", "struct H { __gm__ int *hp = nullptr; };\n")
	f := parseCPP(t, "k.cpp", `#include "k.h"
__gm__ float *glob = nullptr;
struct S { __gm__ int *sp; int n = 4; };
__aicore__ void fn(__gm__ float *p, int k) {
  for (int i = 0; i < k; i++) {
    __gm__ float *q = p + i, *r;
    use(glob, p, i, q, r, sp, n, hp);
  }
}
`)
	g := NewGM(nil, f, []*grammar.File{h})
	call := f.Tree.OfKind("call_expression")[0]
	args, _ := AsCall(call)
	var got []string
	for _, a := range args.Args {
		v := g.Lookup(a.Text(), a)
		if v == nil {
			t.Fatalf("%s: no variable", a.Text())
		}
		scope, init := "-", "-"
		if s := v.Scope(); s != nil {
			scope = s.Kind()
		}
		if i := v.Init(); i != nil {
			init = i.Text()
		}
		got = append(got, fmt.Sprintf("%s:%s:%s:%s", v.Name(), scope, init, v.Kind))
	}
	want := []string{
		"glob:translation_unit:nullptr:gm-data",
		"p:function_definition:-:gm-data",
		"i:for_statement:0:not-gm",
		"q:compound_statement:p + i:gm-data",
		"r:compound_statement:-:gm-data",
		"sp:field_declaration_list:-:gm-data",
		"n:field_declaration_list:4:not-gm",
		"hp:-:nullptr:gm-data",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("vars:\n%s\nwant:\n%s", strings.Join(got, " "), strings.Join(want, " "))
	}
}

// A dcci without arguments, a whole-cache dcci whose pointer has no root,
// and one outside every function are kept (the first two make a later
// read coherent): the model's tables of roots and argument lists may be
// empty.
func TestDccisWithoutRootOrArgs(t *testing.T) {
	for _, src := range []string{
		"__aicore__ void a(__gm__ int *p) { dcci(p); int v = p[0]; }\n",
		"__aicore__ void a(__gm__ int *p) { dcci(0, ENTIRE_DATA_CACHE); int v = p[0]; }\n",
		"__gm__ int *g;\nint x = (dcci(g, SINGLE_CACHE_LINE), g[0]);\n",
	} {
		f := parseCPP(t, "e.cpp", src)
		g := NewGM(nil, f, nil)
		fns := f.Tree.OfKind("function_definition")
		var fn *grammar.Node
		if len(fns) > 0 {
			fn = fns[0]
		}
		ds := g.Dccis(fn)
		if len(ds) != 1 || ds[0].Func != fn || ds[0].Call.Kind() != "call_expression" {
			t.Errorf("%q: dccis %+v", src, ds)
			continue
		}
		accs := g.Accesses()
		if fn == nil {
			continue
		}
		if len(accs) != 1 {
			t.Fatalf("%q: accesses %d", src, len(accs))
		}
		c := g.CoherentBefore(accs[0])
		if c == nil || c.Call != ds[0].Call || c.All != ds[0].All || c.Root != ds[0].Root {
			t.Errorf("%q: coherent before %+v, want %+v", src, c, ds[0])
		}
	}
}

// An Access keeps its pointer, statement and function as offsets from its
// node: they give back the nodes findAccesses saw, and nil outside a
// function.
func TestAccessNodes(t *testing.T) {
	f := parseCPP(t, "a.cpp", `struct S {
  __gm__ int *g;
  int x = g[0];
};
__aicore__ void k(__gm__ int *p, AscendC::GlobalTensor<int> gt) {
  if (p[1] > 0) p[2] = gt.GetValue(3);
  auto l = [&]() { return *p; };
}
`)
	gm := NewGM(nil, f, nil)
	var got []string
	for _, a := range gm.Accesses() {
		stmt, fn := "-", "-"
		if s := a.Stmt(); s != nil {
			stmt = s.Kind()
		}
		if s := a.Func(); s != nil {
			fn = s.Kind()
		}
		got = append(got, fmt.Sprintf("%s ptr=%s root=%s stmt=%s func=%s", a.Node.Text(), a.Ptr().Text(), a.Root(), stmt, fn))
	}
	want := []string{
		"g[0] ptr=g root=g stmt=- func=-",
		"p[1] ptr=p root=p stmt=if_statement func=function_definition",
		"p[2] ptr=p root=p stmt=if_statement func=function_definition",
		"gt.GetValue(3) ptr=gt root=gt stmt=if_statement func=function_definition",
		"*p ptr=p root=p stmt=return_statement func=lambda_expression",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("accesses:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if a, b := gm.Accesses()[1], gm.Accesses()[2]; a.Root() != "p" || unsafe.StringData(a.Root()) != unsafe.StringData(b.Root()) {
		t.Error("two accesses through p hold two strings of its root")
	}
}

// Every variable's Scope and Init, found from its declared name, are the
// declaration's as the model reads it walking down its declarators.
func TestVarScopeAndInitFromDeclarators(t *testing.T) {
	f := parseCPP(t, "w.cpp", gmSource+`
struct W { int a = 1, *b, c[2] = {1, 2}; __gm__ int *(d); int &e = a; };
__aicore__ void w(__gm__ int *p, int q = 3, int (*fp)(int) = nullptr) {
  int x = 1, *y = &x, z[3] = {0}, &r = x, (pp) = 2;
  for (int i = 0, j; i < 2; i++) { __gm__ int *(*pa)[2] = nullptr; }
  auto l = [&](__gm__ int *lp, int lq) { int lx = lq; };
  if (int c = q) {}
}
int gx = 4, *gy;
`)
	g := NewGM(nil, f, nil)
	type want struct{ scope, init *grammar.Node }
	wants := map[*grammar.Node]want{}
	for _, k := range []string{"declaration", "field_declaration"} {
		for _, decl := range f.Tree.OfKind(k) {
			for _, d := range decl.ChildrenByField("declarator") {
				name, _, _, _, init := Declarator(d)
				if name == nil {
					continue
				}
				if init == nil && k == "field_declaration" {
					init = decl.ChildByField("default_value")
				}
				wants[name] = want{decl.Parent(), init}
			}
		}
	}
	for _, k := range []string{"parameter_declaration", "optional_parameter_declaration"} {
		for _, p := range f.Tree.OfKind(k) {
			if name, _, _, _, _ := Declarator(p.ChildByField("declarator")); name != nil {
				wants[name] = want{paramOwner(p), nil}
			}
		}
	}
	var vars []*Var
	for i := range g.locals {
		vars = append(vars, &g.locals[i])
	}
	for _, os := range g.varIx.outer {
		for _, o := range os {
			vars = append(vars, o.v)
		}
	}
	for _, vs := range g.fields {
		vars = append(vars, vs...)
	}
	if len(vars) < 30 {
		t.Fatalf("only %d variables", len(vars))
	}
	for _, v := range vars {
		w, ok := wants[v.Decl]
		if !ok {
			t.Errorf("%s: no declaration", v.Name())
			continue
		}
		if v.Scope() != w.scope || v.Init() != w.init {
			t.Errorf("%s: scope %v init %v, want %v %v", v.Name(), v.Scope(), v.Init(), w.scope, w.init)
		}
	}
}

// The file's function-scoped variables are kept in one array at its size
// and each name's list holds their positions in it, in source order: a
// declaration of several names and the parameters of many functions.
func TestLocalsInOneArray(t *testing.T) {
	var src strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&src, "__aicore__ void f%d(__gm__ int *p, int n) { int a = n, *b = &a, c; __gm__ int *q = p + a; q[0] = c; }\n", i)
	}
	f := parseCPP(t, "l.cpp", src.String())
	g := NewGM(nil, f, nil)
	if len(g.locals) != 40*6 || cap(g.locals) != len(g.locals) {
		t.Fatalf("%d locals in an array of cap %d, want 240 at its size", len(g.locals), cap(g.locals))
	}
	for name, l := range g.vars {
		for k, j := range l {
			v := &g.locals[j]
			if v.Name() != name || k > 0 && g.locals[l[k-1]].Decl.Start >= v.Decl.Start {
				t.Errorf("%s: position %d holds %s out of order", name, j, v.Name())
			}
		}
	}
	accs := g.Accesses()
	if len(accs) != 40 {
		t.Fatalf("%d accesses, want 40", len(accs))
	}
	for _, a := range accs {
		if a.Var == nil || a.Var.Name() != "q" || a.Var.Init().Text() != "p + a" || !a.Func().Contains(a.Var.Decl) {
			t.Errorf("%s: variable %+v", a.Node.Text(), a.Var)
		}
	}
}
