package lsp

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// TestServerHoldsOpenUnitsOnly: after a workspace diagnostic, a workspace
// symbol search (each parses every extern of the workspace) and the close
// of the document, the server holds the parses and facts of the open
// documents' units and no others, and what it answers from its caches
// equals a fresh server's answer.
func TestServerHoldsOpenUnitsOnly(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, k := range []string{"a", "b", "c"} {
		files[k+"/entry.cpp"] = fmt.Sprintf(`#include "kernel_operator.h"
#include "%[1]s_body.h"
extern "C" __global__ __aicore__ void %[1]s_entry(__gm__ int64_t *args) {
  %[1]s_body(args);
}
`, k)
		files[k+"/"+k+"_body.h"] = fmt.Sprintf(`__aicore__ inline void %s_body(__gm__ int64_t *args) {
  int64_t n = args[1];
  AscendC::GlobalTensor<float> g;
  for (int64_t i = 0; i < n; ++i) { g.SetValue(i, 0.0f); }
  AscendC::SyncAll();
}
`, k)
	}
	writeFiles(t, dir, files)
	trimmed := make(chan string, 64)
	c := startServerWith(t, Options{ParseBudget: -1}, func(s *Server) {
		s.hooks.trimmed = func(method string) { trimmed <- method }
	})
	c.initialize([]string{dir}, map[string]any{})
	body := filepath.Join(dir, "a", "a_body.h")
	b := c.open(body)
	c.diagnosticsFor(b.uri, 1)
	unit := []string{filepath.Join(dir, "a", "a_body.h"), filepath.Join(dir, "a", "entry.cpp")}
	// holds checks once the request method's goroutine has trimmed the
	// parses after its reply.
	holds := func(after, method string, want []string, facts bool) {
		t.Helper()
		for m := <-trimmed; m != method; m = <-trimmed {
		}
		if got := c.srv.current().ws.Parsed(); !slices.Equal(got, want) {
			t.Fatalf("after %s the server holds the parses of %v, want %v", after, got, want)
		}
		n := c.srv.store.Len()
		if c.srv.store.Sweep(c.srv.current().ws); facts && c.srv.store.Len() != n {
			t.Fatalf("after %s the store holds %d facts of released parses", after, n-c.srv.store.Len())
		}
	}

	first := workspaceItems(c)
	holds("a workspace diagnostic", "workspace/diagnostic", unit, true)
	c2 := startServer(t, Options{})
	c2.initialize([]string{dir}, map[string]any{})
	c2.openText(body, b.text)
	if want := workspaceItems(c2); first != want {
		t.Fatalf("workspace diagnostic:\n%s\nfresh server:\n%s", first, want)
	}
	c2.shutdown()
	// From the findings cache: the closed files are not parsed again.
	if again := workspaceItems(c); again != first {
		t.Fatalf("second workspace diagnostic:\n%s\nfirst:\n%s", again, first)
	}
	holds("a second workspace diagnostic", "workspace/diagnostic", unit, true)

	var syms []symbolInformation
	c.call("workspace/symbol", map[string]any{"query": "entry"}, &syms)
	if len(syms) != 3 {
		t.Fatalf("workspace/symbol found %d entries, want 3: %+v", len(syms), syms)
	}
	holds("a workspace symbol search", "workspace/symbol", unit, true)

	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": b.uri}})
	// The close is handled (and trimmed) before the request after it.
	// Not the facts: a run of the buffer under way at the close may store
	// some after the close's sweep (the next sweep takes them).
	c.call("externLsp/status", nil, nil)
	holds("closing the document", "externLsp/status", nil, false)
	c.shutdown()
}
