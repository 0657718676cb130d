package abi_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func parsePy(t *testing.T, path, src string) *grammar.File {
	t.Helper()
	f, err := grammar.ParseFile(context.Background(), nil, path, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func stubByName(t *testing.T, ss []*abi.Stub, name string) *abi.Stub {
	t.Helper()
	for _, s := range ss {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no stub %q among %d", name, len(ss))
	return nil
}

func TestQwenFixtureTables(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/abi/qwen")
	ws := workspace.New(root)
	ss := ws.Stubs()
	if len(ss) != 2 {
		t.Fatalf("stubs = %d, want 2", len(ss))
	}
	attn := stubByName(t, ss, "paged_attention_cce")
	rope := stubByName(t, ss, "paged_attention_rope_cce")
	if attn.Tensors != 7 || attn.Scalars != 1 || rope.Tensors != 17 || rope.Scalars != 2 {
		t.Fatalf("counts: attn %d+%d, rope %d+%d", attn.Tensors, attn.Scalars, rope.Tensors, rope.Scalars)
	}
	for _, c := range []struct {
		s    *abi.Stub
		slot int
		name string
		pos  int
		kind abi.ParamKind
	}{
		{attn, 7, "cache_row_offset", 7, abi.Scalar},
		{rope, 7, "q_proj", 8, abi.Tensor},
		{rope, 16, "seq_lens", 17, abi.Tensor},
		{rope, 17, "cache_row_offset", 7, abi.Scalar},
		{rope, 18, "batch_offset", 18, abi.Scalar},
	} {
		p, ok := c.s.BySlot(c.slot)
		if !ok || p.Name != c.name || p.Pos != c.pos || p.Kind != c.kind {
			t.Errorf("%s args[%d] = %+v, want %s at signature %d", c.s.Name, c.slot, p, c.name, c.pos)
		}
	}
	if rope.Return == nil || rope.Return.Name != "out" || !rope.Mixed() || !rope.DualAIVDispatch {
		t.Errorf("rope return/core: %+v %s %v", rope.Return, rope.CoreType, rope.DualAIVDispatch)
	}
	if p, _ := rope.BySlot(17); p.DType != "INDEX" {
		t.Errorf("dtype = %q", p.DType)
	}
	kdir := filepath.Join(root, "kernels", "qwen_fai")
	if got := ws.StubEntries(rope); len(got) != 1 || got[0] != filepath.Join(kdir, "paged_attention_rope_entry.cpp") {
		t.Errorf("rope entries = %v", got)
	}
	header := filepath.Join(kdir, "qwen_fai.h")
	if got := ws.StubsFor(header); len(got) != 2 {
		t.Errorf("StubsFor(header) = %d stubs, want 2", len(got))
	}
	if ctx := ws.Context(header); ctx.Kind != workspace.KindMixed || ctx.KindSource != "stub" {
		t.Errorf("header kind = %v from %s", ctx.Kind, ctx.KindSource)
	}
	md := abi.Markdown(rope)
	for _, want := range []string{"| 17 | `cache_row_offset` | scalar | in | INDEX | 7 |", "scalars start at args[17]", "`out` ⟵ returned"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}

	// The header's accesses and how each unit compiles them.
	store, ctx := unit.NewStore(), context.Background()
	acc := store.ArgsAccesses(ctx, ws, header)
	attnB := store.EntryBindings(ctx, ws, filepath.Join(kdir, "paged_attention_entry.cpp"))
	ropeB := store.EntryBindings(ctx, ws, filepath.Join(kdir, "paged_attention_rope_entry.cpp"))
	if v, ok := attnB.Value("run_qwen_fai", "WithRope"); !ok || v != 0 {
		t.Errorf("attention unit WithRope = %v %v", v, ok)
	}
	if v, ok := ropeB.Value("rope_phase", "WithRope"); !ok || v != 1 {
		t.Errorf("rope unit rope_phase WithRope = %v %v", v, ok)
	}
	if attnB.IsLive("rope_phase") || !ropeB.IsLive("rope_phase") {
		t.Errorf("rope_phase liveness: attn %v rope %v", attnB.IsLive("rope_phase"), ropeB.IsLive("rope_phase"))
	}
	var ternary, helper, constant int
	for i := range acc {
		a := &acc[i]
		switch {
		case a.Via == "args[]" && a.Node.Text() == "args[17]":
			ternary++
			if len(a.Conds) != 1 || !a.Conds[0].Value || a.Use != abi.UseScalar || attnB.Compiled(a) || !ropeB.Compiled(a) {
				t.Errorf("args[17]: %+v", a)
			}
		case a.Via == "tensor_data" && a.Index.Text() == "ARG_QUERY":
			helper++
			if len(a.Slots) != 1 || a.Slots[0] != 1 || a.Use != abi.UseTensor || a.Var != "query" {
				t.Errorf("tensor_data(args, ARG_QUERY): %+v", a)
			}
		case a.Via == "constant":
			constant++
			if a.File != filepath.Join(kdir, "args.h") {
				t.Errorf("constant access in %s", a.File)
			}
		case a.Index != nil && strings.Contains(a.Index.Text(), "?"):
			if len(a.Slots) != 2 {
				t.Errorf("ternary index slots = %v", a.Slots)
			}
		}
	}
	if ternary != 1 || helper != 1 || constant != 0 {
		t.Errorf("ternary %d helper %d constants-in-header %d", ternary, helper, constant)
	}
	consts := store.ArgsAccesses(ctx, ws, filepath.Join(kdir, "args.h"))
	names := map[string]abi.Access{}
	for _, a := range consts {
		names[a.Index.Text()] = a
	}
	if a, ok := names["kRopeRowOffset"]; !ok || a.Via != "constant" || len(a.Slots) != 1 || a.Slots[0] != 17 || a.Use != abi.UseScalar {
		t.Errorf("kRopeRowOffset constant: %+v", a)
	}
	if a, ok := names["ARG_QUERY"]; !ok || a.Slots[0] != 1 || a.Use != abi.UseTensor {
		t.Errorf("enum ARG_QUERY: %+v", a)
	}
}

func TestStubSpellings(t *testing.T) {
	src := `import os
from pathlib import Path
from pypto import language as lang
from pypto.language import jit
import pypto.language

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(HERE, "kernels")

@lang.jit.extern(core_type="aic", source=os.path.join(KDIR, "mm.cpp"))
def mm(a: lang.Tensor, n: lang.INT32, b: lang.Out[lang.Tensor[[4], lang.FP32]], f: lang.Scalar[lang.FP32]) -> lang.Tensor:
    ...

@jit.extern
def bare(x: lang.Tensor):
    ...

@pypto.language.jit.extern(source=some_call())
def dynamic(x: lang.Tensor) -> None:
    ...

@lang.jit.extern(source=f"{KDIR}/v.cpp", aiv_source=Path(__file__).parents[0] / "k" / "v.cpp")
def fstr(x: lang.InOut[lang.Tensor], y: lang.Out[lang.Tensor]):  # returns: y
    ...

def not_a_stub(x):
    pass
`
	f := parsePy(t, "/w/pkg/ops.py", src)
	ss := abi.ParseStubs(f)
	if len(ss) != 4 {
		t.Fatalf("stubs = %d, want 4", len(ss))
	}
	mm := stubByName(t, ss, "mm")
	if mm.CoreType != "aic" || len(mm.Sources) != 1 || mm.Sources[0].Path != "/w/pkg/kernels/mm.cpp" {
		t.Errorf("mm: core %q sources %+v", mm.CoreType, mm.Sources)
	}
	if p, _ := mm.BySlot(1); p.Name != "b" || p.Dir != abi.Out || p.DType != "FP32" {
		t.Errorf("mm args[1] = %+v", p)
	}
	if p, _ := mm.BySlot(3); p.Name != "f" || p.Kind != abi.Scalar || p.DType != "FP32" {
		t.Errorf("mm args[3] = %+v", p)
	}
	if p, _ := mm.BySlot(2); p.Name != "n" || p.DType != "INT32" {
		t.Errorf("mm args[2] = %+v", p)
	}
	bare := stubByName(t, ss, "bare")
	if bare.CoreType != "aiv" || bare.HasArgs || len(bare.Problems) != 0 {
		t.Errorf("bare: %+v", bare)
	}
	dyn := stubByName(t, ss, "dynamic")
	if len(dyn.Sources) != 1 || dyn.Sources[0].Path != "" || len(dyn.Problems) != 1 || !strings.Contains(dyn.Problems[0].Message, "some_call()") || !dyn.NoReturn {
		t.Errorf("dynamic: %+v %+v", dyn.Sources, dyn.Problems)
	}
	fs := stubByName(t, ss, "fstr")
	if len(fs.Sources) != 2 || fs.Sources[0].Path != "/w/pkg/kernels/v.cpp" || fs.Sources[1].Path != "/w/pkg/k/v.cpp" {
		t.Errorf("fstr sources: %+v", fs.Sources)
	}
	if fs.ReturnsNamed != "y" || fs.Return == nil || fs.Return.Name != "x" {
		t.Errorf("fstr returns %q, bound %+v", fs.ReturnsNamed, fs.Return)
	}
}

func TestMalformedStubs(t *testing.T) {
	for _, src := range []string{
		"",
		"@pl.jit.extern(\ndef",
		"@pl.jit.extern(core_type=\"mixed\", source=\ndef k(a: pl.Tensor, b: pl.Scal",
		"@pl.jit.extern(core_type=CT, source=SRC)\ndef k(*a, **kw): ...\nSRC = 1\nSRC = 2\n",
		"@pl.jit.extern(**opts)\ndef k(a): ...\n",
		"X = X\n@pl.jit.extern(source=X)\ndef k(a: pl.Tensor): ...\n",
	} {
		f := parsePy(t, "/w/m.py", src)
		for _, s := range abi.ParseStubs(f) {
			_ = abi.Markdown(s)
			if s.SyntaxErrors || len(s.Sources) > 0 && s.Sources[0].Path == "" {
				if len(s.Problems) == 0 {
					t.Errorf("%q: unreadable stub without a problem", src)
				}
			}
		}
	}
}

func TestOrchestrationCompare(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/abi/qwen")
	ws := workspace.New(root)
	path := filepath.Join(root, "orchestration", "decode_layer.cpp")
	src, err := ws.Source(path)
	if err != nil {
		t.Fatal(err)
	}
	o := abi.ParseOrchestration(path, src)
	if len(o.Tasks) != 2 || o.Tasks[0].Name != "paged_attention_cce" || o.Tasks[1].Name != "paged_attention_rope_cce" {
		t.Fatalf("tasks: %+v", o.Tasks)
	}
	attn := stubByName(t, ws.Stubs(), "paged_attention_cce")
	rope := stubByName(t, ws.Stubs(), "paged_attention_rope_cce")
	if d := abi.Compare(attn, o.Tasks[0]); len(d) != 0 {
		t.Errorf("attention task should match: %+v", d)
	}
	if o.Tasks[0].Alias == nil || o.Tasks[0].Alias.Target != "ext_out" {
		t.Errorf("attention alias: %+v", o.Tasks[0].Alias)
	}
	diffs := abi.Compare(rope, o.Tasks[1])
	var text []string
	for _, d := range diffs {
		text = append(text, d.Message)
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{
		"args[0]: the orchestration passes `add_input(query_tnd)`, the stub declares `out` as pl.Out",
		"args[0]: `query_tnd` looks like `query` (args[1] in the stub)",
		"args[1]: the orchestration passes `add_output(attn_out_tnd)`, the stub declares `query` as an input",
		"return alias `attn_out_ssa = query_tnd` binds args[0], the stub's returned `out`, but the buffer passed there looks like `query`",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if len(diffs) != 4 {
		t.Errorf("%d differences, want 4:\n%s", len(diffs), all)
	}
}

// TestTruncatedSourcesNeverPanic runs the C++ and Python readers over every
// fixture cut at several points (broken trees everywhere).
func TestTruncatedSourcesNeverPanic(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata", "../rules/testdata"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if _, ok := grammar.LangOf(p); ok {
					files = append(files, p)
				}
			}
			return nil
		})
	}
	if len(files) < 10 {
		t.Fatalf("only %d fixture files", len(files))
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= 6; k++ {
			cut := src[:len(src)*k/6]
			f, err := grammar.ParseFile(context.Background(), nil, p, cut, nil)
			if err != nil {
				continue
			}
			if f.Lang == grammar.Python {
				for _, s := range abi.ParseStubs(f) {
					_ = abi.Markdown(s)
				}
				continue
			}
			consts := cxx.NewResolver(f)
			acc := abi.Accesses(f, consts, abi.FindHelpers(f))
			_ = abi.IndexConstants(f, consts, acc)
			_ = abi.Bind(f, nil, consts)
			_ = abi.ParseOrchestration(p, cut)
		}
	}
}

