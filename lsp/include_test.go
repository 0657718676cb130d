package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestIncludeHoverAndDefinition: over JSON-RPC, an #include names the file
// it resolves to and the search that found it (a CMakeLists' folder, the
// tree's one file ending with its path), go-to-definition opens it, an
// ambiguous one says so; and the server judges the kernels with the same
// resolution as check (a flush helper found through the build silences
// the poll, the ambiguous one says less).
func TestIncludeHoverAndDefinition(t *testing.T) {
	root, err := filepath.Abs("../analysis/rules/testdata/includes/proj")
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	hover := func(b *buffer, at string) string {
		var h *protocol.Hover
		c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": find(t, b.text, at, 0)}, &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	k := c.open(root + "/cmake_kernel/poll_cmake.cpp")
	if got := hover(k, "line_flush.h\"\n"); !strings.Contains(got, "`shared/flush/line_flush.h`") || !strings.Contains(got, "`cmake_kernel/CMakeLists.txt` names") {
		t.Errorf("hover on a build-resolved include = %q", got)
	}
	var locs []protocol.Location
	c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": k.uri}, "position": find(t, k.text, "line_flush.h\"\n", 0)}, &locs)
	if len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "/shared/flush/line_flush.h") {
		t.Errorf("definition of the include = %v", locs)
	}
	if ds := withCode(c.diagnosticsFor(k.uri, 1), "EXT001"); len(ds) != 0 {
		t.Errorf("poll flushed through a build-resolved helper: %v", ds)
	}
	s := c.open(root + "/suffix_kernel/poll_suffix.cpp")
	if got := hover(s, "vendor_poll/poll_sync.h"); !strings.Contains(got, "`vendor_poll/poll_sync.h`, found no folder of the build holds it: the one file") {
		t.Errorf("hover on a suffix-resolved include = %q", got)
	}
	a := c.open(root + "/ambiguous_kernel/poll_ambiguous.cpp")
	if got := hover(a, "dup/flush.h\"\n"); !strings.Contains(got, "not resolved: 2 files of the workspace end with `dup/flush.h`") {
		t.Errorf("hover on an ambiguous include = %q", got)
	}
	if ds := withCode(c.diagnosticsFor(a.uri, 1), "EXT001"); len(ds) != 1 || !strings.Contains(ds[0].Message, "unless `flush_dup(flag)` invalidates it") {
		t.Errorf("poll behind an ambiguous include: %v", ds)
	}
	c.shutdown()
}
