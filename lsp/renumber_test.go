package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// TestRenumberAfterReorder reorders a stub's parameters in the editor and
// takes the unsafe refactor that renumbers the C++ reads, as a preview.
func TestRenumberAfterReorder(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "testdata", "editors", "ws"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	analysistest.CopyTree(t, src, root)
	c := startServer(t, Options{})
	c.initialize([]string{root}, map[string]any{})
	kernel := c.open(filepath.Join(root, "kernels", "scale_add.cpp"))
	py := c.open(filepath.Join(root, "scale_add.py"))
	c.diagnosticsFor(kernel.uri, 1)

	actions := func() []json.RawMessage {
		t.Helper()
		var out []json.RawMessage
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": py.uri},
			"range":   protocol.Range{Start: find(t, py.text, "def scale_add", 0), End: find(t, py.text, "def scale_add", 0)},
			"context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, &out)
		return out
	}
	if a := actions(); len(a) != 0 {
		t.Fatalf("renumber offered before any reorder: %s", a)
	}
	// Swap lhs and rhs, and the two scalars.
	swap := func(a, b string) {
		pa, pb := find(t, py.text, a, 0), find(t, py.text, b, 0)
		c.edit(py, []protocol.TextEdit{
			{Range: protocol.Range{Start: pa, End: protocol.Position{Line: pa.Line, Character: pa.Character + uint32(len(a))}}, NewText: b},
			{Range: protocol.Range{Start: pb, End: protocol.Position{Line: pb.Line, Character: pb.Character + uint32(len(b))}}, NewText: a},
		})
	}
	swap("lhs: pl.Tensor[[1024], pl.FP32]", "rhs: pl.Tensor[[1024], pl.FP32]")
	swap("elem_count: pl.Scalar[pl.INT32]", "alpha: pl.Scalar[pl.FP32]")

	got := actions()
	if len(got) != 1 {
		t.Fatalf("actions after the reorder = %s", got)
	}
	var a struct {
		Title string                 `json:"title"`
		Kind  string                 `json:"kind"`
		Edit  annotatedWorkspaceEdit `json:"edit"`
	}
	if err := json.Unmarshal(got[0], &a); err != nil {
		t.Fatal(err)
	}
	if a.Kind != "refactor.rewrite" || !strings.HasPrefix(a.Title, "Renumber 4 args[] reads of scale_add to the new parameter order (unsafe") {
		t.Errorf("action = %q (%s)", a.Title, a.Kind)
	}
	ann, ok := a.Edit.ChangeAnnotations[renumberAnnotation]
	if !ok || !ann.NeedsConfirmation {
		t.Errorf("the edit does not need confirmation: %+v", a.Edit.ChangeAnnotations)
	}
	if len(a.Edit.DocumentChanges) != 1 || a.Edit.DocumentChanges[0].TextDocument.URI != kernel.uri ||
		a.Edit.DocumentChanges[0].TextDocument.Version == nil || *a.Edit.DocumentChanges[0].TextDocument.Version != kernel.version {
		t.Fatalf("document changes = %+v", a.Edit.DocumentChanges)
	}
	var edits []protocol.TextEdit
	for _, e := range a.Edit.DocumentChanges[0].Edits {
		if e.AnnotationID != renumberAnnotation {
			t.Errorf("edit %+v is not annotated", e)
		}
		edits = append(edits, protocol.TextEdit{Range: e.Range, NewText: e.NewText})
	}
	c.edit(kernel, edits)
	for _, want := range []string{"lhs = reinterpret_cast<__gm__ Tensor *>(args[2])", "rhs = reinterpret_cast<__gm__ Tensor *>(args[1])",
		"static_cast<int32_t>(args[4])", "from_u64<float>(args[3])", "result = reinterpret_cast<__gm__ Tensor *>(args[0])"} {
		if !strings.Contains(kernel.text, want) {
			t.Errorf("after the renumbering the kernel lacks %q:\n%s", want, kernel.text)
		}
	}
	c.shutdown()
}
