package workspace

import (
	"maps"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The host tiling's fields that say how many blocks it launches: stored
// from the value SetBlockDim gets, or read back for it; a file launching
// another count (or two files disagreeing) makes none of its fields one.
func TestLaunchCounts(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"add/op_host/add_tiling.cpp": "void T(Ctx *c) {\n  int64_t used = Ceil(n, per);\n  tiling.set_usedCoreNum(used);\n  c->SetBlockDim(static_cast<uint32_t>(used));\n}\n",
		"add/op_host/small.cpp":      "void S(Ctx *c) {\n  td->realCoreNum = k;\n  if (n == 0) { c->SetBlockDim(1); return; }\n  c->SetBlockDim(td->realCoreNum);\n}\n",
		"add/op_host/get.cpp":        "void G(Ctx *c) { c->SetBlockDim(tilingData.get_blockCount()); }\n",
		"add/op_host/share.cpp":      "void H(Ctx *c) {\n  t.set_total(n);\n  t.set_per(p);\n  int b = CeilDiv(n, p);\n  if (b > cores) b = cores;\n  c->SetBlockDim(b);\n}\n",
		"add/op_host/other.cpp":      "void O(Ctx *c) {\n  t.set_total(n);\n  t.set_per(p);\n  int b = CeilDiv(n, p);\n  b = b + 1;\n  c->SetBlockDim(b);\n}\n",
		"add/op_host/all.cpp":        "void A(Ctx *c) { tiling.set_aivNum(a); tiling.set_blockCount(b); c->SetBlockDim(coreNum); }\n",
		"add/op_kernel/arch35/add.h": "",
		"mul/op_host/share.cpp":      "void H(Ctx *c) {\n  t.set_total(n);\n  t.set_per(p);\n  int b = CeilDiv(n, p);\n  if (b > cores) b = cores;\n  c->SetBlockDim(b);\n}\n",
		"mul/op_kernel/mul.cpp":      "",
		"sub/op_kernel/sub.cpp":      "",
	})
	ws := New(dir)
	got := ws.LaunchCounts(filepath.Join(dir, "add/op_kernel/arch35"), nil)
	var names []string
	for f, c := range got {
		if c.Other {
			continue
		}
		names = append(names, f)
		if c.Line == 0 || !strings.HasSuffix(c.File, ".cpp") {
			t.Errorf("%s: evidence %+v", f, c)
		}
	}
	sort.Strings(names)
	// blockCount: all.cpp stores it and launches every core.
	// total/per: share.cpp launches at most ceil(total / per) blocks, but
	// other.cpp one more.
	if strings.Join(names, ",") != "realCoreNum,usedCoreNum" {
		t.Errorf("launch counts %v", names)
	}
	// all.cpp stores blockCount and launches every core: cores past it.
	if c := got["blockCount"]; !c.Other || filepath.Base(c.File) != "all.cpp" {
		t.Errorf("blockCount launched past: %+v", c)
	}
	if got := ws.LaunchCounts(filepath.Join(dir, "mul/op_kernel"), nil); len(got) != 1 || got["total/per"].Line != 6 || got["total/per"].Other {
		t.Errorf("rounded-up shares: %v", got)
	}
	if got := ws.LaunchCounts(filepath.Join(dir, "sub/op_kernel"), nil); len(got) != 0 {
		t.Errorf("no host folder: %v", got)
	}
}

// A switch no file and no build file defines is defined nowhere, until an
// edit (in a fork: an editor snapshot) defines it; -DNAME in a build file
// and a toolkit name never are, nor anything in a tree with no build file.
func TestMacroDefinedNowhere(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"CMakeLists.txt": "add_compile_options(-DTRACE -D LEVEL=2)\n",
		"k/kernel.cpp":   "#ifdef STOP\nreturn;\n#endif\n#ifdef TRACE\n#endif\n",
		"k/consts.h":     "#define ROWS 4\n",
	})
	ws := New(dir)
	for name, want := range map[string]bool{"STOP": true, "TRACE": false, "LEVEL": false, "ROWS": false, "__CCE_AICORE__": false, "ASCENDC_DUMP": false} {
		if got := ws.MacroDefinedNowhere(name); got != want {
			t.Errorf("%s: defined nowhere %v, want %v", name, got, want)
		}
	}
	f := ws.Fork()
	f.SetOverlay(filepath.Join(dir, "k/consts.h"), []byte("#define ROWS 4\n#define STOP\n"), 2)
	if f.MacroDefinedNowhere("STOP") || !ws.MacroDefinedNowhere("STOP") {
		t.Errorf("an edit defining STOP: fork %v, parent %v", f.MacroDefinedNowhere("STOP"), ws.MacroDefinedNowhere("STOP"))
	}
	bare := t.TempDir()
	writeFiles(t, bare, map[string]string{"k/kernel.cpp": "#ifdef STOP\n#endif\n"})
	if New(bare).MacroDefinedNowhere("STOP") {
		t.Errorf("no build file seen: STOP taken as defined nowhere")
	}
}

