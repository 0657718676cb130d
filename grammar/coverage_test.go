package grammar

import (
	"strings"
	"testing"
)

// coverageCase is a construct of real AscendC trees that parsed with ERROR
// nodes before the masker learnt it: it must parse cleanly, hide exactly
// the texts in masked (in order), and keep each hidden text at its offset.
type coverageCase struct {
	name, src string
	masked    []string
}

// checkUnmasked parses src, which the masker must leave as it is.
func checkUnmasked(t *testing.T, src string) *File {
	t.Helper()
	f := parse(t, "k.cpp", src)
	if len(f.Masks) != 0 {
		t.Errorf("masked %v", f.Masks)
	}
	return f
}

func checkCoverage(t *testing.T, cases []coverageCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := parse(t, "c.cpp", c.src)
			if f.Tree.HasError() {
				t.Errorf("parse errors:\n%s", Dump(f.Tree.Root()))
			}
			var got []string
			for _, s := range f.Masks {
				if c.src[s.Start:s.End] != s.Text {
					t.Errorf("span %d-%d text %q, source has %q", s.Start, s.End, s.Text, c.src[s.Start:s.End])
				}
				got = append(got, s.Text)
			}
			if strings.Join(got, "|") != strings.Join(c.masked, "|") {
				t.Errorf("masked %q, want %q", got, c.masked)
			}
		})
	}
}

// Declaration-position macros in the places pto-isa puts them: after a
// linkage specification, a GNU attribute or a specifier, and function-like
// ones that expand to attributes.
func TestMaskDeclarationMacroPlaces(t *testing.T) {
	checkCoverage(t, []coverageCase{
		{"after extern \"C\"",
			"extern \"C\" __global__ AICORE void add_custom(GM_ADDR x, GM_ADDR y) {}\nextern \"C++\" AICORE int g();\n",
			[]string{"__global__", "AICORE", "AICORE"}},
		{"after a GNU attribute",
			"__inline__ __attribute__((always_inline)) AICORE void impl(__gm__ float *x) {}\n",
			[]string{"__inline__", "AICORE", "__gm__"}},
		{"after a specifier",
			"template <typename T>\nconstexpr AICORE std::size_t bytes() { return sizeof(T); }\nstatic PTO_INLINE int h();\n",
			[]string{"AICORE", "PTO_INLINE"}},
		{"function-like attribute macros",
			"template <typename D, typename S>\n__tf__ PTO_INTERNAL OP_NAME(TADD) OP_TYPE(element_wise) void TAdd(\n" +
				"    typename D::TileDType __out__ dst, typename S::TileDType __in__ src, unsigned n)\n{\n}\n" +
				"struct K {\n  AICORE OP_NAME(X) void run();\n};\n",
			[]string{"__tf__", "PTO_INTERNAL", "OP_NAME(TADD)", "OP_TYPE(element_wise)", "__out__", "__in__", "AICORE", "OP_NAME(X)"}},
	})
}

// What the new declaration-macro places leave alone: an all-caps function
// (`NAME(int a) const`), a constructor of an all-caps class, a macro with
// arguments in a body (a loop header) and a gtest definition.
func TestMaskDeclarationMacroPlacesLeaveCode(t *testing.T) {
	src := "struct ABCD {\n  ABCD(int a) : x(a) {}\n  DTYPE GETX(int a) const { return x; }\n  int x;\n};\n" +
		"void f() {\n  FOR_ELEMENTS(N)\n  int v = 0;\n}\nTEST_F(Suite, Case)\n{\n}\nextern \"C\" int g;\n"
	checkUnmasked(t, src)
}

