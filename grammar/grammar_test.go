package grammar

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func parse(t *testing.T, path, src string) *File {
	t.Helper()
	f, err := ParseFile(context.Background(), nil, path, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestMaskKeepsOffsets(t *testing.T) {
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {\n  __ubuf__ half *u;\n}\n" +
		"extern \"C\" __global__ [aicore] void k2(__gm__ uint8_t *p) {}\n"
	masked, spans := Mask([]byte(src))
	if len(masked) != len(src) {
		t.Fatalf("masked length %d != %d", len(masked), len(src))
	}
	if strings.Contains(string(masked), "__gm__") || strings.Contains(string(masked), "[aicore]") {
		t.Fatalf("qualifiers left: %s", masked)
	}
	for i := range src {
		if (src[i] == '\n') != (masked[i] == '\n') {
			t.Fatalf("newline moved at %d", i)
		}
	}
	var texts []string
	for _, s := range spans {
		if src[s.Start:s.End] != s.Text {
			t.Errorf("span %v text %q does not match source %q", s, s.Text, src[s.Start:s.End])
		}
		texts = append(texts, s.Text)
	}
	want := "__global__ __aicore__ __gm__ __ubuf__ __global__ [aicore] __gm__"
	if got := strings.Join(texts, " "); got != want {
		t.Errorf("spans = %q, want %q", got, want)
	}
	f := parse(t, "k.cpp", src)
	if f.Tree.HasError() {
		t.Errorf("masked source still has parse errors:\n%s", Dump(f.Tree.Root()))
	}
}

func TestMaskDeclarationMacros(t *testing.T) {
	src := "CATLASS_DEVICE void run() {}\ntemplate <class T>\nCATLASS_HOST_DEVICE inline int f(T x) { return 0; }\n"
	f := parse(t, "m.hpp", src)
	if f.Tree.HasError() {
		t.Errorf("declaration macros not masked:\n%s", Dump(f.Tree.Root()))
	}
	// An all-caps type used as a type must stay.
	f = parse(t, "t.hpp", "DTYPE x = 0;\n")
	if len(f.Masks) != 0 {
		t.Errorf("masked a type: %v", f.Masks)
	}
	// The macro alone on the line above a destructor, an operator or a
	// declaration whose type is a name (catlass' CATLASS_DEVICE).
	f = parse(t, "b.hpp", "struct BlockMmad {\n  CATLASS_DEVICE\n  ~BlockMmad() {}\n  CATLASS_DEVICE\n  void operator()(int x) {}\n"+
		"  CATLASS_DEVICE\n  Coord<N> ToCoord() { return {}; }\n  CATLASS_DEVICE T AlignUp(T a) { return a; }\n};\n")
	if f.Tree.HasError() {
		t.Errorf("macro above a declaration not masked:\n%s", Dump(f.Tree.Root()))
	}
	// A macro statement followed by an assignment is left alone.
	f = parse(t, "s.cpp", "void f() {\n  TRACE_POINT\n  x = 1;\n}\n")
	if len(f.Masks) != 0 {
		t.Errorf("masked a statement macro: %v", f.Masks)
	}
}

// `A() {};` in a class (an AscendC habit) loses its stray ';' for the
// parser; the ';' of a lambda, a class and a brace-initialised function
// pointer stays.
func TestMaskStraySemicolon(t *testing.T) {
	src := "class K : public Base {\npublic:\n  __aicore__ inline K(){};\n  __aicore__ inline K(int a, int b) : a_(a), b_(b){};\n" +
		"  int (*hook)(int){nullptr};\n  int a_, b_;\n};\n" +
		"void g() {\n  auto f = [&](int x) { return x; };\n  auto h = [&]<bool B>() { return B; };\n  f(1);\n}\n"
	f := parse(t, "k.h", src)
	if f.Tree.HasError() {
		t.Errorf("stray ';' still breaks the parse:\n%s", Dump(f.Tree.Root()))
	}
	var blanked []string
	for _, m := range f.Masks {
		if m.Text == ";" {
			line, _ := f.Lines.Position(m.Start)
			blanked = append(blanked, fmt.Sprint(line+1))
		}
	}
	if got := strings.Join(blanked, ","); got != "3,4" {
		t.Errorf("blanked ';' on lines %s, want 3,4", got)
	}
}

func TestAscendIsGuardParses(t *testing.T) {
	src := "void f() {\n  if ASCEND_IS_AIV {\n    a();\n  } else {\n    b();\n  }\n  if ASCEND_IS_AIC { c(); }\n}\n"
	f := parse(t, "g.cpp", src)
	if f.Tree.HasError() {
		t.Fatalf("parse errors:\n%s", Dump(f.Tree.Root()))
	}
	want := map[string]Cores{"a()": AIV, "b()": AIC, "c()": AIC}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() == "call_expression" {
			if got := f.CoresOf(n); got != want[n.Text()] {
				t.Errorf("%s: cores %s, want %s", n.Text(), got, want[n.Text()])
			}
		}
	}
}

func TestGuardSpellings(t *testing.T) {
	src := `void f() {
  both0();
#ifdef __DAV_C220_VEC__
  vec1();
#else
  cube1();
#endif
#if defined(__DAV_C220_CUBE__)
  cube2();
#elif defined(__DAV_C220_VEC__)
  vec2();
#endif
#ifndef __DAV_C220_CUBE__
  vec3();
#endif
#if defined(__DAV_VEC__) && !defined(__CPU_SIM)
  vec4();
#endif
#if defined(__DAV_CUBE__) || defined(__DAV_C220_CUBE__)
  cube4();
#endif
#if !defined(__DAV_C220_VEC__)
  cube5();
#endif
#ifdef __CPU_SIM
  none1();
#else
  both1();
#endif
#if SOME_FEATURE
  both2();
#else
  both3();
#endif
#if __CCE_AICORE__ == 220 && defined(__DAV_C220_VEC__)
  vec5();
#endif
#if defined(__DAV_C220_VEC__)
#if defined(__DAV_C220_CUBE__)
  none2();
#endif
#endif
  if (g_coreType == AscendC::AIV) { vec6(); } else { cube6(); }
  if constexpr (g_coreType == AscendC::AIC) { cube7(); }
  if (AscendC::AIV != g_coreType) { cube8(); }
  if (!(g_coreType == AIV)) { cube9(); }
  if ((ASCEND_IS_NOT_AIC)) { vec10(); }
  if (g_coreType /* the core */ == AscendC::AIC) { cube11(); }
  if (Other::g_coreType == AscendC::AIV) { both12(); }
  if (g_coreType == kind) { both13(); }
  if (g_coreType < AIV) { both14(); }
#ifdef __DAV_C220_VEC__
  if ASCEND_IS_AIC { none3(); }
#endif
}
`
	f := parse(t, "g.cpp", src)
	if f.Tree.HasError() {
		t.Fatalf("parse errors:\n%s", Dump(f.Tree.Root()))
	}
	seen := 0
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() != "call_expression" {
			continue
		}
		name := strings.TrimSuffix(n.Text(), "()")
		var want Cores
		switch strings.TrimRight(name, "0123456789") {
		case "both":
			want = Both
		case "vec":
			want = AIV
		case "cube":
			want = AIC
		case "none":
			want = None
		default:
			t.Fatalf("unexpected call %s", name)
		}
		seen++
		if got := f.CoresOf(n); got != want {
			t.Errorf("%s: cores %s, want %s", name, got, want)
		}
	}
	if seen != 26 {
		t.Errorf("saw %d calls, want 26", seen)
	}
}

func TestGuardDirectives(t *testing.T) {
	src := "#if defined(__DAV_CUBE__) \\\n    && 1 // c\n#define X 3\n#endif\n#include \"a/b.hpp\"\n#include <kernel_operator.h>\n"
	f := parse(t, "d.cpp", src)
	var kinds []string
	for _, d := range f.Guards.Directives {
		kinds = append(kinds, d.Kind)
	}
	if got := strings.Join(kinds, ","); got != "if,define,endif,include,include" {
		t.Fatalf("directives %s", got)
	}
	d := f.Guards.Directives[0]
	if d.Cond != "defined(__DAV_CUBE__)      && 1" || d.BranchCores != AIC {
		t.Errorf("cond %q cores %s", d.Cond, d.BranchCores)
	}
	if len(d.Macros) != 1 || src[d.Macros[0].Start:d.Macros[0].End] != "__DAV_CUBE__" {
		t.Errorf("macros %+v", d.Macros)
	}
	if f.Guards.Directives[2].Group != 0 || f.Guards.Directives[1].Line != 2 {
		t.Errorf("group/line wrong: %+v", f.Guards.Directives)
	}
	if len(f.Includes) != 2 || f.Includes[0].Path != "a/b.hpp" || f.Includes[0].System || !f.Includes[1].System {
		t.Errorf("includes %+v", f.Includes)
	}
	if inc := f.Includes[0]; src[inc.Start:inc.End] != `"a/b.hpp"` {
		t.Errorf("include span %q", src[inc.Start:inc.End])
	}
}

