// Package analysistest checks analyzers against fixture trees whose files
// say, on the flagged line, what they expect: `// want "regexp"` in C++,
// `# want "regexp"` in Python. A diagnostic with no matching want, and a want
// with no diagnostic, both fail the test, so false positives show.
package analysistest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Result is one file's diagnostics.
type Result struct {
	File  string
	Diags []analysis.Diagnostic
}

var codeRE = regexp.MustCompile(`^EXT\d{3}\b`)

type want struct {
	re      *regexp.Regexp
	matched bool
}

var wantRE = regexp.MustCompile(`(?://|#).*?\bwant\s+((?:"(?:[^"\\]|\\.)*"|` + "`[^`]*`" + `|\s)+)\s*$`)

// Files lists the fixture sources under dir.
func Files(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if _, ok := grammar.LangOf(p); ok {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Run runs the analyzers on every source under dir and checks the wants.
func Run(t testing.TB, dir string, analyzers ...*analysis.Analyzer) []Result {
	t.Helper()
	return RunOptions(t, dir, allOn(analyzers))
}

func allOn(analyzers []*analysis.Analyzer) analysis.Options {
	return analysis.Options{Analyzers: analyzers, Enabled: func(*analysis.Analyzer) bool { return true }}
}

// RunOptions is Run with explicit driver options, for rules that need more
// than Analyzers (Settings, a rule that judges the others). opts.Analyzers are the rules
// under test.
func RunOptions(t testing.TB, dir string, opts analysis.Options) []Result {
	t.Helper()
	analyzers := opts.Analyzers
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	ws := workspace.New(abs)
	var results []Result
	got := map[string][]analysis.Diagnostic{} // file:line -> diags
	for _, path := range Files(abs) {
		diags, err := analysis.Run(ws, path, opts)
		if err != nil {
			t.Errorf("%s: %v", rel(abs, path), err)
			continue
		}
		results = append(results, Result{File: path, Diags: diags})
		for _, d := range diags {
			if d.Code == analysis.InternalCode {
				t.Errorf("%s: %s", rel(abs, path), d.Message)
				continue
			}
			src, _ := ws.Source(d.File)
			line, _ := grammar.NewLines(src).Position(d.Start)
			key := fmt.Sprintf("%s:%d", d.File, line+1)
			got[key] = append(got[key], d)
		}
	}
	underTest := map[string]bool{}
	for _, a := range analyzers {
		underTest[a.Code] = true
	}
	wants := map[string][]*want{}
	for _, path := range Files(abs) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			m := wantRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			key := fmt.Sprintf("%s:%d", path, i+1)
			for _, pat := range splitQuoted(m[1]) {
				// A want that names another rule's code belongs to that
				// rule's test: fixtures can be shared between rules.
				if c := codeRE.FindString(pat); c != "" && !underTest[c] {
					continue
				}
				re, err := regexp.Compile(pat)
				if err != nil {
					t.Fatalf("%s: bad want regexp %q: %v", key, pat, err)
				}
				wants[key] = append(wants[key], &want{re: re})
			}
		}
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
	next:
		for _, d := range got[key] {
			text := d.Code + " " + d.Name + ": " + d.Message
			// A want may also pin the severity: "info: EXT001 ...".
			withSeverity := d.Severity.String() + ": " + text
			for _, w := range wants[key] {
				if !w.matched && (w.re.MatchString(text) || w.re.MatchString(withSeverity)) {
					w.matched = true
					continue next
				}
			}
			t.Errorf("%s: unexpected diagnostic: %s", rel(abs, key), text)
		}
	}
	var wkeys []string
	for k := range wants {
		wkeys = append(wkeys, k)
	}
	sort.Strings(wkeys)
	for _, key := range wkeys {
		for _, w := range wants[key] {
			if !w.matched {
				t.Errorf("%s: no diagnostic matched want %q", rel(abs, key), w.re)
			}
		}
	}
	return results
}

