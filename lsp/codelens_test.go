package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestCodeLensAndSymbols: the lens above each entry and stub, its command
// answered by the server, and the document/workspace symbols.
func TestCodeLensAndSymbols(t *testing.T) {
	root := abiFixture(t)
	dir := filepath.Join(root, "kernels", "qwen_fai")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}})
	entry := c.open(filepath.Join(dir, "paged_attention_rope_entry.cpp"))
	var lenses []codeLens
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": entry.uri}}, &lenses)
	if len(lenses) != 1 || lenses[0].Command == nil {
		t.Fatalf("code lenses of the rope entry = %+v", lenses)
	}
	l := lenses[0]
	if want := "args: 17 tensors, 2 scalars · mixed · dual_aiv_dispatch · needs sync_start"; l.Command.Title != want {
		t.Errorf("lens title = %q, want %q", l.Command.Title, want)
	}
	if line := strings.Split(entry.text, "\n")[l.Range.Start.Line]; !strings.HasPrefix(line, "extern \"C\"") {
		t.Errorf("lens sits on %q, want the entry's first line", line)
	}
	if l.Command.Command != cmdShowAbiTable || len(l.Command.Arguments) != 1 || l.Command.Arguments[0] != entry.uri {
		t.Errorf("lens command = %+v", l.Command)
	}
	// The attention-only extern has no barrier.
	plain := c.open(filepath.Join(dir, "paged_attention_entry.cpp"))
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": plain.uri}}, &lenses)
	if len(lenses) != 1 || lenses[0].Command.Title != "args: 7 tensors, 1 scalar · mixed · dual_aiv_dispatch" {
		t.Errorf("lens of the attention-only entry = %+v", lenses[0].Command)
	}
	// A client without the command sends it to the server: the table.
	var table abiTableResult
	c.call("workspace/executeCommand", map[string]any{"command": cmdShowAbiTable, "arguments": []any{entry.uri}}, &table)
	if !strings.Contains(table.Markdown, "| 17 | `cache_row_offset`") {
		t.Errorf("%s answered %q", cmdShowAbiTable, table.Markdown)
	}
	// A lens above each stub of the .py.
	py := c.open(filepath.Join(root, "attention.py"))
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": py.uri}}, &lenses)
	if len(lenses) != 2 {
		t.Errorf("stub lenses = %+v", lenses)
	}
	// Editing the stub refreshes the lenses: the entry's now says the
	// fused extern has no dual_aiv_dispatch.
	at := find(t, py.text, "    dual_aiv_dispatch=True,\n)", 0)
	c.edit(py, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: protocol.Position{Line: at.Line + 1}}, NewText: ""}})
	c.waitFor("code lens refresh", func() bool { return c.serverCalls["workspace/codeLens/refresh"] > 0 })
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": entry.uri}}, &lenses)
	if len(lenses) != 1 || lenses[0].Command.Title != "args: 17 tensors, 2 scalars · mixed · needs sync_start" {
		t.Errorf("lens after dropping dual_aiv_dispatch = %+v", lenses[0].Command)
	}
	// A header is no entry: no lens.
	h := c.open(filepath.Join(dir, "qwen_fai.h"))
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": h.uri}}, &lenses)
	if len(lenses) != 0 {
		t.Errorf("header lenses = %+v", lenses)
	}

	// Document symbols: functions with what they are; stubs with their
	// parameters' slots.
	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": h.uri}}, &syms)
	got := map[string]string{}
	for _, s := range syms {
		got[s.Name] = s.Detail
	}
	if got["run_qwen_fai"] != "reads args · template<bool WithRope>" || got["rope_phase"] == "" {
		t.Errorf("header symbols = %v", got)
	}
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": entry.uri}}, &syms)
	if len(syms) != 1 || syms[0].Detail != "extern entry · paged_attention_rope_cce" {
		t.Errorf("entry symbols = %+v", syms)
	}
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": py.uri}}, &syms)
	if len(syms) != 2 || syms[1].Name != "paged_attention_rope_cce" || len(syms[1].Children) != 19 {
		t.Fatalf("stub symbols = %+v", syms)
	}
	if ch := syms[1].Children[7]; ch.Name != "cache_row_offset" || ch.Detail != "args[17] · scalar, INDEX" {
		t.Errorf("cache_row_offset symbol = %+v", ch)
	}

	// Workspace symbols: stubs, entries and args bodies by fuzzy query.
	var ws []symbolInformation
	c.call("workspace/symbol", map[string]any{"query": "ropecce"}, &ws)
	kinds := map[string]bool{}
	for _, s := range ws {
		kinds[s.Name+" "+strings.SplitN(s.ContainerName, " · ", 2)[0]] = true
	}
	for _, want := range []string{"paged_attention_rope_cce extern stub", "paged_attention_rope_cce extern entry"} {
		if !kinds[want] {
			t.Errorf("workspace symbol %q missing from %v", want, kinds)
		}
	}
	if kinds["paged_attention_cce extern stub"] {
		t.Errorf("query ropecce matched paged_attention_cce: %v", kinds)
	}
	c.call("workspace/symbol", map[string]any{"query": "tensor_d"}, &ws)
	if len(ws) != 1 || ws[0].Name != "tensor_data" || !strings.HasPrefix(ws[0].ContainerName, "reads args · args.h") {
		t.Errorf("workspace symbol tensor_d = %+v", ws)
	}
	c.shutdown()
}