func TestJudge(t *testing.T) {
	f := parsePy(t, "/w/j.py", "import pypto.language as pl\n@pl.jit.extern(source=\"k.cpp\")\ndef k(a: pl.Tensor, n: pl.INDEX, b: pl.Out[pl.Tensor]):\n    ...\n")
	s := abi.ParseStubs(f)[0]
	for _, c := range []struct {
		slots []int64
		use   abi.UseKind
		want  abi.Verdict
	}{
		{[]int64{2}, abi.UseScalar, abi.VerdictOK},
		{[]int64{1}, abi.UseScalar, abi.VerdictKindMismatch},
		{[]int64{0}, abi.UseUnknown, abi.VerdictOK},
		{[]int64{3}, abi.UseTensor, abi.VerdictOutOfRange},
		{[]int64{-1}, abi.UseTensor, abi.VerdictOutOfRange},
		{[]int64{9, 0}, abi.UseTensor, abi.VerdictOK},
		{[]int64{2, 7}, abi.UseTensor, abi.VerdictKindMismatch},
		{[]int64{2, 1}, abi.UseTensor, abi.VerdictOK},
	} {
		a := &abi.Access{Slots: c.slots, Use: c.use}
		if got, _, _ := abi.Judge(a, s); got != c.want {
			t.Errorf("slots %v as %s: %v, want %v", c.slots, c.use, got, c.want)
		}
	}
}

