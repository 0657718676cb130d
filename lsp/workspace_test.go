package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const watchEntry = `#include "kernel_operator.h"
#include "vec_part.h"
__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }
extern "C" __global__ __aicore__ void watch_entry(__gm__ int64_t *args) {
  cube();
  vec();
  AscendC::SyncAll();
}
`

// TestProgressTraceAndWatchedFiles: indexing reports $/progress, $/setTrace
// turns on $/logTrace, and a header changed on disk (not open) changes the
// open entry's findings after didChangeWatchedFiles.
func TestProgressTraceAndWatchedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"entry.cpp":  watchEntry,
		"vec_part.h": "__aicore__ inline void vec() { AscendC::PipeBarrier<PIPE_V>(); }\n",
	})
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{
		"window":    map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}},
	})
	c.waitFor("indexing progress begin and end", func() bool {
		kinds := map[string]bool{}
		for _, n := range c.notes {
			if n.Method == "$/progress" {
				for _, k := range []string{"begin", "report", "end"} {
					if strings.Contains(string(n.Params), `"kind":"`+k+`"`) {
						kinds[k] = true
					}
				}
			}
		}
		return c.serverCalls["window/workDoneProgress/create"] == 1 && kinds["begin"] && kinds["end"]
	})
	c.waitFor("file watcher registration", func() bool { return c.serverCalls["client/registerCapability"] == 1 })

	c.notify("$/setTrace", map[string]any{"value": "messages"})
	b := c.open(filepath.Join(dir, "entry.cpp"))
	if ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT004"); len(ds) != 1 {
		t.Fatalf("mixed through the header: want EXT004, got %v", ds)
	}
	c.waitFor("$/logTrace", func() bool {
		for _, n := range c.notes {
			if n.Method == "$/logTrace" && strings.Contains(string(n.Params), "textDocument/didOpen") {
				return true
			}
		}
		return false
	})

	// The vector half moves out: the extern is cube-only, SyncAll() is fine.
	c.mu.Lock()
	n := len(c.published[b.uri])
	c.mu.Unlock()
	writeFiles(t, dir, map[string]string{"vec_part.h": "__aicore__ inline void vec() {}\n"})
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": uriOf(filepath.Join(dir, "vec_part.h")), "type": 2},
	}})
	c.waitFor("republication without EXT004", func() bool {
		ps := c.published[b.uri]
		return len(ps) > n && len(withCode(ps[len(ps)-1].Diagnostics, "EXT004")) == 0
	})
	c.shutdown()
}

// TestWorkspaceFolders: a header is analysed as part of an extern only once
// the folder holding its entry is a workspace folder.
func TestWorkspaceFolders(t *testing.T) {
	other := t.TempDir()
	writeFiles(t, other, map[string]string{
		"entry.cpp": "#include \"body.h\"\n__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
			"extern \"C\" __global__ __aicore__ void folder_entry(__gm__ int64_t *args) { cube(); body(); }\n",
		"body.h": "__aicore__ inline void body() {\n  AscendC::PipeBarrier<PIPE_V>();\n  AscendC::SyncAll();\n}\n",
	})
	c := startServer(t, Options{})
	c.initialize([]string{fixture(t, "mixed")}, map[string]any{})
	b := c.open(filepath.Join(other, "body.h"))
	if ds := c.diagnosticsFor(b.uri, 1); len(ds) != 0 {
		t.Fatalf("a header no known entry includes is not an extern source: %v", codes(ds))
	}
	c.mu.Lock()
	n := len(c.published[b.uri])
	c.mu.Unlock()
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": uriOf(other), "name": "other"}}, "removed": []any{},
	}})
	c.waitFor("EXT004 in the header once its entry's folder is added", func() bool {
		ps := c.published[b.uri]
		return len(ps) > n && len(withCode(ps[len(ps)-1].Diagnostics, "EXT004")) == 1
	})
	c.shutdown()
}