// The kernel arguments every launch passes its own block count as, in
// each launch form; a launch passing another value there, or a count
// that is a call (evaluated twice), makes none.
func TestHostLaunchCountArgs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"k/kernel.cpp": "extern \"C\" __global__ __aicore__ void same(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void acl(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void mixed(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void called(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void wrapped(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void told(GM_ADDR x, uint32_t n) {}\n" +
			"template <typename T, int N> __global__ __aicore__ void typed(GM_ADDR x, uint32_t n) {}\n",
		"host/main.cpp": "void Run(aclrtStream s, uint8_t *x, Cfg cfg) {\n" +
			"  same<<<cfg.used, nullptr, s>>>(x, cfg.used);\n  same<<<n, nullptr, s>>>(x, n);\n" +
			"  ACLRT_LAUNCH_KERNEL(acl)(n, s, x, n);\n  aclrtlaunch_acl(m, s, x, m);\n" +
			"  mixed<<<n, nullptr, s>>>(x, n);\n  mixed<<<n, nullptr, s>>>(x, m);\n" +
			"  called<<<Count(), nullptr, s>>>(x, Count());\n}\n" +
			"void RunWrapped(uint32_t blocks, aclrtStream s, uint8_t *x, uint32_t n) {\n  wrapped<<<blocks, nullptr, s>>>(x, n);\n}\n" +
			"void RunTold(uint32_t blocks, aclrtStream s, uint8_t *x, uint32_t n) {\n  told<<<blocks, nullptr, s>>>(x, n);\n}\n" +
			"void Main(aclrtStream s, uint8_t *x, uint32_t c) {\n  RunWrapped(c, s, x, c);\n  RunTold(c, s, x, c);\n  RunTold(c, s, x, 2);\n  if (c < 2) { return; }\n  typed<Pair<float, 2>, 2><<<c, nullptr, s>>>(x, c);\n}\n",
	})
	ws := New(dir)
	entry := filepath.Join(dir, "k/kernel.cpp")
	for k, want := range map[string][]int{"same": {1}, "acl": {1}, "mixed": nil, "called": nil, "wrapped": {1}, "told": nil, "typed": {1}} {
		if got := ws.HostLaunchOf(entry, k).CountArgs; !slices.Equal(got, want) {
			t.Errorf("%s: count arguments %v, want %v", k, got, want)
		}
	}
}

// The kernel arguments every launch passes the work its count rounds up
// shares of, with the share; a share that is not a constant, or two
// launches with different shares, make none.
func TestHostLaunchCeilArgs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"k/kernel.cpp": "extern \"C\" __global__ __aicore__ void tiled(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void twice(GM_ADDR x, uint32_t n) {}\n" +
			"extern \"C\" __global__ __aicore__ void byvar(GM_ADDR x, uint32_t n) {}\n",
		"host/main.cpp": "#define TILE 256\nvoid Run(aclrtStream s, uint8_t *x, uint32_t n, uint32_t per) {\n" +
			"  uint32_t blocks = (n + TILE - 1) / TILE;\n  tiled<<<blocks, nullptr, s>>>(x, n);\n" +
			"  tiled<<<CeilDiv(n, 256), nullptr, s>>>(x, n);\n" +
			"  twice<<<(n + 127) / 128, nullptr, s>>>(x, n);\n  twice<<<(n + 255) / 256, nullptr, s>>>(x, n);\n" +
			"  byvar<<<(n + per - 1) / per, nullptr, s>>>(x, n);\n}\n",
	})
	ws := New(dir)
	entry := filepath.Join(dir, "k/kernel.cpp")
	for k, want := range map[string]map[int]int64{"tiled": {1: 256}, "twice": nil, "byvar": nil} {
		if got := ws.HostLaunchOf(entry, k).CeilArgs; !maps.Equal(got, want) {
			t.Errorf("%s: work arguments %v, want %v", k, got, want)
		}
	}
}