// The masked declarations keep what the rules read: the function's name,
// its parameters and their qualifiers, at the source's offsets.
func TestMaskedDeclarationNodes(t *testing.T) {
	src := "template <typename D, typename S>\n__tf__ PTO_INTERNAL OP_NAME(TLOAD) OP_TYPE(memory) void TLoad(typename D::TileDType __out__ dst,\n" +
		"    __gm__ typename S::DType __in__ *src, int n)\n{\n    __ubuf__ float *d = (__ubuf__ float *)dst;\n}\n" +
		"extern \"C\" __global__ AICORE void k(__gm__ uint8_t *x) { TLoad<A, B>(t, x, 1); }\n"
	f := parse(t, "k.cpp", src)
	if f.Tree.HasError() {
		t.Fatalf("parse errors:\n%s", Dump(f.Tree.Root()))
	}
	fns := f.Tree.OfKind("function_definition")
	if len(fns) != 2 {
		t.Fatalf("%d functions, want 2:\n%s", len(fns), Dump(f.Tree.Root()))
	}
	for i, want := range []string{"TLoad", "k"} {
		d := fns[i].ChildByField("declarator")
		name := d.ChildByField("declarator")
		if name == nil || name.Text() != want {
			t.Errorf("function %d declarator %q, want name %q", i, d.Text(), want)
			continue
		}
		if at := strings.Index(src, want+"("); int(name.Start) != at {
			t.Errorf("%s at %d, want %d", want, name.Start, at)
		}
	}
	params := fns[0].ChildByField("declarator").ChildByField("parameters").NamedChildren()
	if len(params) != 3 {
		t.Fatalf("TLoad has %d parameters, want 3", len(params))
	}
	if !f.NodeHasQualifier(params[1], "__gm__") || !f.NodeHasQualifier(params[1], "__in__") || !f.NodeHasQualifier(params[0], "__out__") {
		t.Errorf("parameter qualifiers lost: %v / %v", f.NodeQualifiers(params[0]), f.NodeQualifiers(params[1]))
	}
	if !f.NodeHasQualifier(fns[1], "__global__") {
		t.Errorf("kernel k lost __global__: %v", f.NodeQualifiers(fns[1]))
	}
}

// Vector-function scopes and GNU inline assembly in kernel bodies.
func TestMaskVectorScopeAndAsm(t *testing.T) {
	src := "AICORE void run(__gm__ float *p)\n{\n    __VEC_SCOPE__\n    {\n        RegTensor<float> v;\n    }\n" +
		"    __asm__ __volatile__(\"\");\n    asm __volatile__(\"dsb\" : : : \"memory\");\n    dcci(p, SINGLE_CACHE_LINE);\n}\n"
	checkCoverage(t, []coverageCase{{"kernel body", src,
		[]string{"AICORE", "__gm__", "__VEC_SCOPE__", "__volatile__", "__volatile__"}}})
	f := parse(t, "k.cpp", src)
	body := f.Tree.OfKind("function_definition")[0].ChildByField("body")
	var kinds []string
	for _, s := range body.NamedChildren() {
		kinds = append(kinds, s.Kind())
	}
	// The scope is a block and the call after the assembly a statement of
	// the body (rules walk the body's statements in order).
	if got := strings.Join(kinds, " "); got != "compound_statement expression_statement expression_statement expression_statement" {
		t.Errorf("body statements %s:\n%s", got, Dump(body))
	}
}

// Host-side shapes of operator libraries: a graph registration ended by
// its macro, empty declarations, a stray ';' after a qualified member
// function's body, format macros between string literals and macro
// arguments continued over lines (CRLF ones too).
func TestMaskHostShapes(t *testing.T) {
	checkCoverage(t, []coverageCase{
		{"operator registration",
			"namespace ge {\nREG_OP(Or)\n    .INPUT(x1, TensorType::IntegerDataType())\n    .OP_END_FACTORY_REG(Or)\n\n" +
				"REG_OP(Add)\n    .OP_END_FACTORY_REG(Add);\n}\n",
			[]string{".OP_END_FACTORY_REG(Or)"}},
		{"empty declarations",
			"struct S {\n  using T = typename C<A, B>::type;;\n  int x; ;\n};\nint y;;\n",
			[]string{";", ";", ";"}},
		{"stray ';' after a namespace",
			"namespace ops {\nIMPL_OP(Concat).InferDataType(Infer);\n}; // namespace ops\n",
			[]string{";"}},
		{"stray ';' after a qualified member function",
			"struct S : B {\n  int f() override { return 0; };\n  int g() const &\n  {\n    return 1;\n  };\n  int h() const noexcept {};\n};\n",
			[]string{";", ";", ";"}},
		{"format macros",
			"void h() {\n  LOG_INFO(\"batch = %\" PRIu64, batch);\n  printf(\"%\" PRId64 \" and %\" PRIuPTR \"\\n\", a, b);\n  printf(\"%\"\n    SCNxFAST32, c);\n}\n",
			[]string{"PRIu64", "PRId64", "PRIuPTR", "SCNxFAST32"}},
		{"line splices",
			"int h() {\n  CHECK_RET(ret == 0, LOG_PRINT(\"x\"); \\\n    return ret);\n  return 0;\n}\n",
			[]string{";", "\\", "return"}},
		{"CRLF line splices",
			"int h()\r\n{\r\n  CHECK_RET(ret == 0, LOG(\"x\"); \\\r\n    return ret);\r\n  return 0;\r\n}\r\n#define X(a) \\\r\n  a + 1\r\nint z;\r\n",
			[]string{";", "\\", "return"}},
	})
}

