package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
)

func abiFixture(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "testdata", "abi", "qwen"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestABIHoverInlayDefinition works on the shared header of two externs:
// args[17] is `cache_row_offset` in the fused ABI and not compiled in the
// attention-only one (WithRope = false there).
func TestABIHoverInlayDefinition(t *testing.T) {
	root := abiFixture(t)
	header := filepath.Join(root, "kernels", "qwen_fai", "qwen_fai.h")
	stubFile := filepath.Join(root, "attention.py")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(header)
	c.diagnosticsFor(b.uri, 1)

	var h *protocol.Hover
	pos := find(t, b.text, "args[17]", 0)
	pos.Character += 5
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &h)
	if h == nil {
		t.Fatal("no hover on args[17]")
	}
	md := h.Contents.Value
	for _, want := range []string{"paged_attention_rope_cce", "`cache_row_offset`: scalar 1 of 2", "INDEX", "tensors occupy args[0..16]", "paged_attention_cce", "not compiled for this extern", "attention.py:"} {
		if !strings.Contains(md, want) {
			t.Errorf("hover on args[17] lacks %q:\n%s", want, md)
		}
	}
	// A helper call's index and an index constant.
	pos = find(t, b.text, "ARG_QUERY)", 0)
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "`query`: tensor 2 of 17") || !strings.Contains(h.Contents.Value, "`query`: tensor 2 of 7") {
		t.Errorf("hover on tensor_data(args, ARG_QUERY) = %+v", h)
	}

	var hints []inlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": b.uri},
		"range": protocol.Range{End: protocol.Position{Line: 1000}}}, &hints)
	labels := map[string]bool{}
	for _, hh := range hints {
		labels[hh.Label] = true
	}
	// Each name says which extern it belongs to when they differ, and
	// collapses to the bare name when they agree.
	for _, want := range []string{"cache_row_offset (rope)", "query", "cache_row_offset (plain) · q_proj (rope)", "out of range (plain) · seq_lens (rope)"} {
		if !labels[want] {
			t.Errorf("no %q inlay hint in %v", want, labels)
		}
	}
	for l := range labels {
		if strings.Contains(l, "|") || strings.Contains(l, "—") || len(l) > 60 {
			t.Errorf("inlay hint %q is not short and readable", l)
		}
	}

	var locs []protocol.Location
	pos = find(t, b.text, "args[17]", 0)
	c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &locs)
	if len(locs) != 1 || string(locs[0].URI) != uriOf(stubFile) {
		t.Fatalf("definition of args[17] = %+v", locs)
	}
	py := c.open(stubFile)
	lines := strings.Split(py.text, "\n")
	if got := lines[locs[0].Range.Start.Line][locs[0].Range.Start.Character:locs[0].Range.End.Character]; got != "cache_row_offset" {
		t.Errorf("definition lands on %q", got)
	}
	// From a stub's source= argument to the entry file.
	pos = find(t, py.text, "aic_source=ROPE_ENTRY", 0)
	pos.Character += uint32(len("aic_source="))
	c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": py.uri}, "position": pos}, &locs)
	if len(locs) != 1 || !strings.HasSuffix(string(locs[0].URI), "paged_attention_rope_entry.cpp") {
		t.Errorf("definition of aic_source = %+v", locs)
	}
	// From the C++ entry to its stub.
	entry := c.open(filepath.Join(root, "kernels", "qwen_fai", "paged_attention_rope_entry.cpp"))
	pos = find(t, entry.text, "paged_attention_rope_cce(", 0)
	c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": entry.uri}, "position": pos}, &locs)
	if len(locs) != 1 || string(locs[0].URI) != uriOf(stubFile) {
		t.Errorf("definition of the entry = %+v", locs)
	}
	// Hover on a stub parameter.
	pos = find(t, py.text, "batch_offset: pl.Scalar", 0)
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": py.uri}, "position": pos}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "args[18]") {
		t.Errorf("hover on batch_offset = %+v", h)
	}

	// An index constant in the args header: its parameter per extern.
	ah := c.open(filepath.Join(root, "kernels", "qwen_fai", "args.h"))
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": ah.uri}, "position": find(t, ah.text, "kRopeRowOffset", 0)}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "index constant = 17") || !strings.Contains(h.Contents.Value, "out of range") || !strings.Contains(h.Contents.Value, "`cache_row_offset`: scalar 1 of 2") {
		t.Errorf("hover on kRopeRowOffset = %+v", h)
	}
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": ah.uri}, "position": find(t, ah.text, "ARG_METADATA", 0)}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "`metadata`: tensor 7 of 7") {
		t.Errorf("hover on the enum member ARG_METADATA = %+v", h)
	}

	var table abiTableResult
	c.call("externLsp/abiTable", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, &table)
	if !strings.Contains(table.Markdown, "paged_attention_rope_cce") || !strings.Contains(table.Markdown, "paged_attention_cce") || !strings.Contains(table.Markdown, "| 17 |") {
		t.Errorf("abiTable = %s", table.Markdown)
	}
	c.shutdown()
}

// stubEditCase is the stub-edit fixture: an open header the stub describes,
// and runs on the stub's opened text held until an edit gives that text up.
type stubEditCase struct {
	root, header, stub string
	held               chan struct{}
	once               sync.Once
}

func newStubEditCase(t *testing.T) *stubEditCase {
	root := abiFixture(t)
	return &stubEditCase{root: root, header: filepath.Join(root, "kernels", "qwen_fai", "qwen_fai.h"), stub: filepath.Join(root, "attention.py"), held: make(chan struct{})}
}

// hold blocks a run on v's snapshot while it holds the stub's opened text,
// until the edit gives it up; a run for the header closes held first.
func (sc *stubEditCase) hold(t *testing.T, v *view, path string) {
	dv, ok := v.snap.docs[sc.stub]
	if !ok || dv.version != 1 {
		return
	}
	if path == sc.header {
		sc.once.Do(func() { close(sc.held) })
	}
	select {
	case <-dv.ctx.Done():
	case <-hangGuard(t):
	}
}

// waitHeld waits until a run for the header is held.
func (sc *stubEditCase) waitHeld(t *testing.T) {
	select {
	case <-sc.held:
	case <-hangGuard(t):
		t.Fatal("the header was not analysed again after the stub's open")
	}
}

// dropFused deletes the fused stub's decorator: the header then compiles
// under one ABI only and the fused-ABI findings go.
func (sc *stubEditCase) dropFused(t *testing.T, c *testClient, py *buffer) {
	start := find(t, py.text, "@pl.jit.extern(\n    core_type=\"mixed\",\n    aic_source=ROPE_ENTRY", 0)
	end := find(t, py.text, "def paged_attention_rope_cce(", 0)
	c.edit(py, []protocol.TextEdit{{Range: protocol.Range{Start: start, End: end}, NewText: ""}})
}

