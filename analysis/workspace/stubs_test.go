package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStubOverlaysInvalidate(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ops.py":      "import pypto.language as pl\n\n@pl.jit.extern(source=\"k/entry.cpp\")\ndef kern(a: pl.Tensor, n: pl.INDEX):\n    ...\n",
		"k/entry.cpp": "#include \"body.h\"\nextern \"C\" __aicore__ void kern(__gm__ int64_t *args) { body(args); }\n",
		"k/body.h":    "__aicore__ inline void body(__gm__ int64_t *args) { int64_t n = args[1]; }\n",
	})
	ws := New(dir)
	entry, header, stub := filepath.Join(dir, "k", "entry.cpp"), filepath.Join(dir, "k", "body.h"), filepath.Join(dir, "ops.py")
	if c := ws.Context(header); c.Kind != KindAIV || c.KindSource != "stub" {
		t.Fatalf("header kind %v from %s", c.Kind, c.KindSource)
	}
	if ss := ws.StubsFor(header); len(ss) != 1 || ss[0].Name != "kern" || ws.StubEntries(ss[0])[0] != entry {
		t.Fatalf("StubsFor(header) = %v", ss)
	}
	// The stub becomes mixed: the C++ files' kind follows.
	ws.SetOverlay(stub, []byte("import pypto.language as pl\n\n@pl.jit.extern(core_type=\"mixed\", source=\"k/entry.cpp\")\ndef kern(a: pl.Tensor, n: pl.INDEX):\n    ...\n"), 2)
	if c := ws.Context(header); c.Kind != KindMixed {
		t.Errorf("after the stub edit, header kind %v", c.Kind)
	}
	// The source becomes dynamic: the stub is linked by file name.
	ws.SetOverlay(stub, []byte("import pypto.language as pl\n\n@pl.jit.extern(source=find(\"entry.cpp\"))\ndef kern(a: pl.Tensor, n: pl.INDEX):\n    ...\n"), 3)
	ss := ws.StubsFor(header)
	if len(ss) != 1 {
		t.Fatalf("by-name link lost: %v", ss)
	}
	if l := ws.StubLink(ss[0]); len(l.ByName) != 1 || l.ByName[0] != entry {
		t.Errorf("link = %+v", l)
	}
	// Gone: no stub, the heuristic decides again.
	ws.SetOverlay(stub, []byte("# no stubs here\n"), 4)
	if ss := ws.StubsFor(header); len(ss) != 0 {
		t.Errorf("stubs after removal: %v", ss)
	}
	if c := ws.Context(header); c.KindSource != "heuristic" {
		t.Errorf("kind source %s after the stub went away", c.KindSource)
	}
}

func TestStubIncludeDirs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ops.py":         "from pathlib import Path\nimport pypto.language as pl\nHERE = Path(__file__).parent\n\n@pl.jit.extern(source=HERE / \"src\" / \"e.cpp\", include_dirs=[HERE / \"inc\"])\ndef e(a: pl.Tensor):\n    ...\n",
		"src/e.cpp":      "#include \"shared.h\"\nextern \"C\" __aicore__ void e(__gm__ int64_t *args) { f(args); }\n",
		"inc/shared.h":   "__aicore__ inline void f(__gm__ int64_t *args) { int64_t v = args[0]; }\n",
		"other/plain.py": "print('no extern')\n",
	})
	ws := New(dir)
	header := filepath.Join(dir, "inc", "shared.h")
	if c := ws.Context(header); !c.Extern || len(c.Units) != 1 {
		t.Fatalf("header reached through include_dirs: %+v", c)
	}
	if ss := ws.StubsFor(filepath.Join(dir, "other", "plain.py")); len(ss) != 0 {
		t.Errorf("plain.py stubs: %v", ss)
	}
}

// A runtime kernel configuration's include folders for its kernels
// (simpler's `extra_include_dirs`, or `include_dirs`, evaluated like a
// stub's) take part in include resolution; an environment variable's
// folder is not known and resolves nothing.
func TestConfigIncludeDirs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"test_k.py": "from pathlib import Path\n_HERE = Path(__file__).parent\n_SRC = str(_HERE / \"kernels\" / \"aiv\" / \"k.cpp\")\n" +
			"CALLABLE = {\n    \"incores\": [\n        {\"func_id\": 0, \"source\": _SRC, \"core_type\": \"aiv\",\n" +
			"         \"extra_include_dirs\": [str(_HERE / \"kernels\" / \"include\"), \"$ASCEND_HOME_PATH/include\"]},\n    ],\n}\n",
		"kernels/aiv/k.cpp":         "#include \"plan.hpp\"\nextern \"C\" __aicore__ void kernel_entry(__gm__ int64_t *args) { plan(args); }\n",
		"kernels/include/plan.hpp":  "__aicore__ inline void plan(__gm__ int64_t *args) { int64_t v = args[0]; }\n",
		"kernels/include/other.hpp": "int unused;\n",
	})
	ws := New(dir)
	header := filepath.Join(dir, "kernels", "include", "plan.hpp")
	if c := ws.Context(header); !c.Extern || len(c.Units) != 1 {
		t.Fatalf("header reached through the configuration's extra_include_dirs: %+v", c)
	}
	if got := ws.IncludeDirs(); !slices.Contains(got, filepath.Join(dir, "kernels", "include")) {
		t.Errorf("include dirs %v", got)
	}
}

