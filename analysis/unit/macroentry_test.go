package unit

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// Kernels declared by a macro another header defines are functions of the
// unit once the instantiation is expanded: named as pasted, on the line of
// the instantiation, their bodies calling what the macro's body calls.
func TestMacroDeclaredKernels(t *testing.T) {
	root := writeTree(t, map[string]string{
		"base.h": "#pragma once\n#define ARGS_DEF GM_ADDR x, int32_t n\n#define ARGS_CALL x, n\n" +
			"#define GLOBAL_DEF(k) \\\n  extern \"C\" __global__ __aicore__ void k(ARGS_DEF) { \\\n    k##_inner(ARGS_CALL); \\\n  }\n" +
			"#define TYPES_DEF(func) func(float); func(half)\n",
		"op.h": "#pragma once\n#include \"base.h\"\ntemplate <typename T> __aicore__ inline void run(GM_ADDR x, int32_t n) {}\n" +
			"#define BATCH_DEF(type) \\\n  __aicore__ inline void op_##type##_inner(ARGS_DEF) { run<type>(ARGS_CALL); } \\\n  GLOBAL_DEF(op_##type)\n\n" +
			"TYPES_DEF(BATCH_DEF);\n",
	})
	u := (*Store)(nil).ForEntry(context.Background(), workspace.New(root), filepath.Join(root, "op.h"))
	funcs := cxx.FuncsOf(u, u.CodeFiles()...)
	var names []string
	for _, d := range funcs.All() {
		names = append(names, d.Name)
		if d.Name == "op_float" {
			if line, _ := d.File.Lines.Position(d.Node.Start); line != 7 || filepath.Base(d.File.Path) != "op.h" {
				t.Errorf("op_float at %s:%d, want op.h:7 (0-based: the instantiation)", d.File.Path, line)
			}
			if !IsKernelFunc(d.File, d.Node) {
				t.Errorf("op_float is not a kernel")
			}
		}
	}
	for _, want := range []string{"run", "op_float_inner", "op_float", "op_half_inner", "op_half"} {
		if !slices.Contains(names, want) {
			t.Errorf("no function %s in %v", want, names)
		}
	}
	calls := 0
	for _, d := range funcs.Lookup("op_float_inner") {
		for _, c := range funcs.Calls(d.Node) {
			if cc, _ := cxx.AsCall(c); cc.Name == "run" && len(cc.Args) == 2 {
				calls++
			}
		}
	}
	if calls != 1 {
		t.Errorf("op_float_inner calls run(x, n) %d times, want 1", calls)
	}
}
