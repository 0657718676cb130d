package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestDiagnosticsQuickFixRoundTrip is the editor's main loop: open a mixed
// kernel, get EXT004 at the right UTF-16 range (the line has CJK and an
// emoji before the call), apply the preferred quick fix's WorkspaceEdit,
// and see the finding go away in the next publication.
func TestDiagnosticsQuickFixRoundTrip(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(root + "/entry.cpp")
	ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT004")
	if len(ds) != 1 {
		t.Fatalf("want one EXT004 (the NOLINT one is suppressed), got %v", ds)
	}
	d := ds[0]
	// "  /* 全核同步 🚀 */ " is 26 bytes but 16 UTF-16 units.
	want := protocol.Range{Start: protocol.Position{Line: 13, Character: 16}, End: protocol.Position{Line: 13, Character: 34}}
	if d.Range != want {
		t.Errorf("range = %+v, want %+v", d.Range, want)
	}
	if d.Source != "extern-lsp" || d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("source/severity = %q/%v", d.Source, d.Severity)
	}
	if d.CodeDescription == nil || !strings.Contains(string(d.CodeDescription.Href), "#ext004-syncall-aiv-only") {
		t.Errorf("codeDescription = %+v", d.CodeDescription)
	}

	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": b.uri},
		"range":        d.Range,
		"context":      map[string]any{"diagnostics": []any{d}},
	}, &actions)
	var fix, suppress, docs *protocol.CodeAction
	for i := range actions {
		a := &actions[i]
		switch {
		case a.IsPreferred:
			fix = a
		case strings.HasPrefix(a.Title, "Suppress EXT004"):
			suppress = a
		case strings.HasPrefix(a.Title, "Show documentation for EXT004"):
			docs = a
		}
	}
	if fix == nil || fix.Kind != protocol.QuickFix || fix.Edit == nil || len(fix.Diagnostics) != 1 {
		t.Fatalf("no preferred quick fix in %+v", actions)
	}
	if suppress == nil || docs == nil || docs.Command == nil || docs.Command.Command != cmdShowDocumentation {
		t.Fatalf("missing suppress or documentation action in %+v", actions)
	}
	edits := suppress.Edit.Changes[protocol.DocumentURI(b.uri)]
	if len(edits) != 1 || edits[0].NewText != " // NOLINT(EXT004)" {
		t.Errorf("suppress edit = %+v", edits)
	}

	c.edit(b, fix.Edit.Changes[protocol.DocumentURI(b.uri)])
	if !strings.Contains(b.text, "/* 全核同步 🚀 */ AscendC::SyncAll<false>();") {
		t.Fatalf("fix applied wrongly:\n%s", b.text)
	}
	if ds := withCode(c.diagnosticsFor(b.uri, b.version), "EXT004"); len(ds) != 0 {
		t.Fatalf("EXT004 still reported after the fix: %+v", ds)
	}

	// The documentation command opens the rule page through the client.
	c.call("workspace/executeCommand", map[string]any{"command": cmdShowDocumentation, "arguments": []any{"EXT004"}}, nil)
	c.shutdown()
}

// TestSuppressAndFixAll applies the suppression action and the
// source.fixAll action.
func TestSuppressAndFixAll(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	src := "#include \"kernel_operator.h\"\n" +
		"__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
		"__aicore__ inline void vec() { AscendC::PipeBarrier<PIPE_V>(); }\n" +
		"extern \"C\" __global__ __aicore__ void fixall_entry(__gm__ int64_t *args) {\n" +
		"  AscendC::SyncAll(); // keep\n" +
		"  AscendC::SyncAll<true>();\n" +
		"  AscendC::SyncAll(); // NOLINT(EXT007)\n" +
		"}\n"
	b := c.openText(root+"/fixall.cpp", src)
	ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT004")
	if len(ds) != 3 {
		t.Fatalf("want 3 EXT004, got %v", codes(ds))
	}
	// Suppress the third: the code joins the existing NOLINT list.
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": b.uri}, "range": ds[2].Range,
		"context": map[string]any{"diagnostics": []any{ds[2]}, "only": []string{"quickfix"}},
	}, &actions)
	var applied bool
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Suppress EXT004") {
			c.edit(b, a.Edit.Changes[protocol.DocumentURI(b.uri)])
			applied = true
		}
		if a.Kind != protocol.QuickFix {
			t.Errorf("only quickfix was asked for, got %q", a.Kind)
		}
	}
	if !applied || !strings.Contains(b.text, "// NOLINT(EXT007, EXT004)") {
		t.Fatalf("suppression not applied:\n%s", b.text)
	}
	if ds := withCode(c.diagnosticsFor(b.uri, b.version), "EXT004"); len(ds) != 2 {
		t.Fatalf("want 2 EXT004 after suppressing one, got %v", ds)
	}
	// Fix all: both remaining findings go in one action.
	c.fixAll(b)
	if strings.Count(b.text, "SyncAll<false>()") != 2 {
		t.Fatalf("fix-all result:\n%s", b.text)
	}
	if ds := withCode(c.diagnosticsFor(b.uri, b.version), "EXT004"); len(ds) != 0 {
		t.Fatalf("EXT004 left after fix-all: %v", ds)
	}
	c.shutdown()
}

