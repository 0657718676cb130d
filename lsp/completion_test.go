package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// itemText renders an item as a user sees it: "args[1]  query  tensor, in".
func itemText(it completionItem) string {
	s := it.Label
	if it.LabelDetails != nil {
		s += it.LabelDetails.Detail + "  " + it.LabelDetails.Description
	}
	return s
}

// TestArgsCompletion types `args[` and a helper call into the header shared
// by two externs and asks for completions and signature help.
func TestArgsCompletion(t *testing.T) {
	root := abiFixture(t)
	header := filepath.Join(root, "kernels", "qwen_fai", "qwen_fai.h")
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	b := c.open(header)
	c.diagnosticsFor(b.uri, 1)

	complete := func(pos protocol.Position) map[string]completionItem {
		t.Helper()
		var list completionList
		c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &list)
		out := map[string]completionItem{}
		for _, it := range list.Items {
			out[itemText(it)] = it
		}
		return out
	}
	keys := func(m map[string]completionItem) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		return out
	}

	// In run_qwen_fai<WithRope>, compiled by both externs.
	at := find(t, b.text, "    // Right for both ABIs", 0)
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: "    int64_t probe = args[\n"}})
	pos := find(t, b.text, "args[\n", 0)
	pos.Character += 5
	items := complete(pos)
	for _, want := range []string{
		"args[1]  query  tensor, in, BF16",
		"args[0]  out  tensor, out, BF16",
		"args[7]  q_proj  tensor, in, BF16 · rope",
		"args[7]  cache_row_offset  scalar, INDEX · plain",
		"args[18]  batch_offset  scalar, INDEX · rope",
	} {
		if _, ok := items[want]; !ok {
			t.Errorf("no completion %q in %q", want, keys(items))
		}
	}
	if it := items["args[1]  query  tensor, in, BF16"]; it.TextEdit == nil || it.TextEdit.NewText != "1]" || it.TextEdit.Range.Start != pos {
		t.Errorf("args[1] item edit = %+v, want 1] at the cursor", it.TextEdit)
	}
	// Typed a digit and the editor closed the bracket: the digit is
	// replaced, no second bracket.
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: pos, End: pos}, NewText: "1]"}})
	pos2 := pos
	pos2.Character++
	items = complete(pos2)
	if it := items["args[1]  query  tensor, in, BF16"]; it.TextEdit == nil || it.TextEdit.NewText != "1" || it.TextEdit.Range.Start != pos || it.TextEdit.Range.End != pos2 {
		t.Errorf("after `args[1|]` the item edit = %+v", it.TextEdit)
	}

	// Inside `if constexpr (WithRope)`: the attention-only extern never
	// compiles it, so only the fused extern's slots, unlabelled.
	at = find(t, b.text, "        AscendC::SyncAll<false>();", 0)
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: "        int64_t r = args[];\n"}})
	pos = find(t, b.text, "args[];", 0)
	pos.Character += 5
	items = complete(pos)
	if _, ok := items["args[7]  q_proj  tensor, in, BF16 · rope"]; !ok {
		t.Errorf("in the WithRope branch: no q_proj at 7 for the fused extern: %q", keys(items))
	}
	for k := range items {
		if strings.Contains(k, "plain") {
			t.Errorf("in the WithRope branch the attention-only extern is offered: %q", k)
		}
	}

	// A helper call: tensors only, and signature help on the index.
	at = find(t, b.text, "    // Planted bugs", 0)
	c.edit(b, []protocol.TextEdit{{Range: protocol.Range{Start: at, End: at}, NewText: "    __gm__ float *w = tensor_data<float>(args, );\n"}})
	pos = find(t, b.text, "(args, );", 0)
	pos.Character += uint32(len("(args, "))
	items = complete(pos)
	if _, ok := items["args[1]  query  tensor, in, BF16"]; !ok {
		t.Errorf("tensor_data(args, |): no query item in %q", keys(items))
	}
	for k := range items {
		if strings.Contains(k, "scalar") {
			t.Errorf("tensor_data(args, |) offers a scalar slot: %q", k)
		}
	}
	if it := items["args[1]  query  tensor, in, BF16"]; it.TextEdit == nil || it.TextEdit.NewText != "1" {
		t.Errorf("helper item edit = %+v, want the bare index", it.TextEdit)
	}
	var sh *signatureHelp
	c.call("textDocument/signatureHelp", map[string]any{"textDocument": map[string]any{"uri": b.uri}, "position": pos}, &sh)
	if sh == nil || len(sh.Signatures) != 1 {
		t.Fatalf("signature help = %+v", sh)
	}
	sig := sh.Signatures[0]
	if sig.Label != "tensor_data<T>(__gm__ int64_t *args, int32_t idx)" || sh.ActiveParameter != 1 || len(sig.Parameters) != 2 {
		t.Errorf("signature = %q active %d params %+v", sig.Label, sh.ActiveParameter, sig.Parameters)
	} else {
		l := sig.Parameters[1].Label
		if got := sig.Label[l[0]:l[1]]; got != "int32_t idx" {
			t.Errorf("index parameter label = %q", got)
		}
		d := sig.Parameters[1].Documentation
		if d == nil || !strings.Contains(d.Value, "as a tensor") || !strings.Contains(d.Value, "1 `query`") || !strings.Contains(d.Value, "rope (`paged_attention_rope_cce`)") || strings.Contains(d.Value, "cache_row_offset") {
			t.Errorf("index parameter documentation = %+v", d)
		}
	}
	// Not a site: a plain call, a comment.
	pos = find(t, b.text, "AscendC::SyncAll<false>(", 0)
	pos.Character += uint32(len("AscendC::SyncAll<false>("))
	if items := complete(pos); len(items) != 0 {
		t.Errorf("completion inside SyncAll( = %q", keys(items))
	}
	c.shutdown()
}
