package vscode_test

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

// TestMain prints the SKIP lines of missing editors where go test shows
// them (see editortest.Main).
func TestMain(m *testing.M) { editortest.Main(m) }
