package workspace

import (
	"path/filepath"
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
