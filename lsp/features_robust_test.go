package lsp

import (
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestFeaturesOnCutText runs every ABI feature request on the shared header
// and the stub cut at many points (what a buffer looks like mid-typing):
// no request may fail with an internal error (a recovered panic).
func TestFeaturesOnCutText(t *testing.T) {
	root := abiFixture(t)
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	for _, name := range []string{filepath.Join("kernels", "qwen_fai", "qwen_fai.h"), "attention.py"} {
		b := c.open(filepath.Join(root, name))
		full := b.text
		for cut := len(full); cut > 0; cut -= 173 {
			b.version++
			b.text = full[:cut]
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": b.uri, "version": b.version},
				"contentChanges": []any{map[string]any{"text": b.text}},
			})
			l := grammar.NewLines([]byte(b.text))
			doc := map[string]any{"uri": b.uri}
			var positions []protocol.Position
			for _, off := range []int{cut, cut / 2, cut / 3, cut * 2 / 3} {
				positions = append(positions, posOf(l, uint32(off)))
			}
			check := func(method string, params map[string]any) {
				t.Helper()
				if m := c.request(method, params); m.Error != nil && m.Error.Code == -32603 {
					t.Errorf("%s on %s cut at %d: %s", method, name, cut, m.Error.Message)
				}
			}
			for _, pos := range positions {
				for _, m := range []string{"textDocument/completion", "textDocument/signatureHelp", "textDocument/prepareRename", "textDocument/hover", "textDocument/definition"} {
					check(m, map[string]any{"textDocument": doc, "position": pos})
				}
				check("textDocument/references", map[string]any{"textDocument": doc, "position": pos, "context": map[string]any{"includeDeclaration": true}})
				check("textDocument/rename", map[string]any{"textDocument": doc, "position": pos, "newName": "renamed"})
			}
			for _, m := range []string{"textDocument/codeLens", "textDocument/documentSymbol", "textDocument/semanticTokens/full"} {
				check(m, map[string]any{"textDocument": doc})
			}
			check("externLsp/inactiveRegions", map[string]any{"textDocument": doc, "core": "cube"})
			check("textDocument/inlayHint", map[string]any{"textDocument": doc, "range": protocol.Range{End: protocol.Position{Line: 10000}}})
			check("textDocument/codeAction", map[string]any{"textDocument": doc, "range": protocol.Range{End: protocol.Position{Line: 10000}},
				"context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}})
		}
	}
	check := func(q string) {
		if m := c.request("workspace/symbol", map[string]any{"query": q}); m.Error != nil {
			t.Errorf("workspace/symbol %q: %s", q, m.Error.Message)
		}
	}
	check("")
	check("é[")
	c.shutdown()
}
