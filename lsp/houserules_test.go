package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// A kernel reading a task input field by field: one house-rule finding for
// the pointer, the other reads its related locations.
const houseRuleKernel = `extern "C" __global__ __aicore__ void k(__gm__ int64_t *args)
{
    __gm__ int32_t *tiling = reinterpret_cast<__gm__ int32_t *>(args[0]);
    int32_t rows = tiling[0];
    int32_t cols = tiling[1];
    int32_t step = tiling[2];
    (void)rows; (void)cols; (void)step;
}
`

// TestHouseRulesAsHints: the editor shows house-rule infos (grouped per
// pointer) as hints, and as infos when the houseRules setting asks.
func TestHouseRulesAsHints(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cpp")
	if err := os.WriteFile(path, []byte(houseRuleKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	b := c.open(path)
	ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT001")
	if len(ds) != 1 {
		t.Fatalf("want one EXT001 for the three reads of tiling, got %d: %+v", len(ds), ds)
	}
	d := ds[0]
	if d.Severity != protocol.DiagnosticSeverityHint {
		t.Errorf("house-rule read shown at severity %v, want hint", d.Severity)
	}
	if d.Range.Start.Line != 3 || len(d.RelatedInformation) != 2 || !strings.HasPrefix(d.Message, "3 scalar reads of `__gm__` pointer `tiling`") {
		t.Errorf("grouped finding = line %d, %d related, %q", d.Range.Start.Line, len(d.RelatedInformation), d.Message)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"houseRules": "info"}}})
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, NewText: "// v2\n"}})
	ds = withCode(c.diagnosticsFor(b.uri, b.version), "EXT001")
	if len(ds) != 1 || ds[0].Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("houseRules = info: got %+v", ds)
	}
	c.shutdown()
}
