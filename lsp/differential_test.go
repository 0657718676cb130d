package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// snippets are typed into the kernel at random: qualifiers the masker
// blanks, guard directives, braces, non-ASCII text, rule triggers and the
// declaration-macro shape whose masking depends on the following word.
var snippets = []string{
	"__gm__ ", "AscendC::SyncAll();\n", "#ifdef __DAV_C220_CUBE__\n", "#endif\n", "#else\n",
	"if ASCEND_IS_AIC {\n", "}\n", "{", "}", ";", "\n", "/* 注释 */", "🚀", "中文", "\"s\"",
	"// NOLINT(EXT004)", "CATLASS_DEVICE ", "void ", "int32_t x = args[3];\n", "get_block_idx()",
	"AscendC::TPipe pipe;\n", "AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(12);\n", "(", ")", "<false>", "x",
	"__aicore__ ", "#if defined(__DAV_C220_VEC__)\n", "'", "\\\n",
}

// changeSeq sends content changes in LSP order (each against the text the
// previous one produced) and applies them to the client's copy.
func (c *testClient) changeSeq(b *buffer, changes []contentChange) {
	var wire []any
	for _, ch := range changes {
		if ch.Range == nil {
			b.text = ch.Text
			wire = append(wire, map[string]any{"text": ch.Text})
			continue
		}
		b.text = applyEdit(b.text, protocol.TextEdit{Range: *ch.Range, NewText: ch.Text})
		wire = append(wire, map[string]any{"range": ch.Range, "text": ch.Text})
	}
	b.version++
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": b.uri, "version": b.version},
		"contentChanges": wire,
	})
}

func randomPos(rng *rand.Rand, text string) protocol.Position {
	l := grammar.NewLines([]byte(text))
	line := rng.IntN(l.Count() + 1) // sometimes one past the last line
	width := 0
	if line < l.Count() {
		width = len(utf16.Encode([]rune(l.LineText(line))))
	}
	ch := rng.IntN(width + 1)
	if rng.IntN(10) == 0 {
		ch = width + rng.IntN(5) // past the end of the line
	}
	return protocol.Position{Line: uint32(line), Character: uint32(ch)}
}

func randomChange(rng *rand.Rand, text string) contentChange {
	start := randomPos(rng, text)
	end := start
	if rng.IntN(2) == 0 {
		// Delete or replace a stretch, sometimes across lines.
		end = randomPos(rng, text)
		l := grammar.NewLines([]byte(text))
		if offsetOf(l, end) < offsetOf(l, start) {
			start, end = end, start
		}
		if offsetOf(l, end)-offsetOf(l, start) > 200 {
			end = posOf(l, offsetOf(l, start)+uint32(rng.IntN(60)))
		}
	}
	text = ""
	if rng.IntN(4) != 0 {
		text = snippets[rng.IntN(len(snippets))]
	}
	return contentChange{Range: &protocol.Range{Start: start, End: end}, Text: text}
}

// TestIncrementalEditsMatchFreshOpen makes 240 random edits (single,
// batched, and one full replacement) and checks at checkpoints that the
// server's text equals the client's, that the incrementally reparsed tree
// equals a fresh parse node for node, and that the diagnostics equal those
// of a fresh server opening the same text.
func TestIncrementalEditsMatchFreshOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kernel.cpp")
	text := genKernel(10)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	b := c.openText(path, text)
	rng := rand.New(rand.NewPCG(5, 17))
	checks := 0
	for i := 0; i < 240; i++ {
		switch {
		case i == 120:
			c.changeSeq(b, []contentChange{{Text: genKernel(6)}})
		case i%15 == 7:
			// A batch: each change is positioned in the previous one's result.
			var batch []contentChange
			cur := b.text
			for k := 0; k < 3; k++ {
				ch := randomChange(rng, cur)
				cur = applyEdit(cur, protocol.TextEdit{Range: *ch.Range, NewText: ch.Text})
				batch = append(batch, ch)
			}
			c.changeSeq(b, batch)
		default:
			c.changeSeq(b, []contentChange{randomChange(rng, b.text)})
		}
		if i%40 == 39 || i == 239 {
			compareWithFresh(t, c, b, dir, path)
			checks++
		}
	}
	if checks < 6 {
		t.Fatalf("only %d checkpoints", checks)
	}
	c.shutdown()
}

