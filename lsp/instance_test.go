package lsp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// Hover and inlay hints on a templated body two externs compile evaluate
// `WithRope ? 2 : 1` per extern (one slot each, as the rules read it) and
// say "unknown" where no entry binds the flag, never a name that may be
// wrong.
func TestFactsPerInstantiation(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "testdata", "abi", "instance"))
	body := filepath.Join(root, "kernels", "body.hpp")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(body)
	c.diagnosticsFor(b.uri, 1)

	var hints []inlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": b.uri},
		"range": protocol.Range{End: protocol.Position{Line: 1000}}}, &hints)
	byLine := map[uint32]string{}
	for _, h := range hints {
		byLine[h.Position.Line] = h.Label
	}
	for _, tc := range []struct{ at, want string }{
		{"slot_ptr<half>(args, key_arg)", "key_cache"},
		{"slot_ptr<half>(args, value_arg)", "value_cache"},
		{"slot_ptr<half>(args, side_arg)", "unknown"},
	} {
		line := find(t, b.text, tc.at, 0).Line
		if got := byLine[line]; got != tc.want {
			t.Errorf("inlay hint at %s = %q, want %q (all: %v)", tc.at, got, tc.want, byLine)
		}
	}

	var h *protocol.Hover
	pos := find(t, b.text, "key_arg = ", 0)
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &h)
	if h == nil {
		t.Fatal("no hover on key_arg")
	}
	md := h.Contents.Value
	for _, want := range []string{"args[1] → `key_cache`", "args[2] → `key_cache`"} {
		if !strings.Contains(md, want) {
			t.Errorf("hover on key_arg lacks %q:\n%s", want, md)
		}
	}
	for _, wrong := range []string{"`value_cache`", "`query`"} {
		if strings.Contains(md, wrong) {
			t.Errorf("hover on key_arg names %s, which no extern reads there:\n%s", wrong, md)
		}
	}
	pos = find(t, b.text, "side_arg = ", 0)
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "unknown") || strings.Contains(h.Contents.Value, "`query`") {
		t.Errorf("hover on side_arg (flag no entry binds) = %+v, want unknown and no name", h)
	}
}

// TestFactsPerInstantiationReal runs on a real tree (opt-in:
// EXTERN_LSP_REAL_BODY=path of a templated body header, its project root
// found as the server finds it): every inlay hint names one parameter per
// extern, or says unknown, never two candidates for one read.
func TestFactsPerInstantiationReal(t *testing.T) {
	body := os.Getenv("EXTERN_LSP_REAL_BODY")
	if body == "" {
		t.Skip("set EXTERN_LSP_REAL_BODY to a templated body header of a real tree")
	}
	root := os.Getenv("EXTERN_LSP_REAL_ROOT")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(body)
	c.diagnosticsFor(b.uri, 1)
	var hints []inlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": b.uri},
		"range": protocol.Range{End: protocol.Position{Line: 100000}}}, &hints)
	if len(hints) == 0 {
		t.Fatal("no inlay hints: not a body any extern compiles?")
	}
	for _, h := range hints {
		t.Logf("line %d: %s", h.Position.Line+1, h.Label)
		if strings.Contains(h.Label, " / ") {
			t.Errorf("line %d: hint %q names several parameters for one read of one extern", h.Position.Line+1, h.Label)
		}
	}
}

// The EXT103 quick fix changes the signature, so it is one workspace edit
// listing every file a use of the moved slots lives in: the stub, the
// caller's module and the kernel's C++ (a rename-like edit), and it is
// offered only after the recheck proved it.
func TestSignatureFixEditsEveryFile(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", "analysis", "rules", "testdata", "ext103sig", "moved"))
	stub := filepath.Join(root, "attn_ops.py")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(stub)
	ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT103")
	if len(ds) != 1 {
		t.Fatalf("want one EXT103, got %v", ds)
	}
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": b.uri}, "range": ds[0].Range,
		"context": map[string]any{"diagnostics": []any{ds[0]}, "only": []string{"quickfix"}},
	}, &actions)
	for _, a := range actions {
		if !strings.HasPrefix(a.Title, "Declare `out` first") {
			continue
		}
		var files []string
		for uri := range a.Edit.Changes {
			files = append(files, filepath.Base(string(uri)))
		}
		sort.Strings(files)
		if strings.Join(files, " ") != "attn.cpp attn_ops.py model.py" {
			t.Errorf("the signature fix edits %v, want the stub, the caller and the kernel", files)
		}
		return
	}
	t.Fatalf("no signature fix offered: %+v", actions)
}

// BenchmarkQuickFixRecheck measures a code action request over every
// finding of the examples' trap kernel: the first request proves each fix
// offered (an analysis of the unit per fix), later ones on the same text
// reuse the verdicts. Reports cold-ms (the first request) and the time of
// a warm request per op.
//
//	go test ./lsp -run '^$' -bench QuickFixRecheck -benchtime 20x
func BenchmarkQuickFixRecheck(b *testing.B) {
	src, _ := filepath.Abs(filepath.Join("..", "examples", "traps"))
	root := b.TempDir()
	analysistest.CopyTree(b, src, root)
	entry := filepath.Join(root, "kernels", "topk_mix", "topk_entry.cpp")
	c := startServer(b, Options{})
	c.initialize([]string{root}, map[string]any{})
	doc := c.open(entry)
	c.diagnosticsFor(doc.uri, 1)
	ask := func() int {
		var actions []protocol.CodeAction
		c.call("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": doc.uri},
			"range":        protocol.Range{End: protocol.Position{Line: 1000}},
			"context":      map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}},
		}, &actions)
		return len(actions)
	}
	start := time.Now()
	if ask() == 0 {
		b.Fatal("no code actions on the trap kernel")
	}
	cold := time.Since(start)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ask()
	}
	b.StopTimer()
	// After the loop: ResetTimer drops metrics reported before it.
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
}