// TestGuardsWith: a header evaluated again under its includer's macros
// from its directives keeps the code those macros compile, as a scan of
// its text under them does, and leaves the parse's own model alone.
func TestGuardsWith(t *testing.T) {
	for name, src := range map[string]string{
		"entry": "#ifndef NO_GLOBAL_ENTRY\nextern \"C\" void k() {}\n#else\nint y;\n#endif\n#define LOCAL 1\n#if defined(LOCAL) && !defined(DEBUG_STOP)\nint z;\n#elif __DAV_VEC__\nint w;\n#endif\n#undef LOCAL\n",
		"a5":    "#if __NPU_ARCH__ == 3510\n#ifdef SWITCH\nint a;\n#endif\n#endif\n",
		"plain": "int x;\n",
	} {
		f := parse(t, name+".cpp", src)
		own := *f.Guards
		for _, pre := range []map[string]bool{nil, {"NO_GLOBAL_ENTRY": true}, {"NO_GLOBAL_ENTRY": false, "DEBUG_STOP": true, "SWITCH": true}, {"LOCAL": false, "OTHER": true}} {
			got, want := f.Guards.With(pre), ScanGuardsWith([]byte(src), pre)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s under %v: With %+v, the text's scan %+v", name, pre, got, want)
			}
		}
		if !reflect.DeepEqual(*f.Guards, own) {
			t.Errorf("%s: With changed the parse's guard model", name)
		}
	}
	f := parse(t, "off.cpp", "#ifndef NO_GLOBAL_ENTRY\nint k;\n#endif\n")
	at := uint32(len("#ifndef NO_GLOBAL_ENTRY\n"))
	if f.Guards.CoresAt(at) != Both || f.Guards.With(map[string]bool{"NO_GLOBAL_ENTRY": true}).CoresAt(at) != None {
		t.Errorf("an includer's #define NO_GLOBAL_ENTRY does not turn the entry off")
	}
}

func TestLinesUTF16(t *testing.T) {
	src := []byte("// 中文注释 𝄞\nint x;\r\nlast")
	l := NewLines(src)
	if l.Count() != 3 {
		t.Fatalf("count %d", l.Count())
	}
	off := uint32(strings.Index(string(src), "𝄞"))
	line, col := l.PositionUTF16(off)
	if line != 0 || col != 8 {
		t.Errorf("utf16 position %d:%d, want 0:8", line, col)
	}
	if back := l.OffsetUTF16(0, 8); back != off {
		t.Errorf("offset %d, want %d", back, off)
	}
	if got := l.OffsetUTF16(0, 10); got != off+4 {
		t.Errorf("after surrogate pair: %d, want %d", got, off+4)
	}
	if l.LineText(1) != "int x;" {
		t.Errorf("line text %q", l.LineText(1))
	}
	if got := l.OffsetUTF16(1, 99); got != l.LineEnd(1) {
		t.Errorf("past end of line clamps to %d, got %d", l.LineEnd(1), got)
	}
	if got := l.OffsetUTF16(9, 0); got != uint32(len(src)) {
		t.Errorf("past end of file clamps to %d, got %d", len(src), got)
	}
}

func TestTreeNavigation(t *testing.T) {
	f := parse(t, "n.cpp", "int f(int a) { return a + 1; }\n")
	root := f.Tree.Root()
	if root.Kind() != "translation_unit" || root.Parent() != nil {
		t.Fatalf("root %s", root.Kind())
	}
	fn := root.ChildOfKind("function_definition")
	body := fn.ChildByField("body")
	if body == nil || body.Parent() != fn {
		t.Fatal("body")
	}
	n := 0
	for range fn.Descendants() {
		n++
	}
	walked := 0
	fn.Walk(func(*Node) bool { walked++; return true })
	if n != walked {
		t.Errorf("descendants %d != walk %d", n, walked)
	}
	bin := f.Tree.NodeAt(uint32(strings.Index(string(f.Src), "a + 1")), uint32(strings.Index(string(f.Src), "a + 1")+5))
	if bin.Kind() != "binary_expression" {
		t.Errorf("NodeAt = %s", bin.Kind())
	}
	if bin.Ancestor("function_definition") != fn {
		t.Error("ancestor")
	}
}

// OfKind groups by kind name: aliased symbols (a field_identifier is an
// aliased identifier) land in their name's list, every list in source
// order, as a walk of the tree finds them; a list is kept once a kind is
// asked for again.
func TestOfKind(t *testing.T) {
	for _, c := range []struct{ path, src string }{
		{"k.cpp", "struct S { int x; void m() { x = 1; } };\ntemplate <typename T> T g(T a) { S s; s.m(); return a.x + g<int>(1); }\n#define M(a) (a)\n"},
		{"s.py", "import pypto.language as pl\n@pl.jit.extern\ndef k(a: pl.Tensor, b: int):\n    return a\n"},
	} {
		f := parse(t, c.path, c.src)
		want := map[string][]*Node{}
		f.Tree.Root().Walk(func(n *Node) bool {
			if n.IsNamed() {
				want[n.Kind()] = append(want[n.Kind()], n)
			}
			return true
		})
		for k, ns := range want {
			got := f.Tree.OfKind(k)
			if !slices.Equal(got, ns) || cap(got) != len(got) {
				t.Errorf("%s: %s: %d nodes (cap %d), want %d in source order", c.path, k, len(got), cap(got), len(ns))
			}
			// Kept from the second ask on: most kinds are read once.
			again := f.Tree.OfKind(k)
			if !slices.Equal(again, ns) {
				t.Errorf("%s: %s: the second ask listed %d nodes, want %d", c.path, k, len(again), len(ns))
			}
			if third := f.Tree.OfKind(k); len(third) > 0 && &third[0] != &again[0] {
				t.Errorf("%s: %s: a third ask made a third list", c.path, k)
			}
		}
		for _, k := range []string{"no_such_kind", "ERROR", "comment_not"} {
			if got := f.Tree.OfKind(k); len(got) != len(want[k]) {
				t.Errorf("%s: %s: %d nodes, want %d", c.path, k, len(got), len(want[k]))
			}
		}
	}
	var nilTree *Tree
	if len(nilTree.OfKind("identifier")) != 0 {
		t.Error("nil tree")
	}
}

// Inside cuts a preorder list down to a subtree's share, as a walk of the
// subtree finds it.
func TestInside(t *testing.T) {
	f := parse(t, "k.cpp", "void a() { f(g(1)); auto l = [] { h(); }; }\nvoid b() {}\nint c = k();\n")
	calls := f.Tree.OfKind("call_expression")
	for _, n := range f.Tree.OfKind("compound_statement") {
		var want []*Node
		n.Walk(func(m *Node) bool {
			if m != n && m.Kind() == "call_expression" {
				want = append(want, m)
			}
			return true
		})
		got := n.Inside(calls)
		if len(got) != len(want) || len(want) > 0 && !slices.Equal(got, want) {
			t.Errorf("%q: %d calls inside, want %d", n.Text(), len(got), len(want))
		}
		if cap(got) != len(got) {
			t.Errorf("%q: room to append to the shared list", n.Text())
		}
	}
}

