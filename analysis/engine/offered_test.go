package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestEveryOfferedFixHolds applies, one at a time, every fix the front ends
// would offer (those the recheck proves) on every rule fixture and the
// examples, and checks it independently over the whole tree: the targeted
// finding is gone, no finding appears in any file, no file parses worse,
// and the ABI is what it was: every stub parameter is bound to the same
// argument at every call site and read by the same C++ reads. Only EXT107,
// whose point is to change which slot a misnamed constant reads, may change
// a read. EXTERN_LSP_REAL_FIX_ROOTS (colon-separated) adds real trees.
func TestEveryOfferedFixHolds(t *testing.T) {
	roots, _ := filepath.Glob(filepath.Join("..", "rules", "testdata", "*"))
	roots = append(roots, filepath.Join("..", "..", "examples", "traps"), filepath.Join("..", "..", "testdata", "abi", "qwen"))
	if env := os.Getenv("EXTERN_LSP_REAL_FIX_ROOTS"); env != "" {
		roots = append(roots, strings.Split(env, ":")...)
	}
	offered, refused := 0, 0
	for _, root := range roots {
		root, _ = filepath.Abs(root)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			continue
		}
		ck := offeredChecker(t, root)
		before := checkAll(ck, ck.WS)
		rc := ck.Recheck()
		for _, d := range before {
			for i := range d.Fixes {
				fix := &d.Fixes[i]
				if fix.Applicability == analysis.DisplayOnly || len(fix.Edits) == 0 || d.Suppressed != "" {
					continue
				}
				if why := rc.Verify(context.Background(), ck.WS, d, fix); why != "" {
					refused++
					t.Logf("%s: not offered: %s %q: %s", rel(root, d.File), d.Code, fix.Title, why)
					continue
				}
				offered++
				checkOffered(t, root, ck, before, d, fix)
			}
		}
	}
	t.Logf("%d fixes offered and checked, %d refused by the recheck", offered, refused)
	if offered == 0 {
		t.Fatal("no fix offered anywhere: the fixtures moved?")
	}
}

func offeredChecker(t *testing.T, root string) *Checker {
	t.Helper()
	loader, err := config.NewLoader("", rules.All())
	if err != nil {
		t.Fatal(err)
	}
	ck := &Checker{Loader: loader, Jobs: 2, Uncapped: true, RootFor: func(string) string { return root }}
	if filepath.Base(root) == "ext900" {
		ck.Overrides.ExtendSelect = []string{"EXT900"}
	}
	if err := ck.Collect([]string{root}); err != nil {
		t.Fatal(err)
	}
	return ck
}

// checkAll is every finding of the checker's files on ws.
func checkAll(ck *Checker, ws *workspace.Workspace) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	store := unit.NewStore()
	for _, p := range ck.Files {
		opts := ck.OptionsFor(p)
		opts.Store = store
		ds, _ := Analyse(context.Background(), ws, p, opts)
		out = append(out, ds...)
	}
	return out
}

func checkOffered(t *testing.T, root string, ck *Checker, before []analysis.Diagnostic, d analysis.Diagnostic, fix *analysis.Fix) {
	t.Helper()
	where := fmt.Sprintf("%s: %s fix %q", rel(root, d.File), d.Code, fix.Title)
	fork := ck.WS.Fork()
	byFile := map[string][]analysis.TextEdit{}
	for _, e := range fix.Edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	for file, es := range byFile {
		src, _ := ck.WS.Source(file)
		out, skipped := analysis.ApplyEdits(src, file, es)
		if skipped > 0 {
			t.Errorf("%s: overlapping edits", where)
		}
		fork.SetOverlay(file, out, -1)
		if errorCount(fork, file) > errorCount(ck.WS, file) {
			t.Errorf("%s: %s parses worse after it", where, rel(root, file))
		}
	}
	after := checkAll(ck, fork)
	if why := compareFindings(fork, d, fix, before, after); why != "" {
		t.Errorf("%s: over the whole tree, %s", where, why)
	}
	if d.Code == "EXT107" {
		return
	}
	was, now := abiUses(ck.WS, nil), abiUses(fork, byFile)
	for k, v := range was {
		if now[k] != v {
			t.Errorf("%s: the ABI moved: %s was %q, is %q", where, k, v, now[k])
		}
	}
	for k, v := range now {
		if _, ok := was[k]; !ok {
			t.Errorf("%s: the ABI moved: %s is new (%q)", where, k, v)
		}
	}
}

// abiUses maps every use of every stub's parameters to what it binds: a
// call site's argument for each parameter ("call FILE@OFF param" → the
// argument's text; offsets are those before the fix, edits maps the fixed
// text back) and the single-slot C++ reads of each parameter per file.
func abiUses(ws *workspace.Workspace, edits map[string][]analysis.TextEdit) map[string]string {
	for _, es := range edits {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	}
	out := map[string]string{}
	stubs := ws.Stubs()
	byName := map[string]*abi.Stub{}
	for _, s := range stubs {
		byName[s.Name] = s
	}
	for _, py := range ws.PythonFiles() {
		f, err := ws.File(py)
		if err != nil || f.Tree == nil {
			continue
		}
		for _, c := range f.Tree.OfKind("call") {
			fn := c.ChildByField("function")
			args := c.ChildByField("arguments")
			if fn == nil || args == nil {
				continue
			}
			name := fn.Text()
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			s := byName[name]
			if s == nil {
				continue
			}
			at := fmt.Sprintf("call %s@%d", filepath.Base(py), mapBack(edits[py], c.Start))
			pos := 0
			for _, a := range args.NamedChildren() {
				switch a.Kind() {
				case "comment":
				case "keyword_argument":
					if k, v := a.ChildByField("name"), a.ChildByField("value"); k != nil && v != nil {
						out[at+" "+k.Text()] = v.Text()
					}
				default:
					if pos < len(s.Params) {
						out[at+" "+s.Params[pos].Name] = a.Text()
					}
					pos++
				}
			}
		}
	}
	store := unit.NewStore()
	seen := map[string]bool{}
	for _, s := range stubs {
		for _, e := range ws.StubEntries(s) {
			for _, p := range ws.Closure(e) {
				if l, _ := grammar.LangOf(p); l != grammar.CPP || seen[p+s.Name] {
					continue
				}
				seen[p+s.Name] = true
				for _, a := range store.ArgsAccesses(context.Background(), ws, p) {
					if a.Via == "constant" || len(a.Slots) != 1 {
						continue
					}
					name := "past the end"
					if q, ok := s.BySlot(int(a.Slots[0])); ok {
						name = q.Name
					}
					// Counted per file and parameter: a fix may rewrite
					// the expression around a read, not what it reads.
					k := fmt.Sprintf("reads of %s in %s under %s", name, filepath.Base(p), s.Name)
					out[k] = fmt.Sprint(atoi(out[k]) + 1)
				}
			}
		}
	}
	return out
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.Join(filepath.Base(root), r)
	}
	return p
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}
