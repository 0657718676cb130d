package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// A standalone kernel's entry shows its launch and build models: a lens
// above it, and a hover on its name saying which rules apply and why.
func TestLaunchModelLensAndHover(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"add/add_kernel.cpp": "#include \"kernel_operator.h\"\n\nextern \"C\" __global__ __aicore__ void add_rows(__gm__ uint8_t *x, __gm__ int32_t *flags) {\n  flags[GetBlockIdx() * 16] = 1;\n}\n",
		"add/host.cpp":       "void run(void *stream) { add_rows<<<8, nullptr, stream>>>(nullptr, nullptr); }\n",
		"add/CMakeLists.txt": "target_compile_options(k PRIVATE \"SHELL:-mllvm -cce-aicore-dcci-insert-for-scalar=false\")\n",
	}
	writeFiles(t, root, files)
	c := startServer(t, Options{})
	c.initialize([]string{root}, nil)
	k := c.open(filepath.Join(root, "add", "add_kernel.cpp"))
	var lenses []codeLens
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": k.uri}}, &lenses)
	if len(lenses) != 1 || lenses[0].Command == nil || lenses[0].Command.Title != "standalone device kernel · scalar coherence left to the author" {
		t.Fatalf("lenses = %+v", lenses)
	}
	if lenses[0].Range.Start.Line != 2 {
		t.Errorf("lens on line %d, want the entry's (2)", lenses[0].Range.Start.Line)
	}
	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": k.uri}, "position": find(t, k.text, "add_rows", 0)}, &h)
	for _, want := range []string{
		"**launch:** standalone device kernel: defines a `__global__` kernel with its own parameters: it owns its launch (launched in host.cpp)",
		"**build:** scalar cache coherence left to the author (CMakeLists.txt:1 (`-cce-aicore-dcci-insert-for-scalar=false`))",
		// The runtime's rules, from their premises (EXT001 is a cache
		// rule: it applies).
		"the pypto/simpler runtime's (EXT002, EXT006, EXT007, EXT008, EXT012, EXT101, EXT102",
	} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	// The host file launches, it is no kernel: no lens.
	host := c.open(filepath.Join(root, "add", "host.cpp"))
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": host.uri}}, &lenses)
	if len(lenses) != 0 {
		t.Errorf("host lenses = %+v", lenses)
	}
}

// Kernels a macro instantiation declares get the lens and the hover on
// the instantiation's line, named as the macros paste them.
func TestMacroKernelLensAndHover(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"ops/base.h": "#pragma once\n#define GLOBAL_DEF(k) \\\n  extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { k##_inner(x); }\n#define TYPES_DEF(func) func(float); func(half)\n",
		"ops/op.cpp": "#include \"base.h\"\n#define BATCH_DEF(type) \\\n  __aicore__ inline void op_##type##_inner(GM_ADDR x) {} \\\n  GLOBAL_DEF(op_##type)\n\nTYPES_DEF(BATCH_DEF);\n",
	})
	c := startServer(t, Options{})
	c.initialize([]string{root}, nil)
	op := c.open(filepath.Join(root, "ops", "op.cpp"))
	var lenses []codeLens
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": op.uri}}, &lenses)
	if len(lenses) != 1 || lenses[0].Command == nil || !strings.HasPrefix(lenses[0].Command.Title, "op_float, op_half · standalone device kernel · ") || lenses[0].Range.Start.Line != 5 {
		t.Fatalf("lenses = %+v", lenses)
	}
	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": op.uri}, "position": find(t, op.text, "TYPES_DEF(BATCH", 0)}, &h)
	if !strings.Contains(h.Contents.Value, "**`op_float`, `op_half`** (declared by this macro instantiation)") || !strings.Contains(h.Contents.Value, "**launch:** standalone device kernel") {
		t.Errorf("hover:\n%s", h.Contents.Value)
	}
	// An edit of a macro body that leaves every macro name as it was (the
	// list macro now instantiates int8 where it did half): the kernels
	// follow it, and so does the unit of a header that instantiates them.
	base := c.open(filepath.Join(root, "ops", "base.h"))
	at := find(t, base.text, "half", 0)
	end := at
	end.Character += 4
	c.edit(base, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: end}, NewText: "int8"}})
	// A request after the change reads the snapshot the change made.
	lenses = nil
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": op.uri}}, &lenses)
	if len(lenses) != 1 || lenses[0].Command == nil || !strings.HasPrefix(lenses[0].Command.Title, "op_float, op_int8 · standalone device kernel · ") {
		t.Errorf("after the list macro's edit, lenses = %+v (%q)", lenses, lenses[0].Command.Title)
	}
}

// The hover on an ascendc_library kernel a README says serves A5 names
// the build's end, with the file and line that decided.
func TestLaunchHoverKernelEnd(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"count/count.cpp":      "extern \"C\" __global__ __aicore__ void count(__gm__ uint32_t *x) {\n  x[block_idx] += 1;\n}\nvoid run(void *s, uint32_t *x) { count<<<8, nullptr, s>>>(x); }\n",
		"count/CMakeLists.txt": "ascendc_library(kernels STATIC count.cpp)\n",
		"count/README.md":      "| Ascend 950PR/Ascend 950DT | yes |\n",
	})
	c := startServer(t, Options{})
	c.initialize([]string{root}, nil)
	k := c.open(filepath.Join(root, "count", "count.cpp"))
	var h struct {
		Contents struct{ Value string } `json:"contents"`
	}
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": k.uri}, "position": find(t, k.text, "count", 0)}, &h)
	want := "**build:** scalar cache coherence left to the author (CMakeLists.txt:1: `ascendc_library` compiles for dav-c220 and dav-c310 pass `-cce-aicore-dcci-insert-for-scalar=false`); " +
		"no write-back of the data cache at the kernel's end (CMakeLists.txt:1: `ascendc_library` builds for A5, dav-c310, end the kernel they wrap with `dsb(DSB_ALL); dci();` (A5: README.md:1 lists an Ascend 950 product))"
	if !strings.Contains(h.Contents.Value, want) {
		t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
	}
}