// What the host shapes leave alone: a for loop's `;;`, a lambda's ';'
// after `mutable`, a format macro away from a string, a backslash in a
// string or a directive, a registration that ends in ';'.
func TestMaskHostShapesLeaveCode(t *testing.T) {
	src := "void f() {\n  for (;;) {}\n  auto l = [&]() mutable { return 1; };\n  int PRIu64x = 0;\n  auto m = PRId64;\n  const char *s = \"a\\\\\n\";\n}\n" +
		"#define Y(a) \\\n  a\nvoid g() { REG_OP(A).OP_END_FACTORY_REG(A); }\n"
	checkUnmasked(t, src)
	// The kernel-side reading of a splice: the macro's arguments stay
	// one call, its statement one statement of the body.
	f := parse(t, "s.cpp", "int h() {\n  CHECK_RET(ret == 0, LOG(\"x\"); \\\n    return ret);\n  return 0;\n}\n")
	body := f.Tree.OfKind("function_definition")[0].ChildByField("body").NamedChildren()
	if len(body) != 2 || body[0].Kind() != "expression_statement" || body[0].StartRow() != 1 || body[0].EndRow() != 2 {
		t.Errorf("spliced statement:\n%s", Dump(f.Tree.Root()))
	}
}

// A pragma macro alone above a loop (`PTO_CPU_VECTORIZE_LOOP`) ends with a
// ';' at the loop's indentation: the loop parses and the macro stays an
// expression statement named as written (the macro model reads it).
func TestMaskMacroAboveLoop(t *testing.T) {
	src := "void f(int n)\n{\n    for (int r = 0; r < n; r++) {\n        PTO_CPU_VECTORIZE_LOOP\n        for (int c = 0; c < n; c++) {\n" +
		"            d[c] = 1;\n        }\n        UNROLL_HINT(4)\n\twhile (x) {}\n    }\n}\n"
	checkCoverage(t, []coverageCase{{"pragma macros", src, []string{" ", "\t"}}})
	f := parse(t, "k.cpp", src)
	var names []string
	for _, s := range f.Tree.OfKind("expression_statement") {
		if id := s.NamedChildren()[0]; id.Kind() == "identifier" || id.Kind() == "call_expression" {
			names = append(names, id.Text())
		}
	}
	if got := strings.Join(names, "|"); got != "PTO_CPU_VECTORIZE_LOOP|UNROLL_HINT(4)" {
		t.Errorf("macro statements %q", got)
	}
	if n := len(f.Tree.OfKind("for_statement")); n != 2 {
		t.Errorf("%d for loops, want 2", n)
	}
	// A macro above something else, or above a loop at the margin, stays.
	checkUnmasked(t, "void g() {\n  TRACE_POINT\n  x = 1;\n  TRACE_POINT\nfor (;;) {}\n}\n")
}