// An older configuration's shape (`KERNELS = [{...}]` beside an
// `ORCHESTRATION` dictionary, or one `CALLABLE = {...}`) names its per-core
// kernels without an "incores" list: each dictionary with a source and a
// core type is one. Its core type decides the kernel's kind (not the
// closure's text: a shared header's mixed helper), its include folders
// resolve, and the orchestration's source (no core type) is no kernel.
func TestConfigKernelsWithoutIncores(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"kernel_config.py": "from pathlib import Path\n_ROOT = Path(__file__).parent\n_LIB = _ROOT / \"lib\"\n" +
			"ORCHESTRATION = {\"source\": str(_ROOT / \"orch\" / \"orch.cpp\"), \"function_name\": \"build\"}\n" +
			"CALLABLE = {\n    \"name\": \"count\",\n    \"source\": str(_ROOT / \"kernels\" / \"count.cpp\"),\n" +
			"    \"core_type\": \"aiv\",\n    \"include_dirs\": [str(_LIB)],\n}\nKERNELS = [CALLABLE]\n",
		"kernels/count.cpp": "#include \"kutil/sync.h\"\nextern \"C\" __aicore__ void kernel_entry(__gm__ int64_t *args) { }\n",
		"lib/kutil/sync.h":  "__aicore__ inline void Grid() { AscendC::SyncAll<false>(); }\n",
		"orch/orch.cpp":     "extern \"C\" void build(__gm__ int64_t *args) { }\n",
	})
	ws := New(dir)
	entry := filepath.Join(dir, "kernels", "count.cpp")
	if k, src := ws.UnitKind(entry); k != KindAIV || src != "config" {
		t.Errorf("kind %v from %s, want aiv from the configuration", k, src)
	}
	if got := ws.ConfiguredBy(entry); got != "kernel_config.py:7" {
		t.Errorf("configured by %q", got)
	}
	if got := ws.ConfiguredBy(filepath.Join(dir, "orch", "orch.cpp")); got != "" {
		t.Errorf("the orchestration source is configured by %q", got)
	}
	if c := ws.Context(filepath.Join(dir, "lib", "kutil", "sync.h")); len(c.Units) != 1 {
		t.Errorf("header reached through the configuration's include_dirs: %+v", c)
	}
}

