package lsp

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestReferencesAndRename crosses the languages on the shared header: a
// stub parameter's C++ reads per extern, a read's siblings, renames that
// edit the stub only.
func TestReferencesAndRename(t *testing.T) {
	root := abiFixture(t)
	header := filepath.Join(root, "kernels", "qwen_fai", "qwen_fai.h")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	h := c.open(header)
	py := c.open(filepath.Join(root, "attention.py"))
	c.diagnosticsFor(h.uri, 1)
	hl := strings.Split(h.text, "\n")

	refs := func(b *buffer, pos protocol.Position, decl bool) []string {
		t.Helper()
		var locs []protocol.Location
		c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos,
			"context": map[string]any{"includeDeclaration": decl}}, &locs)
		var out []string
		for _, l := range locs {
			if string(l.URI) == h.uri && l.Range.Start.Line == l.Range.End.Line {
				out = append(out, hl[l.Range.Start.Line][l.Range.Start.Character:l.Range.End.Character])
			} else {
				out = append(out, filepath.Base(string(l.URI))+":"+itoa(int(l.Range.Start.Line)+1))
			}
		}
		return out
	}

	// The fused extern's cache_row_offset (args[17]).
	rope := find(t, py.text, "cache_row_offset: pl.Scalar", 1)
	got := refs(py, rope, false)
	want := []string{"args[17]", "args[WithRope ? kRopeRowOffset : kAttnRowOffset]"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("references of the fused cache_row_offset = %q, want %q", got, want)
	}
	// The attention-only one (args[7]): its reads are args[7] reads.
	plain := find(t, py.text, "cache_row_offset: pl.Scalar", 0)
	got = refs(py, plain, true)
	if len(got) < 4 || !strings.HasPrefix(got[0], "attention.py:") || !contains(got, "args[WithRope ? kRopeRowOffset : kAttnRowOffset]") || !contains(got, "args[7]") || contains(got, "args[17]") {
		t.Errorf("references of the attention-only cache_row_offset = %q", got)
	}
	// From a helper read of query: both externs' query, and every query read.
	q := find(t, h.text, "ARG_QUERY)", 0)
	got = refs(h, q, true)
	if len(got) != 3 || got[0] != "attention.py:19" || got[1] != "attention.py:41" || got[2] != "tensor_data<bfloat16_t>(args, ARG_QUERY)" {
		t.Errorf("references of tensor_data(args, ARG_QUERY) = %q", got)
	}

	// Rename from the stub: only the stub changes.
	var edit struct {
		Changes map[string][]protocol.TextEdit `json:"changes"`
	}
	var prep struct {
		Placeholder string `json:"placeholder"`
	}
	c.call("textDocument/prepareRename", map[string]any{"textDocument": map[string]any{"uri": py.uri}, "position": rope}, &prep)
	if prep.Placeholder != "cache_row_offset" {
		t.Errorf("prepareRename = %+v", prep)
	}
	c.call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": py.uri}, "position": rope, "newName": "row_offset"}, &edit)
	if len(edit.Changes) != 1 || len(edit.Changes[py.uri]) != 1 || edit.Changes[py.uri][0].Range.Start != rope || edit.Changes[py.uri][0].NewText != "row_offset" {
		t.Errorf("rename of the fused cache_row_offset = %+v", edit.Changes)
	}
	// From a C++ read of query: query in both stubs.
	c.call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": h.uri}, "position": q, "newName": "q"}, &edit)
	if len(edit.Changes) != 1 || len(edit.Changes[py.uri]) != 2 {
		t.Errorf("rename from tensor_data(args, ARG_QUERY) = %+v", edit.Changes)
	}
	// A read meaning q_proj for one extern and cache_row_offset for the
	// other: refused with the reason.
	bad := find(t, h.text, "batch_offset = args[7]", 0)
	bad.Character += uint32(len("batch_offset = args["))
	m := c.request("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": h.uri}, "position": bad, "newName": "x"})
	if m.Error == nil || !strings.Contains(m.Error.Message, "q_proj") || !strings.Contains(m.Error.Message, "cache_row_offset") {
		t.Errorf("rename of an ambiguous read = %+v", m)
	}
	// Names that are not Python parameters, or collide.
	for _, name := range []string{"1x", "lambda", "query"} {
		if m := c.request("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": py.uri}, "position": rope, "newName": name}); m.Error == nil {
			t.Errorf("rename to %q accepted", name)
		}
	}
	c.shutdown()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }
