package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestStress drives the server's concurrent paths at once over every rule
// fixture, a fixed number of rounds: workspace diagnostics (twice, so two runs of one closed file
// share its unit facts), pulls of closed files, fix-all and quick fixes,
// hovers, hints and symbols, edits, and a watched-file change that makes
// every cached result stale while the facts of unchanged parses stay in
// the store. CI runs it under -race (`go test -race -run TestStress
// ./lsp/`): a fact filled lazily without a lock (the TPipe model's
// callers) crashed the server with "concurrent map read and map write".
func TestStress(t *testing.T) {
	rules, _ := filepath.Abs(filepath.Join("..", "analysis", "rules", "testdata"))
	root := t.TempDir()
	analysistest.CopyTree(t, rules, root)
	analysistest.CopyTree(t, fixture(t, "mixed"), filepath.Join(root, "lsp"))
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	var open []*buffer
	for _, rel := range []string{"ext002/mixed/entry.cpp", "ext005/syncall/entry.cpp", "lsp/entry.cpp"} {
		b := c.open(filepath.Join(root, filepath.FromSlash(rel)))
		c.diagnosticsFor(b.uri, 1)
		open = append(open, b)
	}
	closed := []string{"ext002/fused/entry.cpp", "ext002/fused/rope_phase.h", "ext003/entry.cpp", "ext009/entry.cpp"}
	id := 10000
	const rounds = 4
	for round := range rounds {
		var replies []chan wireMsg
		req := func(method string, params any) {
			id++
			replies = append(replies, c.send(json.RawMessage(fmt.Sprint(id)), method, params))
		}
		c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
			map[string]any{"uri": uriOf(filepath.Join(root, "ext003", "phases.h")), "type": 2},
		}})
		req("workspace/diagnostic", map[string]any{"previousResultIds": []any{}})
		for _, rel := range closed {
			req("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uriOf(filepath.Join(root, filepath.FromSlash(rel)))}})
		}
		req("workspace/diagnostic", map[string]any{"previousResultIds": []any{}})
		for _, b := range open {
			doc := map[string]any{"uri": b.uri}
			req("textDocument/codeAction", map[string]any{"textDocument": doc, "range": protocol.Range{End: protocol.Position{Line: 200}},
				"context": map[string]any{"diagnostics": []any{}}})
			req("textDocument/hover", map[string]any{"textDocument": doc, "position": find(t, b.text, "(", 0)})
			req("textDocument/inlayHint", map[string]any{"textDocument": doc, "range": protocol.Range{End: protocol.Position{Line: 200}}})
			req("textDocument/documentSymbol", map[string]any{"textDocument": doc})
		}
		req("workspace/symbol", map[string]any{"query": "entry"})
		// An edit while all of that runs.
		b := open[round%len(open)]
		c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, NewText: fmt.Sprintf("// round %d\n", round)}})
		for _, ch := range replies {
			if m := c.wait(ch, "a request of the stress round"); m.Error != nil && m.Error.Code != int(codeRequestCancelled) && m.Error.Code != int(codeContentModified) && m.Error.Code != int(codeServerCancelled) {
				t.Fatalf("round %d: error %d %s", round, m.Error.Code, m.Error.Message)
			}
		}
	}
	// The server still answers, and the last edit is diagnosed.
	for _, b := range open {
		c.diagnosticsFor(b.uri, b.version)
	}
	c.shutdown()
}
