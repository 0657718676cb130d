package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// writeTree writes files (slash paths relative to root).
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The pypto-lib layout: the stub sits above kernels/<op>/{entry,kernel}/,
// no .git, no pyproject.toml.
var layoutFiles = map[string]string{
	"models/m/ops.py": `from pathlib import Path
import pypto.language as pl

_DIR = Path(__file__).parent / "kernels" / "op"
_ENTRY = _DIR / "attention" / "entry.cpp"

@pl.jit.extern(core_type="mixed", aic_source=_ENTRY, aiv_source=_ENTRY)
def attn(q: pl.Tensor[[16], pl.FP32], out: pl.Out[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor:
    ...
`,
	"models/m/kernels/op/attention/entry.cpp": `#include "../kernel/body.hpp"
extern "C" __global__ __aicore__ void attn(__gm__ int64_t *args) { run(args); }
`,
	"models/m/kernels/op/kernel/body.hpp": `#pragma once
#include "detail/util.hpp"
inline void run(__gm__ int64_t *args) {}
`,
	"models/m/kernels/op/kernel/detail/util.hpp": "#pragma once\n",
	"models/m/kernels/op/kernel/unused.hpp":      "#pragma once\n",
	"models/m/notes.py":                          "print('no stub here')\n",
	"models/other/lone.cpp":                      "int x;\n",
	// A stub whose sources are beside its folder: its root holds both.
	"models/up/py/ops.py": `from pathlib import Path
import pypto.language as pl

@pl.jit.extern(source=Path(__file__).parent.parent / "k" / "e.cpp")
def e(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor:
    ...
`,
	"models/up/k/e.cpp": `extern "C" __global__ __aicore__ void e(__gm__ int64_t *args) {}
`,
}

func TestProjectRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, layoutFiles)
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	m := p("models/m")
	for _, tc := range []struct{ path, want string }{
		{"models/m/kernels/op/kernel/body.hpp", m},                                 // reached through the entry's include
		{"models/m/kernels/op/kernel/detail/util.hpp", m},                          // transitively
		{"models/m/kernels/op/attention/entry.cpp", m},                             // the stub's source
		{"models/m/ops.py", m},                                                     // the stub itself
		{"models/m/kernels/op/kernel", m},                                          // a folder below the entries
		{"models/m/kernels/op/kernel/unused.hpp", p("models/m/kernels/op/kernel")}, // no stub reaches it
		{"models/other/lone.cpp", p("models/other")},
		{"models/up/py/ops.py", p("models/up")},
		{"models/up/k/e.cpp", p("models/up/k")}, // the stub is not in a folder above it
	} {
		if got := ProjectRoot(p(tc.path)); got != tc.want {
			t.Errorf("ProjectRoot(%s) = %s, want %s", tc.path, got, tc.want)
		}
	}

	// A marker nearer than the stub's folder wins.
	writeTree(t, root, map[string]string{"models/m/kernels/extern-lsp.toml": ""})
	if got, want := ProjectRoot(p("models/m/kernels/op/kernel/body.hpp")), p("models/m/kernels"); got != want {
		t.Errorf("with extern-lsp.toml: %s, want %s", got, want)
	}
	writeTree(t, root, map[string]string{"models/other/pyproject.toml": ""})
	if got, want := ProjectRoot(p("models/other/lone.cpp")), p("models/other"); got != want {
		t.Errorf("with pyproject.toml: %s, want %s", got, want)
	}
	if err := os.Mkdir(p("models/up/.git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := ProjectRoot(p("models/up/k/e.cpp")), p("models/up"); got != want {
		t.Errorf("with .git: %s, want %s", got, want)
	}
}