func compareWithFresh(t *testing.T, c *testClient, b *buffer, dir, path string) {
	t.Helper()
	got := c.diagnosticsFor(b.uri, b.version)
	sn := c.srv.current()
	version := sn.docs[path].version
	f, err := sn.file(path)
	if err != nil || version != b.version {
		t.Fatalf("snapshot: v%d (want v%d), %v", version, b.version, err)
	}
	if string(f.Src) != b.text {
		t.Fatalf("v%d: server text differs from the client's", version)
	}
	fresh, err := grammar.ParseFile(context.Background(), nil, path, []byte(b.text), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if len(f.Tree.Nodes) != len(fresh.Tree.Nodes) {
		t.Fatalf("v%d: incremental tree has %d nodes, fresh parse %d", version, len(f.Tree.Nodes), len(fresh.Tree.Nodes))
	}
	for i := range f.Tree.Nodes {
		a, e := &f.Tree.Nodes[i], &fresh.Tree.Nodes[i]
		if a.Kind() != e.Kind() || a.Start != e.Start || a.End != e.End || a.Field() != e.Field() || a.IsError() != e.IsError() || a.IsMissing() != e.IsMissing() {
			t.Fatalf("v%d: node %d differs: incremental %s %d-%d, fresh %s %d-%d", version, i, a.Kind(), a.Start, a.End, e.Kind(), e.Start, e.End)
		}
	}
	// A fresh server opening the final text.
	c2 := startServer(t, Options{})
	c2.initialize([]string{dir}, map[string]any{})
	b2 := c2.openText(path, b.text)
	want := c2.diagnosticsFor(b2.uri, 1)
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if string(gj) != string(wj) {
		t.Fatalf("v%d: diagnostics after incremental edits:\n%s\nfresh open:\n%s", version, gj, wj)
	}
	c2.shutdown()
}

// unitSnippets are typed into the files of a two-extern unit: args reads
// right for one ABI only, helper reads, constants the reads index with,
// includes, template flags and stub parameters.
var unitSnippets = []string{
	"    int64_t s = static_cast<int64_t>(args[18]);\n", "    int64_t t = args[7];\n",
	"    __gm__ float *w = tensor_data<float>(args, 19);\n", "constexpr int32_t ARG_EXTRA = 21;\n",
	"    __gm__ float *e = tensor_data<float>(args, ARG_EXTRA);\n", "#include \"args.h\"\n",
	"run_qwen_fai<true>(args);\n", "AscendC::SyncAll();\n", "if constexpr (WithRope) {\n", "}\n",
	"    extra: pl.Tensor,\n", "    flag: pl.Scalar[pl.INT32],\n", "core_type=\"aiv\", ", "\n", "#if WITH_ROPE\n", "#endif\n",
	// Events, cross-core flags and the helpers that wrap them: facts each
	// file contributes to its units.
	"AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);\n", "AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID1);\n",
	"set_flag(PIPE_MTE3, PIPE_MTE2, EVENT_ID0);\n", "AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(ARG_EXTRA);\n",
	"AscendC::CrossCoreWaitFlag(ARG_EXTRA);\n", "__aicore__ inline void sync_step(int32_t id) { AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(id); }\n",
	"sync_step(4);\n", "__aicore__ inline void raise() { AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID2); }\n", "raise();\n",
}

// TestIncrementalUnitsMatchFreshServer edits the files of two externs that
// share a header and a stub (random edits on random open documents, which
// are now and then closed, back to their disk text, and opened again) and
// checks at checkpoints that every open document's pulled diagnostics, and
// the workspace diagnostic of every file, equal those of a fresh server
// that opens the same texts: the facts and findings the server keeps
// across edits never go stale.
func TestIncrementalUnitsMatchFreshServer(t *testing.T) {
	if testing.Short() {
		t.Skip("many fresh servers")
	}
	src, _ := filepath.Abs("../testdata/abi/qwen")
	dir := t.TempDir()
	analysistest.CopyTree(t, src, dir)
	paths := []string{
		filepath.Join(dir, "kernels", "qwen_fai", "qwen_fai.h"),
		filepath.Join(dir, "kernels", "qwen_fai", "args.h"),
		filepath.Join(dir, "kernels", "qwen_fai", "paged_attention_entry.cpp"),
		filepath.Join(dir, "kernels", "qwen_fai", "paged_attention_rope_entry.cpp"),
		filepath.Join(dir, "attention.py"),
	}
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	var bufs []*buffer
	for _, p := range paths {
		bufs = append(bufs, c.open(p))
	}
	rng := rand.New(rand.NewPCG(11, 3))
	for i := 0; i < 120; i++ {
		k := rng.IntN(len(bufs))
		b := bufs[k]
		if b == nil {
			bufs[k] = c.open(paths[k])
			continue
		}
		if rng.IntN(12) == 0 {
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": b.uri}})
			bufs[k] = nil
			continue
		}
		start := randomPos(rng, b.text)
		l := grammar.NewLines([]byte(b.text))
		start = posOf(l, offsetOf(l, start)) // clamp
		start.Character = 0                  // whole-line snippets
		ch := contentChange{Range: &protocol.Range{Start: start, End: start}, Text: unitSnippets[rng.IntN(len(unitSnippets))]}
		if rng.IntN(4) == 0 {
			// Delete a line.
			ch = contentChange{Range: &protocol.Range{Start: start, End: protocol.Position{Line: start.Line + 1}}}
		}
		c.changeSeq(b, []contentChange{ch})
		if i%20 == 19 {
			compareUnitsWithFresh(t, c, bufs, dir)
		}
	}
	c.shutdown()
}

func pullDiagnostics(c *testClient, b *buffer) string {
	var res json.RawMessage
	c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": b.uri}}, &res)
	var r struct {
		Items json.RawMessage `json:"items"`
	}
	json.Unmarshal(res, &r)
	return string(r.Items)
}

func compareUnitsWithFresh(t *testing.T, c *testClient, bufs []*buffer, dir string) {
	t.Helper()
	c2 := startServer(t, Options{})
	c2.initialize([]string{dir}, map[string]any{})
	fresh := make([]*buffer, len(bufs))
	for i, b := range bufs {
		if b != nil {
			fresh[i] = c2.openText(pathOf(b.uri), b.text)
		}
	}
	for i, b := range bufs {
		if b == nil {
			continue
		}
		got, want := pullDiagnostics(c, b), pullDiagnostics(c2, fresh[i])
		if got != want {
			t.Fatalf("v%d of %s: diagnostics after incremental edits:\n%s\nfresh server:\n%s\ntext:\n%s", b.version, filepath.Base(pathOf(b.uri)), got, want, b.text)
		}
		// The pushed ones too: an edit re-diagnoses the documents that read
		// the edited file (includers, units, stubs), no fewer.
		var items []protocol.Diagnostic
		json.Unmarshal([]byte(want), &items)
		wantPub, _ := json.Marshal(items)
		var last []byte
		c.waitFor(fmt.Sprintf("the published diagnostics of %s v%d to be a fresh server's", filepath.Base(pathOf(b.uri)), b.version), func() bool {
			ps := c.published[b.uri]
			if len(ps) == 0 || ps[len(ps)-1].Version == nil || *ps[len(ps)-1].Version != b.version {
				return false
			}
			last, _ = json.Marshal(ps[len(ps)-1].Diagnostics)
			return string(last) == string(wantPub)
		})
	}
	if got, want := workspaceItems(c), workspaceItems(c2); got != want {
		t.Fatalf("workspace diagnostic after incremental edits:\n%s\nfresh server:\n%s", got, want)
	}
	c2.shutdown()
}

// workspaceItems is a full workspace diagnostic, each file's findings by
// URI.
func workspaceItems(c *testClient) string {
	var rep struct {
		Items []struct {
			URI   string          `json:"uri"`
			Items json.RawMessage `json:"items"`
		} `json:"items"`
	}
	c.call("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &rep)
	var b strings.Builder
	for _, it := range rep.Items {
		fmt.Fprintf(&b, "%s %s\n", it.URI, it.Items)
	}
	return b.String()
}

// TestWorkspaceDiagnosticFollowsEdits edits only the stub of two externs
// whose entries and header stay closed: each workspace diagnostic must
// equal a fresh server's, though the server reuses the closed files'
// findings while nothing they read changed.
func TestWorkspaceDiagnosticFollowsEdits(t *testing.T) {
	src, _ := filepath.Abs("../testdata/abi/qwen")
	dir := t.TempDir()
	analysistest.CopyTree(t, src, dir)
	stub := filepath.Join(dir, "attention.py")
	c := startServer(t, Options{})
	c.initialize([]string{dir}, map[string]any{})
	b := c.open(stub)
	fresh := func() string {
		c2 := startServer(t, Options{})
		c2.initialize([]string{dir}, map[string]any{})
		c2.openText(stub, b.text)
		defer c2.shutdown()
		return workspaceItems(c2)
	}
	before := workspaceItems(c)
	if want := fresh(); before != want {
		t.Fatalf("workspace diagnostic:\n%s\nfresh server:\n%s", before, want)
	}
	var reports []string
	for _, line := range []string{"    cache_row_offset: pl.Scalar[pl.INDEX],\n", "    metadata: pl.Tensor[[64], pl.INT32],\n"} {
		at := find(t, b.text, line, 0)
		c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: protocol.Position{Line: at.Line + 1}}}})
		got := workspaceItems(c)
		if want := fresh(); got != want {
			t.Fatalf("after deleting %q:\n%s\nfresh server:\n%s", line, got, want)
		}
		reports = append(reports, got)
	}
	if reports[0] == before || reports[1] == reports[0] {
		t.Fatal("deleting stub parameters changed no finding: the test does not exercise the reuse")
	}
	c.shutdown()
}

