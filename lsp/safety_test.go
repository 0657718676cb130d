package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// A client that lowers the version (a reload, a buggy client) still gets
// the diagnostics of the text it sent.
func TestDidChangeLowerVersionStillPublishes(t *testing.T) {
	root := fixture(t, "mixed")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	src := "#include \"kernel_operator.h\"\n" +
		"__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
		"__aicore__ inline void vec() { AscendC::PipeBarrier<PIPE_V>(); }\n" +
		"extern \"C\" __global__ __aicore__ void lower_entry(__gm__ int64_t *args) {\n" +
		"  AscendC::SyncAll();\n" +
		"}\n"
	b := c.openText(root+"/lower.cpp", src)
	b.version = 5
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": b.uri, "version": 5},
		"contentChanges": []any{map[string]any{"text": src}},
	})
	if ds := withCode(c.diagnosticsFor(b.uri, 5), "EXT004"); len(ds) != 1 {
		t.Fatalf("v5: want one EXT004, got %v", codes(ds))
	}
	two := strings.Replace(src, "  AscendC::SyncAll();\n", "  AscendC::SyncAll();\n  AscendC::SyncAll();\n", 1)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": b.uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": two}},
	})
	if ds := withCode(c.diagnosticsFor(b.uri, 2), "EXT004"); len(ds) != 2 {
		t.Fatalf("v2 after v5: want two EXT004, got %v", codes(ds))
	}
	c.shutdown()
}

// A fix that would edit a header reached through a symlink out of the
// workspace folder is not offered; the same header inside the folder is.
func TestCodeActionsStayInsideTheWorkspace(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "analysis", "rules", "testdata", "ext005", "syncall"))
	for _, linked := range []bool{false, true} {
		root := t.TempDir()
		analysistest.CopyTree(t, src, root)
		header := filepath.Join(root, "flags.h")
		if linked {
			outside := filepath.Join(t.TempDir(), "flags.h")
			data, _ := os.ReadFile(header)
			os.WriteFile(outside, data, 0o644)
			os.Remove(header)
			if err := os.Symlink(outside, header); err != nil {
				t.Fatal(err)
			}
		}
		c := startServer(t, Options{})
		c.initialize([]string{root}, map[string]any{})
		b := c.open(filepath.Join(root, "entry.cpp"))
		var target *protocol.Diagnostic
		ds := c.diagnosticsFor(b.uri, 1)
		for i, d := range ds {
			if strings.Contains(d.Message, "HDR_FLAG") {
				target = &ds[i]
			}
		}
		if target == nil {
			t.Fatalf("no HDR_FLAG finding in %v", ds)
		}
		var actions []protocol.CodeAction
		c.call("textDocument/codeAction", map[string]any{
			"textDocument": map[string]any{"uri": b.uri}, "range": target.Range,
			"context": map[string]any{"diagnostics": []any{*target}},
		}, &actions)
		editsHeader := false
		for _, a := range actions {
			if a.Edit != nil {
				for uri := range a.Edit.Changes {
					editsHeader = editsHeader || strings.HasSuffix(string(uri), "/flags.h")
				}
			}
		}
		if editsHeader == linked {
			t.Errorf("header linked out of the workspace: %v; an action edits it: %v", linked, editsHeader)
		}
		c.shutdown()
	}
}

// An entry that includes a FIFO and a device still gets its diagnostics;
// the server says which files it skipped.
func TestIrregularIncludesDoNotHang(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.h"), 0o644); err != nil {
		t.Skip(err)
	}
	os.Symlink("/dev/zero", filepath.Join(root, "zero.h"))
	src := "#include \"kernel_operator.h\"\n#include \"pipe.h\"\n#include \"zero.h\"\n" +
		"__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
		"__aicore__ inline void vec() { AscendC::PipeBarrier<PIPE_V>(); }\n" +
		"extern \"C\" __global__ __aicore__ void fifo_entry(__gm__ int64_t *args) {\n  AscendC::SyncAll();\n}\n"
	os.WriteFile(filepath.Join(root, "entry.cpp"), []byte(src), 0o644)
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(filepath.Join(root, "entry.cpp"))
	if ds := withCode(c.diagnosticsFor(b.uri, 1), "EXT004"); len(ds) != 1 {
		t.Errorf("want the EXT004 finding, got %v", codes(ds))
	}
	c.waitFor("a message naming the skipped FIFO and device", func() bool {
		fifo, dev := false, false
		for _, m := range c.notes {
			if m.Method == "window/logMessage" || m.Method == "window/showMessage" {
				fifo = fifo || strings.Contains(string(m.Params), "pipe.h: not a regular file (a FIFO)")
				dev = dev || strings.Contains(string(m.Params), "zero.h: not a regular file (a character device)")
			}
		}
		return fifo && dev
	})
	c.shutdown()
}
