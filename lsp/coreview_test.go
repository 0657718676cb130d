package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const coreViewKernel = `#include "kernel_operator.h"

extern "C" __global__ __aicore__ void mixed_kernel(__gm__ int64_t *args)
{
#if defined(__DAV_C220_CUBE__)
    cube_matmul(args);
    __gm__ float *cube_out = (__gm__ float *)args[1];

    cube_store(args);
#else
    vector_softmax(args);
#endif
    if ASCEND_IS_AIV {
        vector_only(args);
        __gm__ float *vec_out = (__gm__ float *)args[2];
    }
    both(args);
}
`

// TestCoreView: the lines each core does not compile or run, as regions
// and as semantic tokens, switched by the coreView setting.
func TestCoreView(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mixed.cpp")
	if err := os.WriteFile(path, []byte(coreViewKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{"workspace": map[string]any{"semanticTokens": map[string]any{"refreshSupport": true}}})
	b := c.open(path)
	lines := strings.Split(b.text, "\n")
	dimmed := func(core string) []string {
		t.Helper()
		var res inactiveRegionsResult
		params := map[string]any{"textDocument": map[string]any{"uri": b.uri}}
		if core != "" {
			params["core"] = core
		}
		c.call("externLsp/inactiveRegions", params, &res)
		var out []string
		for _, r := range res.Regions {
			for l := r.Start.Line; l <= r.End.Line; l++ {
				out = append(out, strings.TrimSpace(lines[l]))
			}
			if r.End.Character != uint32(len(lines[r.End.Line])) {
				t.Errorf("region %+v does not end at the end of its last line", r)
			}
		}
		return out
	}
	if got := dimmed(""); len(got) != 0 {
		t.Errorf("view off: dimmed %q", got)
	}
	if got, want := strings.Join(dimmed("vector"), "|"), "cube_matmul(args);|__gm__ float *cube_out = (__gm__ float *)args[1];||cube_store(args);"; got != want {
		t.Errorf("vector view dims %q, want %q", got, want)
	}
	if got, want := strings.Join(dimmed("cube"), "|"), "vector_softmax(args);|vector_only(args);|__gm__ float *vec_out = (__gm__ float *)args[2];|}"; got != want {
		t.Errorf("cube view dims %q, want %q", got, want)
	}

	tokens := func() []uint32 {
		var st semanticTokens
		c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, &st)
		return st.Data
	}
	if d := tokens(); len(d) != 0 {
		t.Errorf("semantic tokens with the view off: %v", d)
	}
	// Switch to the cube view through the settings: the client is asked
	// to refresh its tokens and gets the vector-only lines as comments.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"coreView": "cube"}}})
	c.waitFor("semantic tokens refresh", func() bool { return c.serverCalls["workspace/semanticTokens/refresh"] > 0 })
	d := tokens()
	var got []string
	line := uint32(0)
	for i := 0; i+4 < len(d); i += 5 {
		line += d[i]
		got = append(got, lines[line][d[i+1]:d[i+1]+d[i+2]])
		if d[i+3] != 0 {
			t.Errorf("token type %d, want 0 (comment)", d[i+3])
		}
	}
	if strings.Join(got, "|") != "    vector_softmax(args);|        vector_only(args);|        __gm__ float *vec_out = (__gm__ float *)args[2];|    }" {
		t.Errorf("cube-view tokens cover %q", got)
	}
	var res inactiveRegionsResult
	c.call("externLsp/inactiveRegions", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, &res)
	if res.Core != "cube" || len(res.Regions) != 2 {
		t.Errorf("regions after switching to cube = %+v", res)
	}
	// Editing moves the regions with the text.
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, NewText: "// one more line\n"}})
	c.call("externLsp/inactiveRegions", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, &res)
	if len(res.Regions) != 2 || res.Regions[0].Start.Line != 11 {
		t.Errorf("regions after inserting a line = %+v", res.Regions)
	}
	c.shutdown()
}