func TestHoverAPIAndSuppression(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(root + "/entry.cpp")
	hover := func(pos protocol.Position) string {
		t.Helper()
		var h *protocol.Hover
		c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if got := hover(find(t, b.text, "SyncAll<false>", 0)); !strings.Contains(got, "isAIVOnly") || !strings.Contains(got, "11–14") {
		t.Errorf("SyncAll hover = %q", got)
	}
	pos := find(t, b.text, "EXT004)", 0)
	pos.Character += 2
	if got := hover(pos); !strings.Contains(got, "### EXT004 syncall-aiv-only") || !strings.Contains(got, "Use instead") {
		t.Errorf("NOLINT hover = %q", got)
	}
	if got := hover(find(t, b.text, "cube_phase", 0)); got != "" {
		t.Errorf("hover on a user function = %q, want none", got)
	}
	g := c.openText(root+"/guards.cpp", "#ifdef __DAV_C220_VEC__\nvoid f() {\n  if ASCEND_IS_AIV {\n    x = get_block_idx(args);\n  }\n}\n#endif\n#include \"TPipe.h\"\n")
	for word, want := range map[string]string{"__DAV_C220_VEC__": "vector", "ASCEND_IS_AIV": "g_coreType == AscendC::AIV", "get_block_idx": "persistent launch grid"} {
		var h *protocol.Hover
		c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": g.uri}, "position": find(t, g.text, word, 0)}, &h)
		if h == nil || !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover on %s = %+v", word, h)
		}
	}
	var inc *protocol.Hover
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": g.uri}, "position": find(t, g.text, "TPipe.h", 0)}, &inc)
	if inc == nil || !strings.Contains(inc.Contents.Value, "not resolved") || strings.Contains(inc.Contents.Value, "AscendC") {
		t.Errorf("hover inside an #include string is the include's, not TPipe's: %+v", inc)
	}
	// Past the end of the file: no hover, no error.
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": protocol.Position{Line: 999, Character: 999}}, nil)
	c.shutdown()
}

// TestConfiguration: settings from workspace/configuration and pushed by
// didChangeConfiguration change what is reported.
func TestConfiguration(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.config = map[string]any{"severity": map[string]string{"EXT004": "warning"}}
	c.initialize([]string{root}, map[string]any{"workspace": map[string]any{"configuration": true}})
	c.waitFor("configuration request", func() bool { return c.serverCalls["workspace/configuration"] > 0 })
	b := c.open(root + "/entry.cpp")
	c.waitFor("EXT004 as a warning", func() bool {
		ps := c.published[b.uri]
		if len(ps) == 0 {
			return false
		}
		ds := withCode(ps[len(ps)-1].Diagnostics, "EXT004")
		return len(ds) == 1 && ds[0].Severity == protocol.DiagnosticSeverityWarning
	})
	n := len(c.published[b.uri])
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"ignore": []string{"EXT004"}}}})
	c.waitFor("republication without EXT004", func() bool {
		ps := c.published[b.uri]
		return len(ps) > n && len(withCode(ps[len(ps)-1].Diagnostics, "EXT004")) == 0
	})
	c.shutdown()
}

func TestPullDiagnostics(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
		"workspace":    map[string]any{"diagnostics": map[string]any{"refreshSupport": true}},
	})
	b := c.open(root + "/entry.cpp")
	var rep struct {
		Kind     string                `json:"kind"`
		ResultID string                `json:"resultId"`
		Items    []protocol.Diagnostic `json:"items"`
	}
	c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, &rep)
	if rep.Kind != "full" || len(withCode(rep.Items, "EXT004")) != 1 || rep.ResultID == "" {
		t.Fatalf("pull report = %+v", rep)
	}
	first := rep.ResultID
	c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "previousResultId": first}, &rep)
	if rep.Kind != "unchanged" || rep.ResultID != first {
		t.Fatalf("second pull = %+v, want unchanged", rep)
	}
	var ws struct {
		Items []struct {
			Kind  string                `json:"kind"`
			URI   string                `json:"uri"`
			Items []protocol.Diagnostic `json:"items"`
		} `json:"items"`
	}
	c.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	found := false
	for _, it := range ws.Items {
		if it.URI == b.uri && it.Kind == "full" && len(withCode(it.Items, "EXT004")) == 1 {
			found = true
		}
	}
	if !found {
		t.Fatalf("workspace/diagnostic lacks the entry's report: %+v", ws)
	}
	// A pulling client gets no pushed diagnostics.
	c.mu.Lock()
	pushed := len(c.published[b.uri])
	c.mu.Unlock()
	if pushed != 0 {
		t.Errorf("pushed %d publications to a pulling client", pushed)
	}
	// A settings change asks the client to pull again.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"ignore": []string{"EXT004"}}}})
	c.waitFor("diagnostic refresh", func() bool { return c.serverCalls["workspace/diagnostic/refresh"] > 0 })
	c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "previousResultId": first}, &rep)
	if rep.Kind != "full" || len(withCode(rep.Items, "EXT004")) != 0 {
		t.Fatalf("pull after ignoring EXT004 = %+v", rep)
	}
	c.shutdown()
}