// RunWithFixes runs the fixture like Run, then applies every fix that is
// not display-only, one at a time, and checks that the finding is gone and
// the file parses with no new ERROR nodes.
func RunWithFixes(t *testing.T, dir string, analyzers ...*analysis.Analyzer) []Result {
	t.Helper()
	return RunWithFixesOptions(t, dir, allOn(analyzers))
}

// RunWithFixesOptions is RunWithFixes with explicit driver options.
func RunWithFixesOptions(t *testing.T, dir string, opts analysis.Options) []Result {
	t.Helper()
	results := RunOptions(t, dir, opts)
	abs, _ := filepath.Abs(dir)
	for _, r := range results {
		for _, d := range r.Diags {
			for _, fix := range d.Fixes {
				if fix.Applicability == analysis.DisplayOnly {
					continue
				}
				checkFix(t, abs, r, d, fix, opts)
			}
		}
	}
	return results
}

func checkFix(t *testing.T, root string, r Result, d analysis.Diagnostic, fix analysis.Fix, opts analysis.Options) {
	t.Helper()
	ws := workspace.New(root)
	before, err := ws.File(d.File)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, e := range fix.Edits {
		files[e.File] = true
	}
	for file := range files {
		src, err := ws.Source(file)
		if err != nil {
			t.Fatal(err)
		}
		out, skipped := analysis.ApplyEdits(src, file, fix.Edits)
		if skipped > 0 {
			t.Errorf("%s: fix %q has overlapping edits", rel(root, d.File), fix.Title)
		}
		ws.SetOverlay(file, out, 1)
	}
	after, err := ws.File(d.File)
	if err != nil {
		t.Fatal(err)
	}
	countBefore := 0
	for _, x := range r.Diags {
		if x.Code == d.Code && x.File == d.File {
			countBefore++
		}
	}
	diags, err := analysis.Run(ws, d.File, opts)
	if err != nil {
		t.Fatal(err)
	}
	countAfter := 0
	for _, x := range diags {
		if x.Code == d.Code && x.File == d.File {
			countAfter++
		}
	}
	line, _ := before.Lines.Position(d.Start)
	where := fmt.Sprintf("%s:%d", rel(root, d.File), line+1)
	if countAfter >= countBefore {
		t.Errorf("%s: after fix %q, %s still reported (%d before, %d after)\n%s", where, fix.Title, d.Code, countBefore, countAfter, after.Src)
	}
	if after.Tree.ErrorCount() > before.Tree.ErrorCount() {
		t.Errorf("%s: fix %q introduced parse errors:\n%s", where, fix.Title, after.Src)
	}
}

func splitQuoted(s string) []string {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		switch s[0] {
		case '"':
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return out
			}
			if u, err := strconv.Unquote(s[:end+1]); err == nil {
				out = append(out, u)
			}
			s = strings.TrimSpace(s[end+1:])
		case '`':
			end := strings.IndexByte(s[1:], '`')
			if end < 0 {
				return out
			}
			out = append(out, s[1:1+end])
			s = strings.TrimSpace(s[end+2:])
		default:
			return out
		}
	}
	return out
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return r
	}
	return p
}

// CopyTree copies the fixture tree src into dst (created as needed), so a
// test can edit or fix files without touching the repository.
func CopyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// HeaderChain writes n one-line headers h0.hpp .. h{n-1}.hpp into dir,
// each including the next (issue 31's header chain); the entry that
// includes h0.hpp is ChainEntry.
func HeaderChain(t testing.TB, dir string, n int) {
	t.Helper()
	for i := range n {
		src := fmt.Sprintf("#include \"h%d.hpp\"\n", i+1)
		if i == n-1 {
			src = "int last;\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("h%d.hpp", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// ChainEntry is an extern including the first header of a HeaderChain.
const ChainEntry = "#include \"h0.hpp\"\nextern \"C\" __global__ __aicore__ void kernel_entry(__gm__ int64_t *args) {}\n"
