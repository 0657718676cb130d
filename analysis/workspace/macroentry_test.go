package workspace

import (
	"path/filepath"
	"testing"
)

// A file that declares its kernels by instantiating a macro another file
// defines (a base header's `GLOBAL_DEF(k)`, used by the op's own
// `BATCH_DEF(type)`, applied per type by a list macro) is the entry of a
// standalone unit; a file naming a macro that declares no kernel, or one
// that only defines the kernel macro, is not.
func TestMacroDeclaredEntries(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"base.h": "#pragma once\n#define GLOBAL_DEF(k) \\\n  extern \"C\" __global__ __aicore__ void k(GM_ADDR x) { k##_inner(x); }\n" +
			"#define TYPES_DEF(func) func(float); func(half)\n#define LOG_DEF(x) printf(#x)\n",
		"op.h":    "#pragma once\n#include \"base.h\"\n#define BATCH_DEF(type) \\\n  __aicore__ inline void op_##type##_inner(GM_ADDR x) {} \\\n  GLOBAL_DEF(op_##type)\nTYPES_DEF(BATCH_DEF);\n",
		"one.h":   "#pragma once\n#include \"base.h\"\n__aicore__ inline void one_inner(GM_ADDR x) {}\nGLOBAL_DEF(one);\n",
		"plain.h": "#pragma once\n#include \"base.h\"\nLOG_DEF(hello);\nTYPES_DEF(LOG_DEF);\n",
	})
	ws := New(dir)
	for name, want := range map[string]bool{"op.h": true, "one.h": true, "plain.h": false, "base.h": false} {
		p := filepath.Join(dir, name)
		if got := ws.Context(p).Entry; got != want {
			t.Errorf("%s: entry %v, want %v", name, got, want)
		}
	}
	if sh := ws.EntryShape(filepath.Join(dir, "op.h")); !sh.Global {
		t.Errorf("op.h: not a standalone kernel: %+v", sh)
	}
	// A header instantiating the macro is compiled by the source that
	// includes it (after the kernel macro's own header): that source is
	// the entry, and the header is one of its files.
	writeFiles(t, dir, map[string]string{
		"inst.h":   "#pragma once\nGLOBAL_DEF(two);\n",
		"agg.h":    "#pragma once\n#include \"inst.h\"\n",
		"kern.cpp": "#include \"base.h\"\n__aicore__ inline void two_inner(GM_ADDR x) {}\n#include \"agg.h\"\n",
	})
	ws = New(dir)
	for name, want := range map[string]bool{"kern.cpp": true, "inst.h": false, "agg.h": false, "op.h": true} {
		if got := ws.Context(filepath.Join(dir, name)).Entry; got != want {
			t.Errorf("%s: entry %v, want %v", name, got, want)
		}
	}
	if units := ws.Context(filepath.Join(dir, "inst.h")).Units; len(units) != 1 || filepath.Base(units[0]) != "kern.cpp" {
		t.Errorf("inst.h: units %v, want kern.cpp's", units)
	}
	// An edit that stops instantiating the macro drops the entry.
	ws.SetOverlay(filepath.Join(dir, "op.h"), []byte("#pragma once\n#include \"base.h\"\n"), 2)
	if ws.Context(filepath.Join(dir, "op.h")).Entry {
		t.Errorf("op.h without the instantiation is still an entry")
	}
}
