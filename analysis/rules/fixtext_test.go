package rules

import (
	"os"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
)

// fixedText is the text of file after applying a fix's edits to it (the
// edits to other files are ignored), for pinning what a fix writes.
func fixedText(t *testing.T, root string, fix analysis.Fix, file string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, skipped := analysis.ApplyEdits(src, file, fix.Edits)
	if skipped > 0 {
		t.Fatalf("%s: overlapping edits", fix.Title)
	}
	return string(out)
}
