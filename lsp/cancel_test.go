package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// bigKernel is an extern of about size bytes whose one function
// alternates GM stores, early returns and hardware barriers: the shape
// whose analysis grows with the square of the function (every return
// looks for the barriers after it).
func bigKernel(size int) string {
	var b strings.Builder
	b.WriteString("#include \"kernel_operator.h\"\n")
	b.WriteString("extern \"C\" __global__ __aicore__ void big_kernel(__gm__ int64_t *args) {\n")
	b.WriteString("  __gm__ int32_t *out = reinterpret_cast<__gm__ int32_t *>(args[0]);\n")
	b.WriteString("  int32_t n = static_cast<int32_t>(args[1]);\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "  out[%d] = n + %d;\n  if (n == %d) { return; }\n  AscendC::SyncAll();\n", i, i, i)
	}
	b.WriteString("}\n")
	return b.String()
}

const smallKernel = `#include "kernel_operator.h"
extern "C" __global__ __aicore__ void small_kernel(__gm__ int64_t *args) {
  AscendC::TPipe pipe;
  __gm__ int32_t *flags = reinterpret_cast<__gm__ int32_t *>(args[0]);
  int32_t v = flags[1];
  (void)v;
}
`

// TestLongAnalysisDoesNotBlockOtherFiles: while a file is analysed,
// requests and diagnostics on an unrelated small file are answered; a
// cancelled pull request on it answers RequestCancelled, and a newer
// version of it cancels its running analysis. The big file's analysis is
// held (after its parse) until its context ends, so it outlasts the small
// file's requests on any machine. The file itself is small: nothing but
// the hook orders the run (a 2 MB file's parse, a second of CPU, outlasted
// the client's fixed 20 s waits at load 40-50).
func TestLongAnalysisDoesNotBlockOtherFiles(t *testing.T) {
	dir := t.TempDir()
	bigPath, smallPath := filepath.Join(dir, "big.cpp"), filepath.Join(dir, "small", "small.cpp")
	big := bigKernel(4 << 10)
	os.MkdirAll(filepath.Dir(smallPath), 0o755)
	os.WriteFile(bigPath, []byte(big), 0o644)
	os.WriteFile(smallPath, []byte(smallKernel), 0o644)
	var pulls atomic.Int32
	bigPull := make(chan struct{})
	// No budget: only cancellation can end the big file's analysis early.
	c := startServerWith(t, Options{Budget: time.Hour}, func(s *Server) {
		s.hooks.analysis = func(ctx context.Context, path string, src []byte) {
			// Every run of the first version is held until cancelled
			// (the background push, the pull, a run preempted and
			// started again): by its text, not by the time the test
			// releases it, so none can finish before the edits arrive.
			if filepath.Base(path) == "big.cpp" && !bytes.Contains(src, []byte("// edited")) && !bytes.Contains(src, []byte("TPipe")) {
				<-ctx.Done()
			}
		}
		s.hooks.request = func(method string) {
			if method == "textDocument/diagnostic" && pulls.Add(1) == 2 {
				close(bigPull)
			}
		}
	})
	c.initialize([]string{dir}, map[string]any{})
	bb := c.openText(bigPath, big)
	small := c.open(smallPath)

	bigPublished := func() bool {
		for _, p := range c.published[bb.uri] {
			if p.Version != nil && *p.Version == 1 {
				return true
			}
		}
		return false
	}
	ds := c.diagnosticsFor(small.uri, 1)
	if len(withCode(ds, "EXT001")) == 0 {
		t.Fatalf("small file: want EXT001, got %v", codes(ds))
	}
	doc := map[string]any{"uri": small.uri}
	var h json.RawMessage
	c.call("textDocument/hover", map[string]any{"textDocument": doc, "position": find(t, small.text, "args[0]", 0)}, &h)
	var actions []json.RawMessage
	c.call("textDocument/codeAction", map[string]any{"textDocument": doc,
		"range":   protocol.Range{Start: find(t, small.text, "flags[1]", 0), End: find(t, small.text, "flags[1]", 0)},
		"context": map[string]any{"diagnostics": []any{}}}, &actions)
	var pulled struct {
		Items []json.RawMessage `json:"items"`
	}
	c.call("textDocument/diagnostic", map[string]any{"textDocument": doc}, &pulled)
	if len(pulled.Items) == 0 {
		t.Fatal("pull diagnostics of the small file: no items")
	}

	// A pull request on the big file, cancelled once it runs: answered as
	// cancelled.
	id := json.RawMessage(`"pull-big"`)
	ch := c.send(id, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": bb.uri}})
	<-bigPull
	c.notify("$/cancelRequest", map[string]any{"id": id})
	m := c.wait(ch, "the cancelled pull request")
	if m.Error == nil || m.Error.Code != int(codeRequestCancelled) {
		t.Fatalf("cancelled request: want error %d, got %+v", codeRequestCancelled, m)
	}

	// Newer versions cancel the running analysis: the last one, small
	// again, is published (the old run is held until cancelled).
	c.edit(bb, []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 4}}, NewText: "  // edited\n"}})
	c.edit(bb, []protocol.TextEdit{{Range: protocol.Range{End: posOf(grammar.NewLines([]byte(bb.text)), uint32(len(bb.text)))}, NewText: strings.Replace(smallKernel, "small_kernel", "big_kernel", 1)}})
	ds = c.diagnosticsFor(bb.uri, bb.version)
	if len(withCode(ds, "EXT001")) == 0 {
		t.Fatalf("big file, last version: want EXT001, got %v", codes(ds))
	}
	c.mu.Lock()
	done := bigPublished()
	c.mu.Unlock()
	if done {
		t.Error("the first version's findings were published after newer versions")
	}
	c.shutdown()
}