func TestIncrementalReparse(t *testing.T) {
	p := NewParser(CPP)
	src := []byte("void f() { a(); }\n")
	m, _ := Mask(src)
	t1, err := p.Parse(context.Background(), m, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Insert "b(); " after "{ ".
	ins := uint32(strings.Index(string(src), "a();"))
	src2 := append(append(append([]byte{}, src[:ins]...), "b(); "...), src[ins:]...)
	t1.ApplyEdit(Edit{StartByte: ins, OldEndByte: ins, NewEndByte: ins + 5, StartCol: ins, OldEndCol: ins, NewEndCol: ins + 5})
	m2, _ := Mask(src2)
	t2, err := p.Parse(context.Background(), m2, src2, t1)
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := NewParser(CPP).Parse(context.Background(), m2, src2, nil)
	if Dump(t2.Root()) != Dump(fresh.Root()) {
		t.Errorf("incremental tree differs:\n%s\nvs\n%s", Dump(t2.Root()), Dump(fresh.Root()))
	}
}

func TestBadInput(t *testing.T) {
	if _, err := ParseFile(context.Background(), nil, "b.cpp", []byte{0x7f, 'E', 'L', 'F', 0, 0}, nil); err != ErrBinary {
		t.Errorf("binary: %v", err)
	}
	for _, src := range []string{"", "{{{{", "\xff\xfe int x;", "#if\n#elif\n#endif\n#endif\n#else"} {
		f := parse(t, "x.cpp", src)
		_ = f.CoresOf(f.Tree.Root())
	}
}

func TestPythonParse(t *testing.T) {
	f := parse(t, "s.py", "import pypto.language as pl\n\n@pl.jit.extern(core_type=\"mixed\")\ndef k(x: pl.Tensor, n: pl.Scalar[pl.INDEX]): ...\n")
	if f.Lang != Python || f.Tree.HasError() || f.Tree.Root().Kind() != "module" {
		t.Fatalf("python parse:\n%s", Dump(f.Tree.Root()))
	}
}

// Sure tells a branch the compile certainly takes from one it may take.
func TestGuardsSure(t *testing.T) {
	src := []byte("#if defined(__DAV_VEC__)\nv();\n#elif defined(__DAV_CUBE__)\nc();\n#else\ne();\n#endif\n#if PROJECT_FLAG\np();\n#endif\n")
	g := ScanGuards(src)
	want := map[string]Cores{"if defined(__DAV_VEC__)": AIV, "elif defined(__DAV_CUBE__)": AIC, "else": None, "if PROJECT_FLAG": None}
	for _, d := range g.Directives {
		if d.Kind == "endif" {
			continue
		}
		key := strings.TrimSpace(d.Kind + " " + d.Cond)
		if w, ok := want[key]; !ok || d.Sure != w {
			t.Errorf("%s: Sure %v, want %v", key, d.Sure, w)
		}
		if got, ok := g.DirectiveAt(d.Start + 1); !ok || got.Start != d.Start {
			t.Errorf("DirectiveAt(%s) = %v, %v", key, got, ok)
		}
	}
	if _, ok := g.DirectiveAt(uint32(strings.Index(string(src), "v();"))); ok {
		t.Error("DirectiveAt found a directive on a code line")
	}
}

// Constructs of real kernel trees tree-sitter-cpp cannot read parse once
// masked, and every hidden text is a span at its own offset.
func TestMaskParseCoverage(t *testing.T) {
	checkCoverage(t, []coverageCase{
		{"attribute before a declaration macro",
			"[[bisheng::core_ratio(1, 2)]] CATLASS_GLOBAL void k(int a) {}\n[[block_local]] static __gm__ int *slot;\n",
			[]string{"CATLASS_GLOBAL", "__gm__"}},
		{"mixed kernel core ratio",
			"CATLASS_GLOBAL __mix__(1, 2) void k1(int a) {}\nCATLASS_GLOBAL void __mix__(1,0) k2(int b) {}\n",
			[]string{"CATLASS_GLOBAL", "__mix__(1, 2)", "CATLASS_GLOBAL", "__mix__(1,0)"}},
		{"specialised call operator",
			"struct K {\n  template <class T>\n  CATLASS_DEVICE void operator()(int p);\n  template <>\n  CATLASS_DEVICE void operator()<AscendC::AIC>(int p)\n  {\n    g((__gm__ float*)p);\n  }\n  template <>\n  void operator() <Arch::Tag<AIV>> (int p) {}\n};\n",
			[]string{"CATLASS_DEVICE", "CATLASS_DEVICE", "<AscendC::AIC>", "__gm__", "<Arch::Tag<AIV>>"}},
		{"kernel launch",
			"void h() {\n  Adapter<Kernel><<<blockDim, nullptr, stream>>>(params);\n  k<<<n, nullptr, s>>>(a, b);\n}\n",
			[]string{"<<<blockDim, nullptr, stream>>>", "<<<n, nullptr, s>>>"}},
		{"macro above a reference-returning member and a constructor",
			"struct C {\n  CATLASS_HOST_DEVICE\n  Index& m() { return i; }\n  CATLASS_HOST_DEVICE Index const& n() const { return i; }\n  CATLASS_DEVICE\n  C(Params const& p)\n    : p_(p) {}\n};\n",
			[]string{"CATLASS_HOST_DEVICE", "CATLASS_HOST_DEVICE", "CATLASS_DEVICE"}},
		{"empty braced default argument",
			"void f(Coord const& coord = {}, int n = 0) {}\nstruct S { S(Layout const& l, Coord const& c = { }); };\n",
			[]string{"= {}", "= { }"}},
		{"statements passed to checking macros",
			"int f() {\n  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT(\"x %d\", ret); return ret);\n  OP_CHECK_IF(a == nullptr, OP_LOGE(n, \"x\"), return ge::GRAPH_FAILED);\n" +
				"  CHECK_RET(x, return);\n  CHECK_RET(y, LOG(\"y\"); return ret;);\n  CHECK_RET(z, LOG(\"z\"); return);\n  for (;;) { CHECK_OK(x, break); }\n  RUN_ALL([&]() { a(); return 1; });\n  return 0;\n}\n",
			[]string{";", "return", "return", ",", "return", ";", "return", ";", ";", "return", ",", "break"}},
		{"member template call without arguments",
			"void f() {\n  this->q.template EnQue(x);\n  p->template Iterate(k != 0);\n  r.template Get<int>();\n}\n",
			[]string{"template", "template"}},
		{"__has_include condition",
			"#if __has_include(\"../x/y.h\") && defined(A)\n#include \"../x/y.h\"\n#elif __has_include(<z.h>)\n#endif\n",
			[]string{`("../x/y.h")`, "(<z.h>)"}},
		{"tiling data definition",
			"namespace optiling {\nBEGIN_TILING_DATA_DEF(FooTilingData)\n  TILING_DATA_FIELD_DEF(uint32_t, coreNum);\n  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, arr);\n" +
				"  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(Foo, FooTilingData)\n" +
				"REGISTER_TILING_DATA_CLASS(Foo_1, FooTilingData);  // a key\nMOE_IMPL(float, 8, 8);\n}\n",
			[]string{"BEGIN_TILING_DATA_DEF(", ")", "TILING_DATA_FIELD_DEF(", ",", ")", "TILING_DATA_FIELD_DEF_ARR(", ", 8,", ")",
				"TILING_DATA_FIELD_DEF_STRUCT(", ",", ")", "END_TILING_DATA_DEF", "REGISTER_TILING_DATA_CLASS(Foo, FooTilingData)",
				"REGISTER_TILING_DATA_CLASS(Foo_1, FooTilingData);", "MOE_IMPL(float, 8, 8);"}},
		{"export macro before a qualified or wrapped declaration",
			"ACLNN_API aclnnStatus\naclnnFoo(void* w);\nFIA_EXTERN_C ge::graphStatus Tiling(gert::TilingContext *c);\n" +
				"struct B {\n  CATLASS_DEVICE AscendC::LocalTensor<E> const& visit(int i) { return t; }\n};\n",
			[]string{"ACLNN_API", "FIA_EXTERN_C", "CATLASS_DEVICE"}},
		{"more AscendC qualifiers",
			"__simd_vf__ static inline void V(__ubuf__ float *u) {}\n__aicore__ inline __inout_pipe__(MTE2) void C(int n) {}\n",
			[]string{"__simd_vf__", "__ubuf__", "__aicore__", "__inout_pipe__(MTE2)"}},
		{"stray ';' after a call operator's body",
			"struct Copy {\n  CATLASS_DEVICE void operator()(int d, int s)\n  {\n    Run(d, s);\n  };\n};\n",
			[]string{"CATLASS_DEVICE", ";"}},
		{"extern C under __cplusplus",
			"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(int);\n#if defined(__cplusplus) // C++\n}  // extern C\n#endif\n",
			[]string{"extern \"C\" {", "}"}},
	})
}

// What the coverage masks must leave alone: a lambda capture ending in
// `]]`, a subscript, comparisons and assignments with braces, a shift, a
// macro statement in a function body, a macro that is a call's argument.
func TestMaskCoverageLeavesCode(t *testing.T) {
	src := "void g(int *a, int i) {\n  auto f = [v = a[i]](int x) { return x; };\n  int y = a[a[i]];\n  y = y << 2;\n  Coord c = {};\n  c = {};\n" +
		"  if (y == 3) {}\n  TRACE_POINT\n  x & y;\n  return;\n}\nint h() { return CHECK_RET(1, 2); }\n" +
		// A macro that may carry control flow stays for the macro model,
		// in any body; one that opens a definition stays too.
		"struct T {\n  void run() const {\n    REGISTER_X(pipe)\n    go();\n  }\n};\nKERNEL_ENTRY(foo)\n{\n  go();\n}\n"
	f := parse(t, "k.cpp", src)
	if len(f.Masks) != 0 {
		t.Errorf("masked %v", f.Masks)
	}
	if n := f.Tree.Root().ChildOfKind("function_definition"); n == nil {
		t.Fatal("no function")
	}
	var lambda bool
	f.Tree.Root().Walk(func(n *Node) bool {
		lambda = lambda || n.Kind() == "lambda_expression"
		return true
	})
	if !lambda {
		t.Errorf("lambda lost:\n%s", Dump(f.Tree.Root()))
	}
}

// Every prefix of code the coverage masks touch (an unterminated launch,
// attribute, macro call, directive or comment) masks without panicking
// and keeps its length.
func TestMaskPrefixes(t *testing.T) {
	src := "#ifdef __cplusplus\nextern \"C\" {\n#endif\n#if __has_include(\"a.h\")\n#endif\nnamespace n {\nBEGIN_TILING_DATA_DEF(D)\n" +
		"TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, a);\nEND_TILING_DATA_DEF;\nREGISTER_X(a, b) /* c */\n[[attr(1)]] CATLASS_GLOBAL __mix__(1, 2) void k(C c = {}) {\n" +
		"  K<T><<<n, s>>>(a);\n  q.template EnQue(x);\n  CHECK_RET(c, LOG(\"x\"); return;);\n}\nstruct S { CATLASS_DEVICE void operator()<AIC>(int p) {}; };\n}\n#ifdef __cplusplus\n}\n#endif\n"
	for i := 0; i <= len(src); i++ {
		m, _ := Mask([]byte(src[:i]))
		if len(m) != i {
			t.Fatalf("prefix %d: masked length %d", i, len(m))
		}
	}
}

// A computed `#include NAME` names the path NAME was last defined as; an
// #undef forgets it.
func TestComputedIncludes(t *testing.T) {
	src := "#define IMPL \"impl_a.h\" // the A body\n#include IMPL\n#undef IMPL\n#include IMPL\n#define IMPL <impl_b.h>\n#include IMPL\n#define F(x) \"f.h\"\n#include F\n"
	f, err := ParseFile(context.Background(), nil, "/k/e.cpp", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, inc := range f.Includes {
		got = append(got, fmt.Sprintf("%s %v %s", inc.Path, inc.System, src[inc.Start:inc.End]))
	}
	want := []string{"impl_a.h false IMPL", "impl_b.h true IMPL"}
	if !slices.Equal(got, want) {
		t.Errorf("includes %q, want %q", got, want)
	}
}

// The Go tree leaves out punctuation but keeps operators (they are fields),
// keywords, and the tokens the parser reports missing.
func TestPunctuationLeftOut(t *testing.T) {
	f := parse(t, "p.cpp", "void k(int *p) { ns::g<int>(p[0], 1); if (p[1] < 2) { p[0] = -p[1]; } return; }\nint x = 1\n")
	var kinds []string
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if !n.IsNamed() && !n.IsMissing() {
			kinds = append(kinds, n.Kind())
			if punctuation[n.Kind()] && n.Field() == "" {
				t.Errorf("punctuation %q kept at %d", n.Kind(), n.Start)
			}
		}
		if n.Index() != i || (n.Parent() != nil && !n.Parent().Contains(n)) {
			t.Errorf("node %d (%s): index %d, parent %v", i, n.Kind(), n.Index(), n.Parent())
		}
	}
	for _, want := range []string{"if", "return", "*", "<", "=", "-"} {
		if !slices.Contains(kinds, want) {
			t.Errorf("%q left out (anonymous nodes: %q)", want, kinds)
		}
	}
	if !f.Tree.HasError() {
		t.Error("the missing `;` after `int x = 1` is not reported")
	}
	bin := f.Tree.NodeAt(uint32(strings.Index(string(f.Src), "p[1] < 2")), uint32(strings.Index(string(f.Src), "p[1] < 2")+8))
	if op := bin.ChildByField("operator"); bin.Kind() != "binary_expression" || op == nil || op.Kind() != "<" {
		t.Errorf("binary expression %s, operator %v", bin.Kind(), op)
	}
	// Python trees keep every token.
	py := parse(t, "p.py", "def f(a, b):\n    return (a, b)\n")
	n := 0
	for i := range py.Tree.Nodes {
		if py.Tree.Nodes[i].Kind() == "(" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("python tree: %d `(` nodes, want 2", n)
	}
}
