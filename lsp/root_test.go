package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestNoClientRoot: a client that names no folder (Neovim outside a git
// repository, VS Code with a single file) opens a body header of the
// pypto-lib layout; the server takes the header's project root (the stub's
// folder) and answers hovers, inlay hints, definitions and diagnostics
// from the stub.
func TestNoClientRoot(t *testing.T) {
	tree := t.TempDir()
	analysistest.CopyTree(t, filepath.Join("..", "testdata", "noroot"), tree)
	stub := filepath.Join(tree, "models", "rms", "rms_ops.py")
	header := filepath.Join(tree, "models", "rms", "kernels", "rms_norm", "kernel", "rms_body.hpp")

	c := startServer(t, Options{})
	c.initialize(nil, map[string]any{})
	b := c.open(header)
	if got := codes(c.diagnosticsFor(b.uri, 1)); strings.Join(got, ",") != "EXT101,EXT102" {
		t.Errorf("diagnostics = %v, want EXT101 and EXT102 (from the stub)", got)
		t.Logf("context %+v, roots %v", c.srv.current().ws.Context(header), c.srv.current().ws.Roots())
	}
	var h *protocol.Hover
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": find(t, b.text, "args[1]", 0)}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "`gamma`") {
		t.Errorf("hover on args[1] = %+v", h)
	}
	var hints []inlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": b.uri},
		"range": protocol.Range{End: protocol.Position{Line: 100}}}, &hints)
	var labels []string
	for _, hh := range hints {
		labels = append(labels, hh.Label)
	}
	if !strings.Contains(strings.Join(labels, ","), "gamma") {
		t.Errorf("inlay hints = %v, want one naming gamma", labels)
	}
	var locs []protocol.Location
	c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": find(t, b.text, "args[0]", 0)}, &locs)
	if len(locs) != 1 || string(locs[0].URI) != uriOf(stub) {
		t.Errorf("definition of args[0] = %+v, want the stub %s", locs, stub)
	}
	if roots := c.srv.current().ws.Roots(); len(roots) != 1 || roots[0] != filepath.Dir(stub) {
		t.Errorf("roots = %v, want [%s]", roots, filepath.Dir(stub))
	}
	c.shutdown()
}

// TestServeRootOption: with Options.Root (serve --root) and no client
// folder, that root is used and opened files add none.
func TestServeRootOption(t *testing.T) {
	tree := t.TempDir()
	analysistest.CopyTree(t, filepath.Join("..", "testdata", "noroot"), tree)
	kernel := filepath.Join(tree, "models", "rms", "kernels", "rms_norm", "kernel")
	c := startServer(t, Options{Root: kernel})
	c.initialize(nil, map[string]any{})
	b := c.open(filepath.Join(kernel, "rms_body.hpp"))
	if got := codes(c.diagnosticsFor(b.uri, 1)); len(got) != 0 {
		t.Errorf("diagnostics = %v: the root holds no stub", got)
	}
	if roots := c.srv.current().ws.Roots(); len(roots) != 1 || roots[0] != kernel {
		t.Errorf("roots = %v, want [%s]", roots, kernel)
	}
	c.shutdown()
}
