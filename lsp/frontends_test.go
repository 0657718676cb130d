package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestCheckAndServerAgree runs the two front ends over every rule fixture:
// `check` (the engine's Checker and Fixer, as cmd/extern-lsp drives them)
// and the server through JSON-RPC (pull diagnostics, source.fixAll). For
// every file they must report the same findings (code, range, severity,
// message) and produce the same fixed text.
func TestCheckAndServerAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every fixture through both front ends")
	}
	roots, err := filepath.Glob(filepath.Join("..", "analysis", "rules", "testdata", "*"))
	if err != nil || len(roots) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	files, fixes := 0, 0
	for _, root := range roots {
		root, _ = filepath.Abs(root)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		t.Run(filepath.Base(root), func(t *testing.T) {
			cli := checkTree(t, root, root)
			c := startServer(t, Options{})
			c.initialize([]string{root}, map[string]any{})
			// check prints house-rule infos as infos; the editor's default
			// shows them as hints (TestHouseRulesAsHints).
			c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"externLsp": map[string]any{"houseRules": "info"}}})
			for _, path := range analysistest.Files(root) {
				files++
				if _, ok := cli[path]; !ok {
					// A folder walk skips vendored folders; named, a file
					// in one is checked.
					cli[path] = checkTree(t, root, path)[path]
				}
				lines := grammar.NewLines(mustRead(t, path))
				var want []string
				for _, d := range cli[path] {
					if d.File == path && d.Suppressed == "" {
						want = append(want, diagKey(convertForTest(lines, d)))
					}
				}
				var rep struct {
					Items []protocol.Diagnostic `json:"items"`
				}
				c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uriOf(path)}}, &rep)
				var got []string
				for _, d := range rep.Items {
					got = append(got, diagKey(d))
				}
				sort.Strings(want)
				sort.Strings(got)
				if strings.Join(want, "\n") != strings.Join(got, "\n") {
					t.Errorf("%s: check and the server disagree\ncheck:\n  %s\nserver:\n  %s", rel(root, path), strings.Join(want, "\n  "), strings.Join(got, "\n  "))
				}

				cliFixed := fixFile(t, root, path)
				var actions []protocol.CodeAction
				c.call("textDocument/codeAction", map[string]any{
					"textDocument": map[string]any{"uri": uriOf(path)}, "range": protocol.Range{},
					"context": map[string]any{"diagnostics": []any{}, "only": []string{fixAllKind}},
				}, &actions)
				srvFixed := map[string]string{}
				for _, a := range actions {
					if a.Kind != fixAllKind || a.Edit == nil {
						continue
					}
					for uri, edits := range a.Edit.Changes {
						p := pathOf(string(uri))
						text := string(mustRead(t, p))
						sort.SliceStable(edits, func(i, j int) bool { return comparePos(edits[j].Range.Start, edits[i].Range.Start) < 0 })
						for _, e := range edits {
							text = applyEdit(text, e)
						}
						srvFixed[p] = text
					}
				}
				if len(cliFixed) > 0 {
					fixes++
				}
				for _, p := range sortedPaths(cliFixed, srvFixed) {
					if cliFixed[p] != srvFixed[p] {
						t.Errorf("fixing %s: %s differs\ncheck --fix:\n%s\nserver fix-all:\n%s", rel(root, path), rel(root, p), cliFixed[p], srvFixed[p])
					}
				}
			}
			c.shutdown()
		})
	}
	if files == 0 || fixes == 0 {
		t.Fatalf("compared %d files, %d with fixes: the fixtures moved?", files, fixes)
	}
}

// checkTree is `check --root ROOT PATH` through the engine: every file's
// findings.
func checkTree(t *testing.T, root, path string) map[string][]analysis.Diagnostic {
	t.Helper()
	ck := newChecker(t, root)
	if err := ck.Collect([]string{path}); err != nil {
		t.Fatal(err)
	}
	out := map[string][]analysis.Diagnostic{}
	for _, r := range ck.Check(context.Background(), nil) {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Path, r.Err)
		}
		out[r.Path] = r.Diags
	}
	return out
}

// fixFile is `check --fix PATH` in memory: the text of every file the
// safe fixes of PATH's findings change.
func fixFile(t *testing.T, root, path string) map[string]string {
	t.Helper()
	ck := newChecker(t, root)
	if err := ck.Collect([]string{path}); err != nil {
		t.Fatal(err)
	}
	fx := engine.Fixer{WS: ck.WS, Check: func(int) ([]analysis.Diagnostic, error) {
		var all []analysis.Diagnostic
		for _, r := range ck.Check(context.Background(), nil) {
			for _, d := range r.Diags {
				if d.File == path {
					all = append(all, d)
				}
			}
		}
		return all, nil
	}}
	res, err := fx.Run()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range res.Changed(ck.WS) {
		src, _ := ck.WS.Source(p)
		out[p] = string(src)
	}
	return out
}

func newChecker(t *testing.T, root string) *engine.Checker {
	t.Helper()
	loader, err := config.NewLoader("", rules.All())
	if err != nil {
		t.Fatal(err)
	}
	return &engine.Checker{Loader: loader, Jobs: 2, RootFor: func(string) string { return root }}
}

// convertForTest converts a finding as the server does, without a server.
func convertForTest(lines *grammar.Lines, d analysis.Diagnostic) protocol.Diagnostic {
	return protocol.Diagnostic{Range: rangeOf(lines, d.Start, d.End), Severity: severityOf(d.Severity), Code: d.Code, Message: d.Message}
}

func diagKey(d protocol.Diagnostic) string {
	r := d.Range
	return fmt.Sprintf("%d:%d-%d:%d %v %v %s", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, d.Severity, d.Code, d.Message)
}

func sortedPaths(ms ...map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for p := range m {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}
