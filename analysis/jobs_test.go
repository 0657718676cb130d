package analysis_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/benchgen"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TestJobsSameFindings: a file's rules run at once (Options.Jobs) find
// what they find one after another, on every rule fixture and on the
// generated realistic unit, each run with a fact store of its own (a
// shared fact is computed by whichever rule asks first).
func TestJobsSameFindings(t *testing.T) {
	unit := t.TempDir()
	if _, err := benchgen.WriteUnits(unit, 1); err != nil {
		t.Fatal(err)
	}
	roots := []string{unit}
	dirs, _ := filepath.Glob("rules/testdata/*")
	roots = append(roots, dirs...)
	files := 0
	for _, root := range roots {
		ws := workspace.New(root)
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if _, ok := grammar.LangOf(path); !ok {
				return nil
			}
			var got [2][]analysis.Diagnostic
			for i, jobs := range []int{1, 4} {
				opts := allRules()
				opts.Jobs = jobs
				got[i], err = analysis.RunContext(context.Background(), ws, path, opts)
				if err != nil {
					return nil
				}
			}
			files++
			if !reflect.DeepEqual(got[0], got[1]) {
				t.Errorf("%s: %d findings one rule at a time, %d with 4 at once", path, len(got[0]), len(got[1]))
			}
			return nil
		})
	}
	if files < 100 {
		t.Fatalf("compared %d files", files)
	}
}

// TestSharedFactRulesLast: with a file's rules run at once, a rule that
// shares a fact an earlier rule starts (Analyzer.Shares) is handed out
// after the rules that share none, which need not wait for it. Here the
// first sharer (A) holds its worker until the rule that shares nothing
// (C) has started: in rule order the second sharer (B) would be handed
// out, and start, first.
func TestSharedFactRulesLast(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.py")
	if err := os.WriteFile(path, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var started []string
	cStarted := make(chan struct{})
	start := func(name string) {
		mu.Lock()
		started = append(started, name)
		mu.Unlock()
	}
	rule := func(code, shares string, run func()) *analysis.Analyzer {
		return &analysis.Analyzer{Code: code, Name: code, Lang: grammar.Python, Shares: shares, Run: func(*analysis.Pass) { start(code); run() }}
	}
	rules := []*analysis.Analyzer{
		rule("A", "fact", func() { <-cStarted }),
		rule("B", "fact", func() {}),
		rule("C", "", func() { close(cStarted) }),
	}
	ws := workspace.New(dir)
	if _, err := analysis.RunContext(context.Background(), ws, path, analysis.Options{Analyzers: rules, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	// A worker is handed B only once it is done with A (which waits for C)
	// or with C: B starts after C, though A may start after both.
	if slices.Index(started, "C") > slices.Index(started, "B") {
		t.Errorf("rules started in the order %v, want the second sharer B after C", started)
	}
}