// TestIncludeAddedRediagnosesHeader: an entry that includes an open header
// again makes the header part of its unit. The edit is judged against the
// include graph the server had (without it); once the entry's new text is
// analysed, the header is diagnosed again with both units.
func TestIncludeAddedRediagnosesHeader(t *testing.T) {
	dir := t.TempDir()
	analysistest.CopyTree(t, abiFixture(t), dir)
	kern := filepath.Join(dir, "kernels", "qwen_fai")
	c := startServer(t, Options{MinDebounce: -1, MaxDebounce: -1})
	c.initialize([]string{dir}, map[string]any{})
	h := c.open(filepath.Join(kern, "qwen_fai.h"))
	e := c.open(filepath.Join(kern, "paged_attention_entry.cpp"))
	both := c.diagnosticsFor(h.uri, 1)
	c.diagnosticsFor(e.uri, 1)
	inc := find(t, e.text, `#include "qwen_fai.h"`, 0)
	line := protocol.Range{Start: inc, End: protocol.Position{Line: inc.Line + 1}}
	latest := func() string {
		ps := c.published[h.uri]
		b, _ := json.Marshal(ps[len(ps)-1].Diagnostics)
		return string(b)
	}
	want, _ := json.Marshal(both)
	c.edit(e, []protocol.TextEdit{{Range: line}})
	c.diagnosticsFor(e.uri, e.version)
	c.waitFor("the header diagnosed without the plain extern", func() bool { return latest() != string(want) })
	c.edit(e, []protocol.TextEdit{{Range: protocol.Range{Start: inc, End: inc}, NewText: "#include \"qwen_fai.h\"\n"}})
	c.diagnosticsFor(e.uri, e.version)
	c.waitFor("the header diagnosed with both externs again", func() bool { return latest() == string(want) })
	c.shutdown()
}
