package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestMalformedInput: bad frames and bad requests get an error reply or are
// logged and skipped, and the server keeps serving after each.
func TestMalformedInput(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})

	// A request before initialize.
	m := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uriOf(root + "/entry.cpp")}, "position": protocol.Position{}})
	if m.Error == nil || m.Error.Code != int(codeServerNotInitialized) {
		t.Fatalf("hover before initialize: %+v", m)
	}
	c.initialize([]string{root}, map[string]any{})
	b := c.open(root + "/entry.cpp")
	c.diagnosticsFor(b.uri, 1)

	alive := func(step string) {
		t.Helper()
		var h *protocol.Hover
		m := c.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": find(t, b.text, "SyncAll", 0)})
		if m.Error != nil || json.Unmarshal(m.Result, &h) != nil || h == nil {
			t.Fatalf("after %s: server not answering hovers: %+v", step, m)
		}
	}
	nullErrors := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.nullErrs)
	}

	// A non-numeric Content-Length: the frame is dropped with a log line.
	c.writeBytes([]byte("Content-Length: twelve\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}"))
	alive("a bad Content-Length")
	// A header line without a colon.
	c.writeBytes([]byte("garbage header\r\nContent-Length: 2\r\n\r\n{}"))
	alive("a header without a colon")
	// Invalid JSON: a parse error with a null id.
	before := nullErrors()
	c.writeRaw([]byte(`{"jsonrpc":"2.0","id":7,"method":`))
	c.waitFor("parse error reply", func() bool { return len(c.nullErrs) > before })
	c.mu.Lock()
	if e := c.nullErrs[len(c.nullErrs)-1].Error; e == nil || e.Code != -32700 {
		t.Errorf("invalid JSON reply = %+v, want -32700", e)
	}
	c.mu.Unlock()
	alive("invalid JSON")
	// A Content-Length shorter than the body: the truncated JSON is a parse
	// error, the tail is skipped up to the next header.
	body := `{"jsonrpc":"2.0","id":99,"method":"shutdown"}`
	before = nullErrors()
	c.writeBytes([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body)-10, body)))
	c.waitFor("parse error for the truncated body", func() bool { return len(c.nullErrs) > before })
	alive("a short Content-Length")
	// Valid JSON that is not JSON-RPC 2.0: invalid request, with its id.
	ch := make(chan wireMsg, 1)
	c.mu.Lock()
	c.waiting["8"] = ch
	c.mu.Unlock()
	c.writeRaw([]byte(`{"jsonrpc":"1.0","id":8,"method":"textDocument/hover"}`))
	if m := c.wait(ch, "invalid request"); m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("jsonrpc 1.0 reply = %+v, want -32600", m)
	}
	if m := c.request("initialize", map[string]any{"capabilities": map[string]any{}}); m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("second initialize: %+v", m)
	}
	// Unknown methods: MethodNotFound for requests, silence for
	// notifications.
	if m := c.request("textDocument/moniker", map[string]any{}); m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("unknown method reply = %+v", m)
	}
	c.notify("$/unknownNotification", map[string]any{})
	// Bad params.
	if m := c.request("textDocument/hover", "not an object"); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("bad params reply = %+v", m)
	}
	// Positions past the end of a line and of the file clamp.
	past := protocol.Range{Start: protocol.Position{Line: 500, Character: 3}, End: protocol.Position{Line: 900, Character: 0}}
	c.edit(b, []protocol.TextEdit{{Range: past, NewText: "\n// appended\n"}})
	if !strings.HasSuffix(b.text, "// appended\n") {
		t.Fatalf("client-side clamp broken: %q", b.text[len(b.text)-40:])
	}
	eol := protocol.Range{Start: protocol.Position{Line: 0, Character: 400}, End: protocol.Position{Line: 0, Character: 999}}
	c.edit(b, []protocol.TextEdit{{Range: eol, NewText: " x"}})
	ds := c.diagnosticsFor(b.uri, b.version)
	if len(withCode(ds, "EXT004")) != 1 {
		t.Errorf("after clamped edits: %v", codes(ds))
	}
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "range": past, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	alive("edits past the end")
	c.shutdown()
}

// TestExitWithoutShutdown: exit before shutdown ends the session with an
// error (the process exits 1), as LSP asks.
func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil, map[string]any{})
	c.notify("exit", nil)
	if err := <-c.done; err == nil {
		t.Fatal("exit without shutdown reported success")
	}
}

// TestAfterShutdown: requests after shutdown are refused.
func TestAfterShutdown(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil, map[string]any{})
	c.call("shutdown", nil, nil)
	if m := c.request("textDocument/hover", map[string]any{}); m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("request after shutdown: %+v", m)
	}
	c.notify("exit", nil)
	if err := <-c.done; err != nil {
		t.Fatalf("clean exit reported %v", err)
	}
}
