package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestWorkspaceDiagnosticsVendorPolicy: the editor's workspace diagnostics
// list the files `check` lists, with as many findings each: a header under
// vendor/ that an entry includes is analysed as part of the unit but, as
// in `check DIR`, not reported on until it is named (opened).
func TestWorkspaceDiagnosticsVendorPolicy(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pyproject.toml": "[project]\nname = \"v\"\n",
		"kernels/k.cpp": "#include \"../vendor/lib/lib.h\"\n" +
			"extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args)\n{\n" +
			"    __gm__ int32_t *n = reinterpret_cast<__gm__ int32_t *>(args[0]);\n" +
			"    int32_t x = n[0] + lib_first(n);\n    (void)x;\n}\n",
		"vendor/lib/lib.h": "inline __aicore__ int32_t lib_first(__gm__ int32_t *p) { return p[1] + p[2]; }\n" +
			"inline __aicore__ int32_t lib_second(__gm__ int32_t *p) { return p[3]; }\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for path, ds := range checkTree(t, dir, dir) {
		n := 0
		for _, d := range ds {
			if d.File == path && d.Suppressed == "" {
				n++
			}
		}
		if n > 0 {
			want = append(want, rel(dir, path)+" "+itoa(n))
		}
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}})
	var rep struct {
		Items []struct {
			URI   string            `json:"uri"`
			Items []json.RawMessage `json:"items"`
		} `json:"items"`
	}
	c.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &rep)
	var got []string
	for _, it := range rep.Items {
		if len(it.Items) > 0 {
			got = append(got, rel(dir, pathOf(it.URI))+" "+itoa(len(it.Items)))
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == 0 {
		t.Errorf("workspace diagnostics per file:\n%s\ncheck:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, g := range got {
		if strings.HasPrefix(g, "vendor/") {
			t.Errorf("the editor reports on a vendored header nobody opened: %s", g)
		}
	}
	c.shutdown()
}