// A `__global__` kernel with no Ascend C mark is another accelerator's
// (a CUDA-like backend of a multi-backend tree): its file is no unit,
// while marked kernels (`__aicore__`, `__vector__`, `[aicore]`, a library's
// AICORE macro, a `__gm__` parameter) and an `.asc` source's SIMT kernels
// are, as are kernel macros whose bodies carry a mark.
func TestUnmarkedGlobalIsNoUnit(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"cuda/kernel.cuh.h": "template <typename T>\n__global__ void scale(T *x, int n) { x[threadIdx.x] *= 2; }\n",
		"cuda/macro.h":      "#define CUDEF(n) extern \"C\" __global__ void k_##n(float *x) { x[0] = 1; }\nCUDEF(a)\n",
		"ascend/aicore.cpp": "extern \"C\" __global__ __aicore__ void add(GM_ADDR x) {}\n",
		"ascend/before.cpp": "extern \"C\" __vector__ __global__ void add(GM_ADDR x) {}\n",
		"ascend/attr.cpp":   "__global__ [aicore] void add(__gm__ float *x) {}\n",
		"ascend/pto.cpp":    "#define AICORE [aicore]\n__global__ AICORE void run(float *x) {}\n",
		"ascend/simt.asc":   "__global__ void add(float *x) {}\n",
		"ascend/kmacro.cpp": "#define DEF(n) extern \"C\" __global__ __aicore__ void k_##n(GM_ADDR x) {}\nDEF(a)\n",
	})
	w := New(root)
	for rel, want := range map[string]bool{
		"cuda/kernel.cuh.h": false, "cuda/macro.h": false,
		"ascend/aicore.cpp": true, "ascend/before.cpp": true, "ascend/attr.cpp": true,
		"ascend/pto.cpp": true, "ascend/simt.asc": true, "ascend/kmacro.cpp": true,
	} {
		if got := w.Context(filepath.Join(root, rel)).Entry; got != want {
			t.Errorf("%s: entry %v, want %v", rel, got, want)
		}
	}
}

// TestAssignedValuesAsPattern holds assignedValues to what its pattern
// finds, over texts built from the pieces that decide a match (a name
// inside a longer word, a member store, `==`, a missing `;`, non-ASCII
// bytes).
func TestAssignedValuesAsPattern(t *testing.T) {
	// Each text is a few statements-to-be, each piece picked among near
	// misses of the pattern's part.
	parts := [][]string{
		{"", "", " ", ".", "->", ">", "x", "_", "é", "\xff", ";", "("},
		{"n", "n", "nn", "n2", "m", ""},
		{"", "", " ", "\t", "\n", "\v", "\f", "\r", "  "},
		{"=", "=", "==", "+=", ""},
		{" 1", "1", "=", ";", "", "é", "f(a)", "\n"},
		{";", ";", "", " ;"},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var sb strings.Builder
		for range 1 + rng.IntN(4) {
			for _, p := range parts {
				sb.WriteString(p[rng.IntN(len(p))])
			}
		}
		src := sb.String()
		for _, v := range []string{"n", "nn", "", "x1", "a.b"} {
			var want []string
			if hostWord.FindString(v) == v {
				re := regexp.MustCompile(`(?:^|[^.>\w])` + regexp.QuoteMeta(v) + `\s*=([^=;][^;]*);`)
				for _, m := range re.FindAllStringSubmatch(src, -1) {
					want = append(want, m[1])
				}
			}
			if got := assignedValues(src, v); !slices.Equal(got, want) {
				t.Fatalf("assignedValues(%q, %q) = %q, the pattern finds %q", src, v, got, want)
			}
		}
	}
}

// The compiler's automatic synchronisation as build files spell it: off,
// on, or the bare switch (on); its log switch and a comment say nothing.
func TestAutoSyncSwitch(t *testing.T) {
	for _, c := range []struct {
		line, want string
	}{
		{"OPTIONS --cce-auto-sync=off", "false"},
		{`"--cce-auto-sync=on",`, "true"},
		{"        OPTIONS --cce-auto-sync", "true"},
		{"ccec --cce-auto-sync -O2 x.cpp", "true"},
		{"--cce-auto-sync-log=sync.log", ""},
		{"--cce-auto-sync-log=a --cce-auto-sync=off", "false"},
	} {
		got := ""
		for _, s := range buildSettingsOf("CMakeLists.txt", []byte(c.line)) {
			if s.Key == "cce-auto-sync" {
				got = s.Value
			}
		}
		if got != c.want {
			t.Errorf("%q: auto-sync %q, want %q", c.line, got, c.want)
		}
	}
	if s := buildSettingsOf("CMakeLists.txt", []byte("# OPTIONS --cce-auto-sync=off")); len(s) != 0 {
		t.Errorf("a comment line gives %v", s)
	}
}
