package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

func TestReturnBinding(t *testing.T) {
	analysistest.RunWithFixes(t, "../../testdata/abi/qwen", ReturnBinding)
	// The fix trades the warning for the info note on the parameter that is
	// no longer returned, so the harness's finding count cannot drop: check
	// instead that the warning is gone and the stub still parses.
	results := analysistest.Run(t, "testdata/ext103", ReturnBinding)
	root, _ := filepath.Abs("testdata/ext103")
	fixes := 0
	for _, r := range results {
		warnings := countSeverity(r.Diags, analysis.SeverityWarning)
		for _, d := range r.Diags {
			for _, fix := range d.Fixes {
				fixes++
				ws := workspace.New(root)
				src, err := ws.Source(d.File)
				if err != nil {
					t.Fatal(err)
				}
				before, _ := ws.File(d.File)
				out, skipped := analysis.ApplyEdits(src, d.File, fix.Edits)
				if skipped > 0 {
					t.Fatalf("%s: overlapping edits", fix.Title)
				}
				ws.SetOverlay(d.File, out, 1)
				after, err := ws.File(d.File)
				if err != nil {
					t.Fatal(err)
				}
				if after.Tree.ErrorCount() > before.Tree.ErrorCount() {
					t.Errorf("fix %q introduced parse errors:\n%s", fix.Title, out)
				}
				diags, err := analysis.Run(ws, d.File, analysis.Options{Analyzers: []*analysis.Analyzer{ReturnBinding}})
				if err != nil {
					t.Fatal(err)
				}
				if got := countSeverity(diags, analysis.SeverityWarning); got != warnings-1 {
					t.Errorf("after fix %q: %d warnings, want %d:\n%s", fix.Title, got, warnings-1, out)
				}
			}
		}
	}
	// fused_bad's kernel is fused_good's too: its reorder is not offered.
	if fixes != 1 {
		t.Errorf("%d fixes, want 1", fixes)
	}
}

func countSeverity(ds []analysis.Diagnostic, s analysis.Severity) int {
	n := 0
	for _, d := range ds {
		if d.Code == ReturnBinding.Code && d.Severity == s {
			n++
		}
	}
	return n
}

// The fix reorders the stub, every call site (positional arguments moved,
// or passed by name where the call stops before the moved parameter) and
// every C++ read of a moved slot (a literal in place, a named index at its
// constant), and is not offered when a read cannot follow.
func TestReturnBindingMovesEveryUse(t *testing.T) {
	results := analysistest.Run(t, "testdata/ext103sig", ReturnBinding)
	root, _ := filepath.Abs("testdata/ext103sig")
	offered := 0
	for _, r := range results {
		for _, d := range r.Diags {
			if d.Severity != analysis.SeverityWarning {
				continue
			}
			if strings.Contains(d.File, "refused") {
				if len(d.Fixes) != 0 {
					t.Errorf("a fix is offered though a read cannot follow: %v", d.Fixes[0].Title)
				}
				continue
			}
			for _, fix := range d.Fixes {
				offered++
				got := map[string]string{}
				byFile := map[string][]analysis.TextEdit{}
				for _, e := range fix.Edits {
					byFile[e.File] = append(byFile[e.File], e)
				}
				ws := workspace.New(root)
				for file, es := range byFile {
					src, _ := ws.Source(file)
					out, _ := analysis.ApplyEdits(src, file, es)
					got[filepath.Base(file)] = string(out)
				}
				for file, frag := range map[string]string{
					"attn_ops.py": "    out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],\n    query: pl.InOut",
					"model.py":    "y = attn(o, q, k, 16)\n    z = attn(query=q, out=o, keys=k, n=16)",
					"attn.cpp":    "constexpr int32_t kOutSlot = 0;",
				} {
					if !strings.Contains(got[file], frag) {
						t.Errorf("%s after the fix lacks %q:\n%s", file, frag, got[file])
					}
				}
				if !strings.Contains(got["attn.cpp"], "reinterpret_cast<__gm__ float *>(args[1]);\n  __gm__ float *o") {
					t.Errorf("the literal read of query was not renumbered:\n%s", got["attn.cpp"])
				}
			}
		}
	}
	if offered != 1 {
		t.Errorf("%d fixes offered, want the one of moved/", offered)
	}
}
