package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/coverage"
)

// notesOf returns the params of the notifications of one method so far
// (called with c.mu held, as in waitFor, or through notesOfLocked).
func (c *testClient) notesOf(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range c.notes {
		if m.Method == method {
			out = append(out, m.Params)
		}
	}
	return out
}

func (c *testClient) notesOfLocked(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.notesOf(method)
}

// TestStatusSaysStubAbove: a workspace folder below its stubs (the kernels
// folder opened alone) is reported as a gap naming the folder to open: as
// the externLsp/status notification and request, and as a warning message
// for a client that does not show the status itself.
func TestStatusSaysStubAbove(t *testing.T) {
	dir := t.TempDir()
	analysistest.CopyTree(t, "../examples/traps", dir)
	kernels := filepath.Join(dir, "kernels")
	for _, shows := range []bool{false, true} {
		c := startServer(t, Options{})
		caps := map[string]any{}
		if shows {
			caps["experimental"] = map[string]any{"externLspStatus": true}
		}
		c.initialize([]string{kernels}, caps)
		c.waitFor("externLsp/status", func() bool { return len(c.notesOf("externLsp/status")) > 0 })
		var st statusResult
		if err := json.Unmarshal(c.notesOfLocked("externLsp/status")[0], &st); err != nil {
			t.Fatal(err)
		}
		if st.OK || len(st.Gaps) != 1 || st.Gaps[0].Kind != coverage.StubAbove || st.Gaps[0].Root != dir ||
			!strings.Contains(st.Gaps[0].Message, "hovers and inlay hints") || !strings.Contains(st.Gaps[0].Fix, "open "+dir) {
			t.Fatalf("status = %+v, want one stub-above-root gap naming %s", st, dir)
		}
		var again statusResult
		c.call("externLsp/status", nil, &again)
		if len(again.Gaps) != 1 || again.Gaps[0].Root != dir {
			t.Errorf("externLsp/status request = %+v", again)
		}
		var warned bool
		for _, m := range c.notesOfLocked("window/showMessage") {
			warned = warned || strings.Contains(string(m), "is below the stubs")
		}
		if warned == shows {
			t.Errorf("client shows the status itself: %v; warning message sent: %v", shows, warned)
		}
		c.shutdown()
	}
	// The project folder itself: nothing is missing.
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	c.waitFor("externLsp/status", func() bool { return len(c.notesOf("externLsp/status")) > 0 })
	var st statusResult
	json.Unmarshal(c.notesOfLocked("externLsp/status")[0], &st)
	if !st.OK || len(st.Gaps) != 0 {
		t.Errorf("status of the whole project = %+v", st)
	}
	c.shutdown()
}