// A statement macro written without its ';' above the '}' ending its
// block (`#define SET f();`) ends with a ';' on the '}' line's
// indentation: the block ends where it is written. Not in an initializer
// list, nor with the '}' at the margin.
func TestMaskStatementMacroBeforeClose(t *testing.T) {
	src := "#define SET f();\nvoid k(bool a) {\n  if (a) {\n    {\n      Pipe p;\n      SET\n    }\n    Pipe q;\n    WAIT_ALL(2)\n  }\n}\n"
	checkCoverage(t, []coverageCase{{"statement macros", src, []string{" ", " "}}})
	f := parse(t, "k.cpp", src)
	var names []string
	for _, s := range f.Tree.OfKind("expression_statement") {
		names = append(names, s.NamedChildren()[0].Text())
	}
	if got := strings.Join(names, "|"); got != "SET|WAIT_ALL(2)" {
		t.Errorf("macro statements %q", got)
	}
	if b := f.Tree.OfKind("compound_statement"); len(b) != 3 || !strings.HasSuffix(b[2].Text(), "SET\n    }") {
		t.Errorf("blocks:\n%s", Dump(f.Tree.Root()))
	}
	checkUnmasked(t, "void g() {\n  int v[] = {\n    A,\n    LAST\n  };\n  SET\n}\n")
}

// A conditional group inside parentheses (a parameter or an argument
// under `#if SIMPLER_DFX`) keeps its first branch; its directives and the
// other branches are hidden.
func TestMaskConditionalInParentheses(t *testing.T) {
	src := "int32_t S::exit(\n    int32_t idx, int32_t last\n#if DFX\n    ,\n    uint64_t ts\n#endif\n) {\n" +
		"    R r = poll<false>(\n        a, b\n#if PROFILING\n        , idx\n#else\n        , 0\n#endif\n    );\n" +
		"    if (a\n#ifdef X\n#if Y\n        && b\n#endif\n#elif defined(Z)\n        && c\n#endif\n    ) {}\n}\n"
	checkCoverage(t, []coverageCase{{"parameters, arguments, a condition", src,
		[]string{"#if DFX", "#endif", "#if PROFILING", "#else\n        , 0\n#endif", "#ifdef X", "#if Y", "#endif", "#elif defined(Z)\n        && c\n#endif"}}})
	f := parse(t, "k.cpp", src)
	params := f.Tree.OfKind("function_definition")[0].ChildByField("declarator").ChildByField("parameters").NamedChildren()
	if len(params) != 3 || params[2].Text() != "uint64_t ts" {
		t.Errorf("parameters: %d:\n%s", len(params), Dump(f.Tree.Root()))
	}
}

// The same in a designated initializer list (a table of function
// pointers with entries under `#if DFX`); a class's members keep their
// groups.
func TestMaskConditionalInInitializer(t *testing.T) {
	src := "static const Ops ops = {\n    .end = end_impl,\n#if DFX\n    .site = site_impl,\n#else\n    .x = 0,\n#endif\n};\n" +
		"struct K {\n#ifdef A\n  int a;\n#endif\n  int b = {1};\n};\n"
	checkCoverage(t, []coverageCase{{"initializer", src, []string{"#if DFX", "#else\n    .x = 0,\n#endif"}}})
	f := parse(t, "k.cpp", src)
	if n := len(f.Tree.OfKind("preproc_ifdef")); n != 1 {
		t.Errorf("%d #ifdef groups in the tree, want the class's one", n)
	}
}

// Conditional groups the masker must leave to tree-sitter: at statement
// level, and after parentheses whose nesting an #if split (the masker's
// count is off there; a later core guard keeps both branches).
func TestMaskConditionalLeavesStatements(t *testing.T) {
	src := "void k() {\n#if A\n  f(a,\n#else\n  f(b,\n#endif\n    c);\n  g();\n#ifdef __DAV_C220_CUBE__\n  cube(x);\n#else\n  vec(x);\n#endif\n}\n"
	f := checkUnmasked(t, src)
	var calls []string
	for _, c := range f.Tree.OfKind("call_expression") {
		calls = append(calls, c.ChildByField("function").Text())
	}
	if got := strings.Join(calls, " "); !strings.Contains(got, "cube") || !strings.Contains(got, "vec") {
		t.Errorf("calls %s", got)
	}
}