// Many goroutines ask a fresh workspace for stubs and then for their links,
// as the checker's workers do: a stub from one build of the stub index
// must find its link in whatever index the next call returns.
func TestStubIndexConcurrentBuilds(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 8; i++ {
		files[fmt.Sprintf("ops%d.py", i)] = fmt.Sprintf("import pypto.language as pl\n\n@pl.jit.extern(source=\"k/e%d.cpp\")\ndef kern%d(a: pl.Tensor):\n    ...\n", i, i)
		files[fmt.Sprintf("k/e%d.cpp", i)] = fmt.Sprintf("extern \"C\" __aicore__ void kern%d(__gm__ int64_t *args) { }\n", i)
	}
	writeFiles(t, dir, files)
	for round := 0; round < 50; round++ {
		ws := New(dir)
		var wg sync.WaitGroup
		errs := make(chan string, 64)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for _, s := range ws.Stubs() {
					entry := filepath.Join(dir, "k", "e"+strings.TrimPrefix(s.Name, "kern")+".cpp")
					if l := ws.StubLink(s); len(l.Entries) != 1 || l.Entries[0] != entry {
						errs <- fmt.Sprintf("round %d: %s linked to %v", round, s.Name, l.Entries)
						return
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
}

// A header found only through an include dir that a helper builds
// (`(_LIB,) + _sdk_include_dirs()`) joins the unit like one written as a
// literal; one under an environment-dependent dir stays unresolved.
func TestStubIncludeDirsFromHelpers(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ops.py": "import os\nfrom pathlib import Path\nimport pypto.language as pl\nHERE = Path(__file__).parent\n_LIB = HERE / \"lib\"\n\n" +
			"def _sdk_include_dirs():\n    root = HERE / \"sdk\"\n    cands = (root / \"include\", root / \"missing\")\n    return tuple(p for p in cands if p.is_dir())\n\n" +
			"def _cann():\n    return [Path(os.environ[\"ASCEND_HOME_PATH\"]) / \"include\"]\n\n" +
			"@pl.jit.extern(source=HERE / \"src\" / \"e.cpp\", include_dirs=(_LIB,) + _sdk_include_dirs() + _cann())\ndef e(a: pl.Tensor):\n    ...\n",
		"src/e.cpp":                "#include \"lib_shared.h\"\n#include \"sdk_shared.h\"\n#include \"cann_only.h\"\nextern \"C\" __aicore__ void e(__gm__ int64_t *args) { f(args); g(args); }\n",
		"lib/lib_shared.h":         "__aicore__ inline void f(__gm__ int64_t *args) { int64_t v = args[0]; }\n",
		"sdk/include/sdk_shared.h": "__aicore__ inline void g(__gm__ int64_t *args) { int64_t v = args[0]; }\n",
	})
	ws := New(dir)
	for _, h := range []string{"lib/lib_shared.h", "sdk/include/sdk_shared.h"} {
		if c := ws.Context(filepath.Join(dir, h)); !c.Extern || len(c.Units) != 1 {
			t.Errorf("%s not reached through the helper's include dirs: %+v", h, c)
		}
	}
	var missing []string
	for _, inc := range ws.UnresolvedIncludes(filepath.Join(dir, "src", "e.cpp")) {
		missing = append(missing, inc.Path)
	}
	if strings.Join(missing, ",") != "cann_only.h" {
		t.Errorf("unresolved includes %v, want cann_only.h", missing)
	}
}

// TestStubKindOfManyStubsIsLinear: an entry that n stubs name (issue 31:
// 10,000 stubs in one file) has the most demanding kind they declare, and
// asking it for each stub's units (what the ABI rules do per stub) reads
// each stub's kind about once, not n times per ask.
func TestStubKindOfManyStubsIsLinear(t *testing.T) {
	const n = 2000
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("import pypto.language as pl\n\n")
	for i := range n {
		ct := "aiv"
		if i == n/2 {
			ct = "aic"
		}
		fmt.Fprintf(&b, "@pl.jit.extern(source=\"k.cpp\", core_type=%q)\ndef k%d(a: pl.Tensor) -> None: ...\n", ct, i)
	}
	writeFiles(t, dir, map[string]string{
		"s.py":  b.String(),
		"k.cpp": "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {}\n",
	})
	ws := New(dir)
	reads := 0
	kindHook = func() { reads++ }
	t.Cleanup(func() { kindHook = nil })
	entry := filepath.Join(dir, "k.cpp")
	stubs := ws.StubsForEntry(entry)
	if len(stubs) != n {
		t.Fatalf("%d stubs linked to k.cpp, want %d", len(stubs), n)
	}
	for _, s := range stubs {
		if us := ws.UnitsOfStub(entry, s); len(us) != 1 || us[0] != entry {
			t.Fatalf("units of %s: %v", s.Name, us)
		}
	}
	if k, src := ws.UnitKind(entry); k != KindAIC || src != "stub" {
		t.Errorf("kind %v from %s, want aic from the stubs", k, src)
	}
	if reads > 2*n {
		t.Errorf("%d stub kinds read for %d stubs asked; want at most %d", reads, n, 2*n)
	}
}

// A runtime configuration's core_type decides its kernels' kind over the
// headers' mixed calls (a channel header holding both sides); a source
// listed for both core types is mixed. Include folders given beside the
// list count for every kernel.
func TestConfigCoreTypes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"kernel_config.py": "from pathlib import Path\n_ROOT = Path(__file__).parent\nCALLABLE = {\n    \"incores\": [\n" +
			"        {\"func_id\": 0, \"source\": \"k/vec.cpp\", \"core_type\": \"aiv\"},\n" +
			"        {\"func_id\": 1, \"source\": \"k/both.cpp\", \"core_type\": \"aic\"},\n" +
			"        {\"func_id\": 2, \"source\": \"k/both.cpp\", \"core_type\": \"aiv\"},\n    ],\n" +
			"    \"extra_include_dirs\": [str(_ROOT / \"inc\")],\n}\n",
		"k/vec.cpp":  "#include \"chan.h\"\nextern \"C\" __aicore__ void kernel_entry(__gm__ int64_t *args) { }\n",
		"k/both.cpp": "#include \"chan.h\"\nextern \"C\" __aicore__ void kernel_entry(__gm__ int64_t *args) { }\n",
		"k/free.cpp": "#include \"chan.h\"\nextern \"C\" __aicore__ void kernel_entry(__gm__ int64_t *args) { }\n",
		"inc/chan.h": "#if defined(__DAV_C220_CUBE__)\ninline void a() { AscendC::CrossCoreSetFlag<2, PIPE_FIX>(1); }\n#endif\n" +
			"#if defined(__DAV_C220_VEC__)\ninline void v() { AscendC::CrossCoreWaitFlag(1); }\n#endif\n",
	})
	ws := New(dir)
	if got := ws.IncludeDirs(); !slices.Contains(got, filepath.Join(dir, "inc")) {
		t.Errorf("include dirs %v, want the folder given beside the list", got)
	}
	for _, c := range []struct {
		file, src string
		kind      Kind
	}{{"k/vec.cpp", "config", KindAIV}, {"k/both.cpp", "config", KindMixed}, {"k/free.cpp", "heuristic", KindMixed}} {
		if k, src := ws.UnitKind(filepath.Join(dir, c.file)); k != c.kind || src != c.src {
			t.Errorf("%s: kind %v from %s, want %v from %s", c.file, k, src, c.kind, c.src)
		}
	}
}
