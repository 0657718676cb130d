package lsp

import (
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestDebounceSettings: with the server's own debounce an hour long, an
// opened file's first diagnostics still arrive (nothing is being typed
// yet), and an edit's arrive once initializationOptions or
// didChangeConfiguration set the debounce to 0.
func TestDebounceSettings(t *testing.T) {
	root := fixture(t, "mixed")
	for _, via := range []string{"initializationOptions", "didChangeConfiguration"} {
		t.Run(via, func(t *testing.T) {
			c := startServer(t, Options{MinDebounce: time.Hour, MaxDebounce: time.Hour})
			params := map[string]any{"processId": nil, "capabilities": map[string]any{}, "rootUri": uriOf(root)}
			if via == "initializationOptions" {
				params["initializationOptions"] = map[string]any{"debounce": 0}
			}
			c.call("initialize", params, nil)
			c.notify("initialized", map[string]any{})
			b := c.open(root + "/entry.cpp")
			if len(withCode(c.diagnosticsFor(b.uri, 1), "EXT004")) != 1 {
				t.Fatalf("first diagnostics lack EXT004")
			}
			if via == "didChangeConfiguration" {
				c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"debounce": 0}}})
			}
			at := find(t, b.text, "SyncAll", 0)
			line := protocol.Range{Start: protocol.Position{Line: at.Line}, End: protocol.Position{Line: at.Line + 1}}
			c.edit(b, []protocol.TextEdit{{Range: line}})
			if ds := withCode(c.diagnosticsFor(b.uri, b.version), "EXT004"); len(ds) != 0 {
				t.Fatalf("EXT004 after its line was deleted: %v", ds)
			}
			c.shutdown()
		})
	}
}