// catlass' shapes: the call operator called by name on an object, an
// operator returning a reference below a declaration macro, and a lone
// ';' among members.
func TestMaskCatlassShapes(t *testing.T) {
	src := "struct S {\n  static constexpr int N = 16;\n  ;\n  CATLASS_HOST_DEVICE\n  Coord& operator+=(Coord const& b) { return *this; }\n};\n" +
		"void k() {\n  blockMmad.template operator()<AIC_SYNC_AIV_MODE_2>(\n    tensorA, tensorB);\n  t ? d.template operator()<true>() : p->operator()(x);\n}\n"
	checkCoverage(t, []coverageCase{{"members and calls", src,
		[]string{";", "CATLASS_HOST_DEVICE", ".template operator()<AIC_SYNC_AIV_MODE_2>", ".template operator()<true>", "->operator()"}}})
	f := parse(t, "k.cpp", src)
	var callees []string
	for _, c := range f.Tree.OfKind("call_expression") {
		callees = append(callees, c.ChildByField("function").Text())
	}
	// The object is the callee, as in `blockMmad(tensorA, tensorB)`.
	if got := strings.Join(callees, " "); got != "blockMmad d p" {
		t.Errorf("callees %q", got)
	}
	// A declaration of the operator and a dependent member template stay.
	checkUnmasked(t, "struct T {\n  void operator()(int a);\n};\nvoid g() { q.template EnQue<T>(x); r.operator int(); }\n")
}

// More AscendC keywords: buffers, kernel kinds, a SIMT function's thread
// bound (its argument nested), a project's tiling pointer spelling.
func TestMaskMoreKeywords(t *testing.T) {
	checkCoverage(t, []coverageCase{{"keywords",
		"__simt_vf__ __aicore__ __launch_bounds__(sizeof(T) <= 4 ? THREAD_NUM_32 : THREAD_NUM_64)\ninline void Run(int n) {\n" +
			"  __biasbuf__ typename B::DType* d = (__biasbuf__ typename B::DType*)p;\n  __ssbuf__ uint32_t* c = (__ssbuf__ uint32_t*)q;\n}\n" +
			"extern \"C\" __global__ __vector__ void kv(__gm__ uint8_t *x) {}\n__cube__ void kc() {}\n" +
			"struct Op {\n  __tiling_data_ptr__ CastTilingData* tilingData_{nullptr};\n};\n",
		[]string{"__simt_vf__", "__aicore__", "__launch_bounds__(sizeof(T) <= 4 ? THREAD_NUM_32 : THREAD_NUM_64)", "__biasbuf__", "__biasbuf__",
			"__ssbuf__", "__ssbuf__", "__global__", "__vector__", "__gm__", "__cube__", "__tiling_data_ptr__"}}})
}

// An unnamed enum with a fixed underlying type reads as its enumerators;
// a named one, and `enum class`, need nothing.
func TestMaskUnnamedEnumBase(t *testing.T) {
	checkCoverage(t, []coverageCase{
		{"unnamed", "namespace kv {\nenum : int32_t { kOut = 0, kIn = 1 };\nenum :\n  std::uint8_t\n{ kA };\n}\n",
			[]string{": int32_t ", ":\n  std::uint8_t\n"}},
		{"named", "enum Slot : int32_t { kOut = 0 };\nenum class Mode : uint8_t { kA };\nint x = a ? b : c;\n", nil},
	})
}