// TestCancelNumericAndStringIDs cancels a long-polling workspace/diagnostic
// (every result unchanged, so it waits for a change) by numeric and by
// string id; each gets RequestCancelled and the server keeps serving.
func TestCancelNumericAndStringIDs(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}})
	b := c.open(root + "/entry.cpp")
	var ws struct {
		Items []struct {
			URI      string `json:"uri"`
			ResultID string `json:"resultId"`
		} `json:"items"`
	}
	c.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	var prev []any
	for _, it := range ws.Items {
		prev = append(prev, map[string]any{"uri": it.URI, "value": it.ResultID})
	}
	for _, id := range []string{`4242`, `"poll-1"`} {
		ch := c.send(json.RawMessage(id), "workspace/diagnostic", map[string]any{"previousResultIds": prev})
		c.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
		m := c.wait(ch, "cancelled workspace/diagnostic "+id)
		if m.Error == nil || m.Error.Code != int(codeRequestCancelled) {
			t.Fatalf("id %s: want RequestCancelled, got %+v", id, m)
		}
	}
	var h *protocol.Hover
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": find(t, b.text, "SyncAll", 0)}, &h)
	if h == nil {
		t.Fatal("no hover after cancellations")
	}
	c.shutdown()
}

// "Suppress on this line" on a line that already has `# noqa: EXT9*` adds
// the code after the glob (not into it), and the finding goes away.
func TestSuppressNoqaGlob(t *testing.T) {
	root := t.TempDir()
	analysistest.CopyTree(t, filepath.Join("..", "analysis", "rules", "testdata", "ext104"), root)
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	src, err := os.ReadFile(filepath.Join(root, "model.py"))
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(with pl\.spmd\(24\) as tid:)  # want[^\n]*`).ReplaceAllString(string(src), "$1  # noqa: EXT9*")
	b := c.openText(filepath.Join(root, "model.py"), text)
	line := uint32(strings.Count(text[:strings.Index(text, "# noqa: EXT9*")], "\n"))
	var target *protocol.Diagnostic
	for _, d := range withCode(c.diagnosticsFor(b.uri, 1), "EXT104") {
		if d.Range.Start.Line == line {
			target = &d
		}
	}
	if target == nil {
		t.Fatalf("no EXT104 on line %d:\n%s", line+1, text)
	}
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": b.uri}, "range": target.Range,
		"context": map[string]any{"diagnostics": []any{target}, "only": []string{"quickfix"}},
	}, &actions)
	for _, a := range actions {
		if a.Title == "Suppress EXT104 on this line" {
			c.edit(b, a.Edit.Changes[protocol.DocumentURI(b.uri)])
		}
	}
	if !strings.Contains(b.text, "as tid:  # noqa: EXT9*, EXT104\n") {
		t.Fatalf("suppression not written after the glob:\n%s", b.text)
	}
	for _, d := range withCode(c.diagnosticsFor(b.uri, b.version), "EXT104") {
		if d.Range.Start.Line == line {
			t.Errorf("EXT104 still reported on the suppressed line: %v", d)
		}
	}
	c.shutdown()
}

// TestSameSettingsKeepFirstDiagnostics: settings that arrive after a
// document's first diagnostics and change nothing do not analyse it again
// (the open's analysis is not cancelled and redone).
func TestSameSettingsKeepFirstDiagnostics(t *testing.T) {
	root := fixture(t, "mixed")
	var mu sync.Mutex
	runs := 0
	started := make(chan struct{})
	c := startServerWith(t, Options{}, func(s *Server) {
		s.hooks.analysis = func(_ context.Context, path string, _ []byte) {
			if filepath.Base(path) == "entry.cpp" {
				mu.Lock()
				runs++
				mu.Unlock()
			}
		}
		s.hooks.started = func() { close(started) }
	})
	// The settings are held back until the document is published.
	answer := c.holdConfiguration()
	c.initialize([]string{root}, map[string]any{"workspace": map[string]any{"configuration": true}})
	b := c.open(root + "/entry.cpp")
	first := c.diagnosticsFor(b.uri, 1)
	answer()
	select {
	case <-started:
	case <-hangGuard(t):
		t.Fatal("the startup never ended")
	}
	// A code action reads the document's findings: from the first run.
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": b.uri},
		"range": protocol.Range{}, "context": map[string]any{"diagnostics": []any{}}}, nil)
	mu.Lock()
	n := runs
	mu.Unlock()
	if n != 1 {
		t.Errorf("entry.cpp analysed %d times, want 1 (the same settings re-ran it)", n)
	}
	if len(first) == 0 {
		t.Error("no findings on the mixed fixture's entry")
	}
	c.shutdown()
}