// include_dirs= as real stubs build it: tuples, concatenation, splats,
// module constants, os.path.join and Path(__file__).parent / "x", and
// helpers without parameters (locals, a comprehension keeping the folders
// that exist). What depends on the environment or an imported helper is
// an entry with its reason, never a guess.
func TestIncludeDirsShapes(t *testing.T) {
	src := `import os
from pathlib import Path
import pypto.language as pl
from pypto.runtime import pto_isa_include_dir

HERE = Path(__file__).parent
_LIB_INCLUDE = HERE / "lib" / "include"
_KDIR = os.path.join(os.path.dirname(__file__), "kernels")


def _sdk_include_dirs() -> tuple[Path, ...]:
    """The vendored SDK headers."""
    root = HERE / "sdk"
    candidates = (
        root / "include",
        root / "impl",
    )
    return tuple(path for path in candidates if path.is_dir())


def _cann_include_dirs():
    cann = Path(os.environ.get("ASCEND_HOME_PATH", "/usr/local/Ascend"))
    return [cann / "include", cann / "impl"]


def _branchy():
    if os.name == "nt":
        return ()
    return (HERE / "x",)


_INC = (_LIB_INCLUDE,) + _sdk_include_dirs()
_ALL = [*_INC, _KDIR, "rel/inc"]


@pl.jit.extern(source="k.cpp", include_dirs=_INC)
def a(x: pl.Tensor): ...


@pl.jit.extern(source="k.cpp", include_dirs=_ALL + [str(HERE / "extra")])
def b(x: pl.Tensor): ...


@pl.jit.extern(source="k.cpp", include_dirs=(_LIB_INCLUDE,) + _cann_include_dirs() + (pto_isa_include_dir(),))
def c(x: pl.Tensor): ...


@pl.jit.extern(source="k.cpp", include_dirs=_branchy())
def d(x: pl.Tensor): ...
`
	f := parsePy(t, "/w/ops.py", src)
	ss := abi.ParseStubs(f)
	show := func(s *abi.Stub) string {
		var out []string
		for _, d := range s.IncludeDirs {
			if d.Path != "" {
				out = append(out, d.Path)
			} else {
				out = append(out, "? "+d.Expr+": "+d.Reason)
			}
		}
		return strings.Join(out, "\n")
	}
	want := map[string]string{
		"a": "/w/lib/include\n/w/sdk/include\n/w/sdk/impl",
		"b": "/w/lib/include\n/w/sdk/include\n/w/sdk/impl\n/w/kernels\n/w/rel/inc\n/w/extra",
		"c": "/w/lib/include\n" +
			"? cann / \"include\": `os.environ.get(\"ASCEND_HOME_PATH\", \"/usr/local/Ascend\")` reads the environment variable \"ASCEND_HOME_PATH\" at run time\n" +
			"? cann / \"impl\": `os.environ.get(\"ASCEND_HOME_PATH\", \"/usr/local/Ascend\")` reads the environment variable \"ASCEND_HOME_PATH\" at run time\n" +
			"? pto_isa_include_dir(): `pto_isa_include_dir()` is imported from pypto.runtime; its result is known only at run time",
		"d": "? _branchy(): `_branchy()` has control flow (`if os.name == \"nt\":`) extern-lsp does not evaluate",
	}
	for _, s := range ss {
		if got := show(s); got != want[s.Name] {
			t.Errorf("%s include_dirs:\n%s\nwant:\n%s", s.Name, got, want[s.Name])
		}
	}
	// One problem per reason: the two folders under ASCEND_HOME_PATH are
	// one unknown, placed on the argument.
	c := stubByName(t, ss, "c")
	if len(c.Problems) != 2 {
		t.Fatalf("c problems: %+v", c.Problems)
	}
	for _, p := range c.Problems {
		if arg := src[p.Start:p.End]; !strings.HasPrefix(arg, "(_LIB_INCLUDE,)") && arg != "pto_isa_include_dir()" {
			t.Errorf("problem placed on %q", arg)
		}
	}
	if p := stubByName(t, ss, "a").Problems; len(p) != 0 {
		t.Errorf("a problems: %+v", p)
	}
	// The hover names what was searched and what was not evaluated.
	md := abi.Markdown(c)
	for _, want := range []string{"include_dirs:\n- `/w/lib/include`\n", "- not evaluated: `pto_isa_include_dir()` (`pto_isa_include_dir()` is imported from pypto.runtime; its result is known only at run time)\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestStubShapesReadEachDefinitionOnce: the stubs of a file are read with
// each decorated definition walked once, whatever the decorators: the
// nodes of definitions read stay within the file's nodes for 10,000
// externs stacked on one def (each read the whole stack again: issue
// 31's 10k decorators), 10,000 other decorators, call decorators with
// nested arguments, a class of 10,000 decorated methods and 10,000 stubs.
func TestStubShapesReadEachDefinitionOnce(t *testing.T) {
	const n = 10000
	ext := "@pl.jit.extern(source=\"k.cpp\")\n"
	def := "def k(a: pl.Tensor, s: pl.Scalar) -> None: ...\n"
	var stacked, others, calls, class, many strings.Builder
	for i := range n {
		stacked.WriteString(ext)
		fmt.Fprintf(&others, "@deco%d\n", i)
		fmt.Fprintf(&calls, "@a.b.c%d(f(g(%d, k=[1, {\"x\": (2,)}])), y=\"s\")\n", i, i)
		fmt.Fprintf(&class, "    @staticmethod\n    %s    def k%d(a: pl.Tensor) -> None: ...\n", ext, i)
		fmt.Fprintf(&many, "%sdef k%d(a: pl.Tensor, s: pl.Scalar) -> None: ...\n", ext, i)
	}
	for _, c := range []struct {
		name, src string
		stubs     int
	}{
		{"stacked externs", stacked.String() + def, n},
		{"stacked decorators", others.String() + ext + def, 1},
		{"call decorators", calls.String() + ext + def, 1},
		{"class", "class C:\n" + class.String(), n},
		{"stubs", many.String(), n},
	} {
		f := parsePy(t, "/w/m.py", "import pypto.language as pl\n\n"+c.src)
		read := 0
		*abi.DefReadHook = func(nodes int) { read += nodes }
		ss := abi.ParseStubs(f)
		*abi.DefReadHook = nil
		if len(ss) != c.stubs {
			t.Errorf("%s: %d stubs, want %d", c.name, len(ss), c.stubs)
			continue
		}
		if s := ss[len(ss)-1]; len(s.Params) == 0 || s.Params[0].Name != "a" || !s.NoReturn || s.SyntaxErrors {
			t.Errorf("%s: last stub %s read as %+v", c.name, s.Name, s)
		}
		if read > len(f.Tree.Nodes) {
			t.Errorf("%s: %d nodes of definitions read for a file of %d nodes; want each definition read once", c.name, read, len(f.Tree.Nodes))
		}
	}
}