// A macro the file defines to paste its arguments (`CONCAT(a, b)` through
// `a##b`) reads as one name wherever it names a class, a function or a
// test; a macro that pastes nothing (pto-isa's TCONCAT op) stays a call.
func TestMaskPastedNames(t *testing.T) {
	src := "#define CONCAT_HIDDEN(a, b) a##b\n#define CONCAT(a, b) CONCAT_HIDDEN(a, b)\nclass CONCAT(CASENAME, Test) : public testing::Test {\n};\n" +
		"template <typename T>\nvoid CONCAT(Launch, CASENAME)(T* out, void* stream);\ntemplate void CONCAT(Launch, CASENAME)<float>(float* out, void* stream);\n" +
		"void CONCAT(test_, CASENAME)()\n{\n    CONCAT(Launch, CASENAME)<T>(dst, stream);\n    TCONCAT(dst, a, b);\n}\nTEST_F(CONCAT(CASENAME, Test), case_half) {}\n"
	checkCoverage(t, []coverageCase{{"pasted names", src, []string{"CONCAT(CASENAME, Test)", "CONCAT(Launch, CASENAME)",
		"CONCAT(Launch, CASENAME)", "CONCAT(test_, CASENAME)", "CONCAT(Launch, CASENAME)", "CONCAT(CASENAME, Test)"}}})
	checkUnmasked(t, "#define DECL(n) int var_##n\nvoid f() {\n  DECL(x) = 1;\n}\n")
	f := parse(t, "k.cpp", src)
	class := f.Tree.OfKind("class_specifier")[0].ChildByField("name")
	if class == nil || class.Text() != "CONCAT(CASENAME, Test)" || int(class.Start) != strings.Index(src, "CONCAT(CASENAME") {
		t.Errorf("class name:\n%s", Dump(f.Tree.Root()))
	}
}

// Session 4's leftovers of the public trees: an if-else chain an #if
// splits (a kernel's tiling-key dispatch), a project's own core macro after
// `if`, GNU named variadic macro parameters, empty and jump arguments of
// checking macros, a macro that opens a block, `delete[](p)`.
func TestMaskChainsAndMacroShapes(t *testing.T) {
	chain := "void k(int key) {\n  if (key == 1) {\n    a();\n  }\n#if DTYPE == 1\n  else if (key == 4) {\n    b();\n  }\n" +
		"#elif defined(Y)\n  // the other type\n  else if (key == 5) {\n#if Z\n    c();\n#endif\n  }\n#endif\n  else {\n    d();\n  }\n}\n"
	// The style where each branch opens with the brace closing the one
	// before it (a tiling-key dispatch whose key 4 one chip lacks).
	closing := "void k(int key) {\n  if (key == 1) {\n    a();\n#if !defined(ARCH_B)\n  } else if (key == 4) {\n    b();\n" +
		"#else\n  } /* no bf16 */ else if (key == 5) {\n    c();\n#endif\n  } else {\n    d();\n  }\n}\n"
	checkCoverage(t, []coverageCase{
		{"#if in an else-if chain", chain, []string{"#if DTYPE == 1", "#elif defined(Y)", "#endif"}},
		{"#if in a `} else if` chain", closing, []string{"#if !defined(ARCH_B)", "#else", "#endif"}},
		{"a project's core macro", "void k() {\n  if ASCEND_IS_AIV_SCALAR {\n    a();\n  }\n}\n", []string{" ASCEND_IS_AIV_SCALAR "}},
		{"named variadic parameters",
			"#define INFO_LOG(fmt, args...) fprintf(stdout, fmt \"\\n\", ##args)\n#define PRT(fmt...) printf(fmt)\nint x;\n",
			[]string{"...", "..."}},
		{"checking macros' arguments",
			"int k() {\n  CHECK_RET(ret == 0, goto cleanup);\n  OP_CHECK(s != 0, , return s);\n  ASSERT(n > 0, return, \"n > 0\");\n" +
				"  LAUNCH(run, , (1, nullptr));\ncleanup:\n  return 0;\n}\n",
			[]string{"goto", ",", "return", ",", "return", ","}},
		{"a macro opening a block",
			"void k() {\n  CCU_IF(ctx.size != 0) { a(); }\n  FUNCTION(\"main\", {in[0]}, {out[0]}) {\n    b();\n  }\n}\n",
			[]string{" ", " "}},
		{"a cast to a dependent type",
			"template <typename T>\nvoid f(T &t, typename T::DType s = typename T::DType(1)) {\n  auto z = typename T::Shape{};\n  return typename T::DType(0);\n}\n",
			[]string{"typename", "typename", "typename"}},
		{"an alias of a macro's type",
			"template <typename T> struct K {\n  using One = MAKE_CONST(T, 1.0);\n  using Neg = MAKE_CONST(float, -0.5); // -1/2\n};\n",
			[]string{"(T, 1.0)", "(float, -0.5)"}},
		{"a call through a pointer to member",
			"void k(K *obj) {\n  (obj->*handler)(n);\n  if (!(this->*stage)()) {\n    return;\n  }\n}\n",
			[]string{"*", "*"}},
		{"delete[] of a parenthesized pointer", "void k(char *p) {\n  delete[](p);\n  delete [] (int *)q;\n}\n", []string{"[]", "[]"}},
	})
	// The chain is one if statement whose last alternative is the else;
	// the macro's block is a block after the macro's statement.
	for _, src := range []string{chain, closing} {
		f := parse(t, "k.cpp", src)
		if ifs := f.Tree.OfKind("if_statement"); len(ifs) != 3 || ifs[0].ChildByField("alternative") == nil {
			t.Errorf("chain:\n%s", Dump(f.Tree.Root()))
		}
	}
}

