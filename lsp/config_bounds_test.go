package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A pyproject.toml nesting another tool's table thousands deep (the TOML
// decoder's cost is quadratic in the depth: gigabytes for 20 KB) is
// refused before decoding: the server says why, and diagnoses with the
// defaults.
func TestDeepConfigIsRefusedByTheServer(t *testing.T) {
	root := t.TempDir()
	deep := "[tool.other]\nx = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000) + "\n"
	os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte(deep), 0o644)
	src := "#include \"kernel_operator.h\"\n" +
		"__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
		"__aicore__ inline void vec() { AscendC::PipeBarrier<PIPE_V>(); }\n" +
		"extern \"C\" __global__ __aicore__ void deep_entry(__gm__ int64_t *args) {\n  AscendC::SyncAll();\n}\n"
	os.WriteFile(filepath.Join(root, "entry.cpp"), []byte(src), 0o644)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(filepath.Join(root, "entry.cpp"))
	if ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT004"); len(ds) != 1 {
		t.Errorf("want the EXT004 finding under the defaults, got %v", codes(ds))
	}
	c.waitFor("a message saying the configuration is nested too deep", func() bool {
		for _, m := range c.notes {
			if m.Method == "window/showMessage" && strings.Contains(string(m.Params), "nested more than 64 levels deep") {
				return true
			}
		}
		return false
	})
	c.shutdown()
	runtime.ReadMemStats(&after)
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 512 {
		t.Errorf("the server allocated %d MB", mb)
	}
}