// TestStubEditRediagnosesHeader: editing the stub (an open .py) changes the
// findings of the open header that the stub describes, and the header never
// shows the findings of a state gone by: the runs on the stub's opened text
// are held until the edit gives up that text's parse, which they then read
// as a stub with no externs (the header was published with no findings).
func TestStubEditRediagnosesHeader(t *testing.T) {
	sc := newStubEditCase(t)
	root, header := sc.root, sc.header
	c := startServerWith(t, Options{}, func(s *Server) {
		// Every run on the stub's opened text (the stub's own builds the
		// stub index the header's reads) waits for the edit.
		s.hooks.publishing = func(v *view, d *document) { sc.hold(t, v, d.path) }
	})
	c.initialize([]string{root}, map[string]any{"workspace": map[string]any{"inlayHint": map[string]any{"refreshSupport": true}}})
	b := c.open(header)
	before := c.diagnosticsFor(b.uri, 1)
	if len(withCode(before, "EXT101")) == 0 {
		t.Fatalf("fixture should have EXT101 findings, got %v", codes(before))
	}
	// Relatedinformation points into the stub.
	rel := false
	for _, d := range withCode(before, "EXT101") {
		for _, r := range d.RelatedInformation {
			if strings.HasSuffix(string(r.Location.URI), "attention.py") {
				rel = true
			}
		}
	}
	if !rel {
		t.Errorf("EXT101 findings carry no related information in the stub: %+v", before)
	}
	py := c.open(sc.stub)
	sc.waitHeld(t)
	sc.dropFused(t, c, py)
	var after []protocol.Diagnostic
	c.waitFor("header republished without the fused extern's findings", func() bool {
		ps := c.published[b.uri]
		after = ps[len(ps)-1].Diagnostics
		for _, d := range after {
			if strings.Contains(d.Message, "paged_attention_rope_cce") {
				return false
			}
		}
		return true
	})
	c.waitFor("inlay hint refresh", func() bool { return c.serverCalls["workspace/inlayHint/refresh"] > 0 })
	if len(withCode(after, "EXT102")) == 0 {
		t.Errorf("the attention-only extern's finding went too: %v", codes(after))
	}
	c.mu.Lock()
	for i, p := range c.published[b.uri] {
		if len(p.Diagnostics) == 0 {
			t.Errorf("publication %d of the header holds no findings", i)
		}
	}
	c.mu.Unlock()
	c.shutdown()
}

// A pull whose snapshot's stub text an edit gave up before the pull read
// it is answered "server cancelled, pull again" (LSP 3.17's answer to a
// pull: clients read "content modified" as an empty report), not with the
// empty report of a stub read as holding no externs (what it answered
// before; most runs take that path); the next pull has the edited stub's
// findings.
func TestStubEditDuringPull(t *testing.T) {
	sc := newStubEditCase(t)
	root, header := sc.root, sc.header
	c := startServerWith(t, Options{}, func(s *Server) {
		s.hooks.docView = func(v *view, path string) {
			if path == header {
				sc.hold(t, v, path)
			}
		}
	})
	c.initialize([]string{root}, pullCaps)
	b := c.open(header)
	doc := map[string]any{"textDocument": map[string]any{"uri": b.uri}}
	var rep pullReport
	c.call("textDocument/diagnostic", doc, &rep)
	if len(withCode(rep.Items, "EXT101")) == 0 {
		t.Fatalf("fixture should have EXT101 findings, got %v", codes(rep.Items))
	}
	py := c.open(sc.stub)
	ch := c.send(json.RawMessage(`"held"`), "textDocument/diagnostic", doc)
	sc.waitHeld(t)
	sc.dropFused(t, c, py)
	m := c.wait(ch, "the held pull")
	// Most often the stub's opened text was not parsed before the edit;
	// when something parsed it first, the pull has that state's findings.
	if m.Error != nil {
		if m.Error.Code != int(codeServerCancelled) || string(m.Error.Data) != `{"retriggerRequest":true}` {
			t.Fatalf("held pull: %+v; want server cancelled (%d), pull again", m.Error, codeServerCancelled)
		}
	} else if json.Unmarshal(m.Result, &rep); len(rep.Items) == 0 {
		t.Fatalf("the held pull answered an empty report")
	}
	c.call("textDocument/diagnostic", doc, &rep)
	for _, d := range rep.Items {
		if strings.Contains(d.Message, "paged_attention_rope_cce") {
			t.Errorf("pull after the edit still has the dropped extern's finding: %s", d.Message)
		}
	}
	if len(withCode(rep.Items, "EXT102")) == 0 {
		t.Errorf("pull after the edit: the attention-only extern's finding went too: %v", codes(rep.Items))
	}
	c.shutdown()
}
