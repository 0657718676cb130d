package lsp

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
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

// The push debounce stays at its floor while a document's analysis takes
// no longer than the floor, and grows (twice the analysis, to the cap)
// only past it.
func TestDebounceStaysAtFloor(t *testing.T) {
	lo, hi := 50*time.Millisecond, 300*time.Millisecond
	for _, c := range []struct{ cost, want time.Duration }{
		{0, lo},
		{15 * time.Millisecond, lo},
		{lo, lo},
		{60 * time.Millisecond, 120 * time.Millisecond},
		{time.Second, hi},
	} {
		if got := debounceFor(c.cost, lo, hi); got != c.want {
			t.Errorf("analysis of %v: debounce %v, want %v", c.cost, got, c.want)
		}
	}
}

// TestDebounceReturnsToFloor: through a real session, an edit whose
// analysis costs 400 ms (an injected cost) grows the push debounce to its
// cap, and the next edit's cheap analysis brings it back to the floor.
func TestDebounceReturnsToFloor(t *testing.T) {
	root := fixture(t, "mixed")
	lo, hi := 50*time.Millisecond, 300*time.Millisecond
	var cost atomic.Int64
	c := startServerWith(t, Options{MinDebounce: lo, MaxDebounce: hi}, func(s *Server) {
		s.hooks.cost = func(string, time.Duration) time.Duration { return time.Duration(cost.Load()) }
	})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(root + "/entry.cpp")
	c.diagnosticsFor(b.uri, 1)
	at := find(t, b.text, "SyncAll", 0)
	for _, step := range []struct{ cost, want time.Duration }{
		{400 * time.Millisecond, hi},
		{time.Millisecond, lo},
		{80 * time.Millisecond, 160 * time.Millisecond},
		{lo, lo},
	} {
		cost.Store(int64(step.cost))
		c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: " "}})
		c.diagnosticsFor(b.uri, b.version)
		if got := c.srv.delayFor(c.srv.doc(b.uri)); got != step.want {
			t.Errorf("after an analysis of %v: debounce %v, want %v", step.cost, got, step.want)
		}
	}
	c.shutdown()
}

// TestEditFloodCoalesces: a flood of edits while a document's analysis
// runs queues at most one more publication of it, not one goroutine per
// edit; once the analysis is let go, the last version's findings are
// published.
func TestEditFloodCoalesces(t *testing.T) {
	root := fixture(t, "mixed")
	held, release := make(chan struct{}, 1), make(chan struct{})
	var hold atomic.Bool
	c := startServerWith(t, Options{}, func(s *Server) {
		s.hooks.analysis = func(ctx context.Context, path string, _ []byte) {
			if hold.Load() && filepath.Base(path) == "entry.cpp" {
				held <- struct{}{}
				<-release
			}
		}
	})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(root + "/entry.cpp")
	c.diagnosticsFor(b.uri, 1)
	hold.Store(true) // read by the analysis started after the next edit
	at := find(t, b.text, "SyncAll", 0)
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: " "}})
	<-held
	hold.Store(false)
	for range 300 {
		c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: " "}})
	}
	// The edits are read once a request sent after them is answered.
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, nil)
	if n := publishing(); n > 2 {
		t.Errorf("%d publications of one document running or queued, want at most 2", n)
	}
	close(release)
	c.diagnosticsFor(b.uri, b.version)
	c.shutdown()
}

// publishing counts the goroutines in Server.publish.
func publishing() int {
	buf := make([]byte, 1<<22)
	return strings.Count(string(buf[:runtime.Stack(buf, true)]), "lsp.(*Server).publish(")
}
