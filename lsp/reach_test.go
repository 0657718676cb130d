package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLibraryHeaderReach: over JSON-RPC, a library header a kernel
// includes whole gets findings in the functions the kernel reaches only,
// as check does; a header no kernel of the workspace includes gets none
// from the device rules (no launch model applies to it).
func TestLibraryHeaderReach(t *testing.T) {
	root, err := filepath.Abs("../analysis/rules/testdata/reach")
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	h := c.open(root + "/comm_api.h")
	var lines []int
	for _, d := range withCode(c.diagnosticsFor(h.uri, 1), "EXT011") {
		lines = append(lines, int(d.Range.Start.Line)+1)
	}
	if len(lines) != 3 || lines[0] != 9 || lines[1] != 17 || lines[2] != 32 {
		t.Errorf("EXT011 in the included library header on lines %v, want 9, 17 and 32 (the reached functions)", lines)
	}
	lone := c.open(root + "/orphan/lone_api.h")
	for _, d := range c.diagnosticsFor(lone.uri, 1) {
		if code, _ := d.Code.(string); strings.HasPrefix(code, "EXT0") {
			t.Errorf("a header no kernel includes: %v", d)
		}
	}
	c.shutdown()
}
