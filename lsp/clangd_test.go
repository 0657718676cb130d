package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteClangdConfig: the editor command writes the project's .clangd
// for the per-core view's core, a switch of the view rewrites it, and a
// .clangd the user wrote is refused.
func TestWriteClangdConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mixed.cpp"), []byte(coreViewKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"coreView": "cube"}}})
	var res clangdConfigResult
	c.call("workspace/executeCommand", map[string]any{"command": cmdWriteClangdConfig}, &res)
	path := filepath.Join(dir, ".clangd")
	read := func() string {
		b, _ := os.ReadFile(path)
		return string(b)
	}
	if res.Path != path || res.Core != "cube" || !strings.Contains(read(), `"-D__DAV_C220_CUBE__=1"`) || !strings.Contains(read(), `"-D__gm__="`) {
		t.Fatalf("command answered %+v, .clangd:\n%s", res, read())
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"coreView": "vector"}}})
	c.waitFor(".clangd for the vector core", func() bool { return strings.Contains(read(), `"-D__DAV_C220_VEC__=1"`) })

	if err := os.WriteFile(path, []byte("CompileFlags:\n  Add: [-DMINE]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := c.request("workspace/executeCommand", map[string]any{"command": cmdWriteClangdConfig, "arguments": []any{map[string]any{"core": "cube"}}})
	if m.Error == nil || !strings.Contains(m.Error.Message, "was not written by extern-lsp") || !strings.Contains(read(), "-DMINE") {
		t.Errorf("a user's .clangd: error %+v, file:\n%s", m.Error, read())
	}
	c.shutdown()
}
