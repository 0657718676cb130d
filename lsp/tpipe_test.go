package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// A helper's TPipe is judged by the calls the header's includers make now:
// the header's shared TPipe model outlives an edit of the entry (the
// header's closure is unchanged), so what calls the helper is not cached
// in it. Moving the call out of the vector guard brings EXT002.
func TestTPipeHelperFollowsTheEntry(t *testing.T) {
	root := t.TempDir()
	header := "#pragma once\n#include \"kernel_operator.h\"\n" +
		"__aicore__ inline void make_pipe() {\n  AscendC::TPipe pipe;\n  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;\n  pipe.InitBuffer(buf, 1024);\n}\n"
	guarded := "#include \"kernel_operator.h\"\n#include \"helper.h\"\n" +
		"__aicore__ inline void cube() { AscendC::Mmad(c, a, b, p); }\n" +
		"extern \"C\" __global__ __aicore__ void k_entry(__gm__ int64_t *args) {\n  cube();\n" +
		"#ifdef __DAV_C220_VEC__\n  AscendC::PipeBarrier<PIPE_V>();\n  make_pipe();\n#endif\n}\n"
	os.WriteFile(filepath.Join(root, "helper.h"), []byte(header), 0o644)
	os.WriteFile(filepath.Join(root, "entry.cpp"), []byte(guarded), 0o644)
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	h := c.open(filepath.Join(root, "helper.h"))
	e := c.open(filepath.Join(root, "entry.cpp"))
	c.diagnosticsFor(e.uri, 1)
	pull := func() []string {
		var rep struct {
			Items []protocol.Diagnostic `json:"items"`
		}
		c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": h.uri}}, &rep)
		return codes(rep.Items)
	}
	if got := pull(); strings.Contains(strings.Join(got, ","), "EXT002") {
		t.Fatalf("helper called under the vector guard only: %v", got)
	}
	call := find(t, e.text, "  make_pipe();\n", 0)
	c.edit(e, []protocol.TextEdit{{Range: protocol.Range{Start: call, End: protocol.Position{Line: call.Line + 1}}, NewText: ""}})
	at := find(t, e.text, "  cube();\n", 0)
	c.edit(e, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: "  make_pipe();\n"}})
	if got := pull(); !strings.Contains(strings.Join(got, ","), "EXT002") {
		t.Errorf("helper now called where the cube runs it: want EXT002, got %v\nentry:\n%s", got, e.text)
	}
	c.shutdown()
}
