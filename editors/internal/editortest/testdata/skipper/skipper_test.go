// Package skipper is a test package whose only test skips for a missing
// editor: editortest's TestSkipsVisible runs it with go test.
package skipper

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/editors/internal/editortest"
)

func TestMain(m *testing.M) { editortest.Main(m) }

func TestNoSuchEditor(t *testing.T) {
	editortest.Missing(t, "no-such-editor", "not installed anywhere")
}