// What they leave alone: an #if group whose branch does not continue a
// chain, or does not balance its braces; `if (NAME)`; a macro's block on
// the next line at the margin.
func TestMaskChainsLeaveCode(t *testing.T) {
	checkUnmasked(t, "void k(int key) {\n  if (key) {\n  }\n#if A\n  else {\n#else\n  else if (b) {\n#endif\n    x();\n  }\n"+
		"  if (key) {\n#if C\n  } else if (c) {\n    y();\n  }\n#endif\n"+
		"#if B\n  f();\n#endif\n  if (ASCEND_IS_AIV_SCALAR) { g(); }\n  CCU_IF(c)\n{ h(); }\n}\n"+
		"template <typename T> struct Q { typename T::V (*fp)(int); typename T::S s{}; };\n"+
		"using A = TYPE_OF(x)::type;\nusing B = decltype(f(1));\n")
}

// A type handed to a macro as a whole argument (`TENSOR(int32_t, args,
// 2)`) is read as a name, so the call parses; `sizeof(int32_t)`, a cast, a
// declaration's parameter types and a type inside a longer argument stay
// as written.
func TestMaskTypeMacroArguments(t *testing.T) {
	checkCoverage(t, []coverageCase{
		{"macro type arguments",
			"void f(long *args) {\n  auto *p = TENSOR(int32_t, args, 2);\n  auto *q = VIEW(args, float);\n  CAST_ALL( uint8_t , args);\n}\n",
			[]string{"i", "f", "u"}},
	})
	checkUnmasked(t, "void f(int32_t a, float) {\n  int n = sizeof(int32_t);\n  auto m = (float)n;\n  g(n, (int32_t)a);\n  H(static_cast<int32_t>(a));\n}\n")
	f := parse(t, "k.cpp", "void f(long *args) { auto *p = TENSOR(int32_t, args, 2); }\n")
	call := f.Tree.OfKind("call_expression")[0]
	if arg := call.ChildByField("arguments").NamedChildren()[0]; arg.Kind() != "identifier" || arg.Text() != "int32_t" {
		t.Errorf("argument %s %q, want the identifier int32_t", arg.Kind(), arg.Text())
	}
}

// A class member declared with several defaulted declarators (`uint32_t
// rows = 0, cols = 0;`): tree-sitter takes a default value on a member's
// last declarator only, so the others' are hidden.
func TestMaskMemberDefaults(t *testing.T) {
	checkCoverage(t, []coverageCase{
		{"two defaults",
			"class Op {\n  uint32_t rows = 0, cols = 0;\n};\n",
			[]string{"= 0"}},
		{"three, a call and a list",
			"struct S {\n  Foo<A, B> m = y, n = f(1, 2), o = {1, 2}, p;\n  int64_t a_ = 0, b_;\n};\n",
			[]string{"= y", "= f(1, 2)", "= {1, 2}", "= 0"}},
	})
	// Left as written: a function body's declaration, an enum, a member
	// function's default arguments, a template argument list.
	src := "void g() { int a = 0, b = 1; }\nenum E { kA = 0, kB = 1 };\n" +
		"class K {\n  void f(int a = 0, int b = 1);\n  TQue<QuePosition::VECOUT, 2> q;\n  int x = 1;\n" +
		"  LocalTensor<half> t = buf.GetBuffer<BufferType::ASCEND_CB, half>(offset);\n};\n"
	checkUnmasked(t, src)
}
