package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
)

// TestBinaryDocumentSaysSo (issue 31 item 12): an extern whose text holds
// a NUL byte is not analysed; the editor shows one info at its top saying
// so and where the byte is, rather than an empty list a user would take
// for a clean file.
func TestBinaryDocumentSaysSo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.cpp")
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {\n  int x = 1;\x00\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, nil)
	b := c.openText(path, src)
	ds := c.diagnosticsFor(b.uri, b.version)
	if len(ds) != 1 || ds[0].Code != analysis.InternalCode || !strings.Contains(ds[0].Message, "NUL byte (line 2, column 13)") {
		t.Fatalf("a document with a NUL byte: diagnostics %+v, want one info naming the byte", ds)
	}
	if ds[0].Severity != 3 {
		t.Errorf("severity %v, want information", ds[0].Severity)
	}
	c.shutdown()
}
