package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// -update rewrites the golden files (and docs/rules.md) from the current
// output; review the diff before committing it.
var update = flag.Bool("update", false, "rewrite golden files")

const checkData = "../../testdata/check"

// pinRules makes check run (and SARIF describe) only the given rules, so
// goldens do not move when rules land.
func pinRules(t *testing.T, as ...*analysis.Analyzer) {
	t.Helper()
	old := pinnedRules
	pinnedRules = as
	t.Cleanup(func() { pinnedRules = old })
}

// pinnedRules are the rules of the invocations tests make (nil: every rule).
var pinnedRules []*analysis.Analyzer

// testCLI is an invocation writing to out and errb and reading stdin.
func testCLI(stdin io.Reader, out, errb io.Writer) *cli {
	as := pinnedRules
	if as == nil {
		as = rules.All()
	}
	return &cli{stdin: stdin, stdout: out, stderr: errb, rules: as}
}

type runResult struct {
	code           int
	stdout, stderr string
}

func runCmd(args ...string) runResult { return runCmdStdin(nil, args...) }

func runCmdStdin(stdin io.Reader, args ...string) runResult {
	var out, errb bytes.Buffer
	code := testCLI(stdin, &out, &errb).run(args)
	return runResult{code, out.String(), errb.String()}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(checkData, "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./cmd/extern-lsp -run %s -update` to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the output (if the change is intended: go test ./cmd/extern-lsp -run %s -update)\n%s",
			path, t.Name(), unifiedDiff("want", "got", want, []byte(got)))
	}
}

// frozenDoc is a copy of a rule with a fixed doc, so the SARIF golden
// (which embeds rule docs) does not move when the rule's owner edits them.
func frozenDoc(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Doc = analysis.Doc{Summary: "summary of " + a.Code, What: "what " + a.Code + " does", Why: "why it matters",
		Example: "bad();", UseInstead: "good();", FixSafety: "safe", Guide: "§0"}
	return &c
}

func TestCheckGoldens(t *testing.T) {
	// EXT900 stays itself: its pass is installed by identity.
	pinRules(t, frozenDoc(rules.SyncAllAIVOnly), rules.UnusedSuppression)
	t.Chdir(checkData)
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"text.golden", []string{"check", "tree"}, 1},
		{"concise.golden", []string{"check", "--format", "concise", "tree"}, 1},
		{"json.golden", []string{"check", "--format", "json", "tree"}, 1},
		{"sarif.golden", []string{"check", "--format", "sarif", "tree"}, 1},
		{"github.golden", []string{"check", "--format", "github", "tree"}, 1},
		{"strict.golden", []string{"check", "--strict", "--stats", "tree"}, 1},
		{"quiet.golden", []string{"check", "--quiet", "--format", "concise", "tree/kernels/aiv", "tree/kernels/mixed/entry.cpp"}, 1},
		{"clean.golden", []string{"check", "tree/kernels/aiv"}, 0},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.name, ".golden"), func(t *testing.T) {
			r := runCmd(tc.args...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, tc.code, r.stderr)
			}
			if r.stderr != "" {
				t.Errorf("stderr: %s", r.stderr)
			}
			golden(t, tc.name, r.stdout)
		})
	}
}

// The SARIF output validates against the official SARIF 2.1.0 schema.
func TestSARIFSchema(t *testing.T) {
	pinRules(t, rules.All()...)
	t.Chdir(checkData)
	schemaFile, err := filepath.Abs("sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--format", "sarif", "--strict", "tree"},
		{"check", "--format", "sarif", "../realistic"},
		{"check", "--format", "sarif", "tree/kernels/aiv"},
	} {
		r := runCmd(args...)
		if r.code == 2 {
			t.Fatalf("%v: %s", args, r.stderr)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
		if err != nil {
			t.Fatalf("%v: not JSON: %v", args, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%v: SARIF does not validate: %v", args, err)
		}
		var log sarifLog
		json.Unmarshal([]byte(r.stdout), &log)
		if len(log.Runs) != 1 || len(log.Runs[0].Tool.Driver.Rules) != len(rules.All()) {
			t.Errorf("%v: want one run describing every rule", args)
		}
	}
}

// The JSON output keeps the public contract's exact shape.
func TestJSONContract(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	t.Chdir(checkData)
	r := runCmd("check", "--format", "json", "tree")
	var out map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) string { return strings.Join(slices.Sorted(maps.Keys(m)), ",") }
	if got := keys(out); got != "diagnostics,files_checked" {
		t.Errorf("top-level keys %s", got)
	}
	d := out["diagnostics"].([]any)[0].(map[string]any)
	if got := keys(d); got != "code,column,end_column,end_line,file,fixes,line,message,name,related,severity" {
		t.Errorf("diagnostic keys %s", got)
	}
	f := d["fixes"].([]any)[0].(map[string]any)
	if got := keys(f); got != "applicability,edits,title" {
		t.Errorf("fix keys %s", got)
	}
	e := f["edits"].([]any)[0].(map[string]any)
	if got := keys(e); got != "column,end_column,end_line,file,line,new_text" {
		t.Errorf("edit keys %s", got)
	}
}

// copyTree copies a fixture tree into a temporary folder.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	analysistest.CopyTree(t, src, dst)
	return dst
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = string(data)
		}
		return nil
	})
	return out
}

func parseErrors(t *testing.T, path, src string) int {
	t.Helper()
	f, err := grammar.ParseFile(context.Background(), nil, path, []byte(src), nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer f.Close()
	return f.Tree.ErrorCount()
}

type jsonOut struct {
	Diagnostics []jsonDiag `json:"diagnostics"`
}

// --fix on the realistic mixed kernel removes every finding that has a safe
// fix, keeps every file parsing as well as before, and is idempotent; --diff
// prints the same change as a patch that `patch -p1` applies.
func TestFixRealisticKernel(t *testing.T) {
	pinRules(t, rules.All()...)
	for _, tree := range []string{"../../testdata/realistic", "../../examples/traps"} {
		t.Run(filepath.Base(tree), func(t *testing.T) { testFixTree(t, tree) })
	}
}

func testFixTree(t *testing.T, tree string) {
	realistic, _ := filepath.Abs(tree)
	if _, err := os.Stat(realistic); err != nil {
		t.Skip(err)
	}
	for _, unsafe := range []bool{false, true} {
		name := "safe"
		flags := []string{"check", "--fix"}
		if unsafe {
			name = "unsafe"
			flags = append(flags, "--unsafe-fixes")
		}
		t.Run(name, func(t *testing.T) {
			dir := copyTree(t, realistic)
			t.Chdir(dir)
			before := snapshot(t, ".")
			first := runCmd(append(flags, "--format", "json", ".")...)
			if first.code == 2 {
				t.Fatal(first.stderr)
			}
			after := snapshot(t, ".")
			changed := 0
			for p, src := range after {
				if src != before[p] {
					changed++
					if _, ok := grammar.LangOf(p); ok && parseErrors(t, p, src) > parseErrors(t, p, before[p]) {
						t.Errorf("%s: --fix added parse errors:\n%s", p, src)
					}
				}
			}
			if changed == 0 {
				t.Fatal("--fix changed nothing: the realistic kernel has fixable findings")
			}
			var rest jsonOut
			if err := json.Unmarshal([]byte(first.stdout), &rest); err != nil {
				t.Fatal(err)
			}
			for _, d := range rest.Diagnostics {
				for _, f := range d.Fixes {
					if f.Applicability == "safe" || (unsafe && f.Applicability == "unsafe") {
						t.Errorf("left a fixable finding: %s:%d %s %s (%s)", d.File, d.Line, d.Code, d.Message, f.Applicability)
					}
				}
			}
			second := runCmd(append(flags, ".")...)
			if second.code != first.code {
				t.Errorf("second run exit %d, first %d", second.code, first.code)
			}
			if again := snapshot(t, "."); !equalMaps(again, after) {
				t.Error("a second --fix changed files")
			}
			if strings.Contains(second.stderr, "fixed") {
				t.Errorf("second run reports fixes: %s", second.stderr)
			}

			// --diff on a fresh copy writes nothing and patches to the same result.
			fresh := copyTree(t, realistic)
			t.Chdir(fresh)
			diffFlags := []string{"check", "--diff"}
			if unsafe {
				diffFlags = append(diffFlags, "--unsafe-fixes")
			}
			d := runCmd(append(diffFlags, ".")...)
			if d.code != 1 {
				t.Errorf("--diff exit %d, want 1 (findings remain on disk)", d.code)
			}
			if !equalMaps(snapshot(t, "."), before) {
				t.Fatal("--diff wrote files")
			}
			if _, err := exec.LookPath("patch"); err != nil {
				t.Skip("no patch program")
			}
			cmd := exec.Command("patch", "-p1", "--quiet")
			cmd.Stdin = strings.NewReader(d.stdout)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch -p1 failed: %v\n%s\n%s", err, out, d.stdout)
			}
			if !equalMaps(snapshot(t, "."), after) {
				t.Error("the patched tree differs from the --fix result")
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Conflicting edits: of two fixes touching the same bytes one is applied per
// round, and the fixed point still gets both findings.
func TestFixMergesAndConflicts(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	r := runCmd("check", "--fix", ".")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	src, _ := os.ReadFile("kernels/mixed/entry.cpp")
	if n := strings.Count(string(src), "SyncAll<false>()"); n != 3 {
		t.Errorf("want 3 fixed barriers, got %d:\n%s", n, src)
	}
	hdr, _ := os.ReadFile("kernels/mixed/barrier.h")
	if !strings.Contains(string(hdr), "AscendC::SyncAll<false>();") {
		t.Errorf("the included header was not fixed:\n%s", hdr)
	}
	if !strings.Contains(r.stderr, "fixed 3 finding(s) in 3 file(s)") {
		t.Errorf("stderr: %s", r.stderr)
	}
	// Unchanged files keep their modification time: never rewritten.
	if gen, _ := os.ReadFile("kernels/gen_entry.cpp"); !strings.Contains(string(gen), "AscendC::SyncAll();") {
		t.Error("a generated file was fixed")
	}
}

var oneLineRE = regexp.MustCompile(`^extern-lsp check: [^\n]+\n$`)

// Every input problem exits 2 with one line on stderr naming it, prints
// nothing on stdout and writes nothing.
func TestExitTwo(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	cases := []struct {
		name  string
		setup func(dir string)
		args  []string
		want  string
	}{
		{"config unknown key", func(dir string) {
			os.WriteFile(filepath.Join(dir, "extern-lsp.toml"), []byte("selekt = [\"EXT004\"]\n"), 0o644)
		}, []string{"--fix", "."}, `extern-lsp.toml: key "selekt": unknown key (did you mean "select"?)`},
		{"config bad value", func(dir string) {
			os.WriteFile(filepath.Join(dir, "kernels", "pyproject.toml"), []byte("[tool.extern-lsp]\nreserved-flags = [8, 99]\n"), 0o644)
		}, []string{"--fix", "."}, `pyproject.toml: key "tool.extern-lsp.reserved-flags": bad flag id 99`},
		{"config override missing", nil, []string{"--fix", "--config", "nope.toml", "."}, `nope.toml: no such file`},
		{"missing path", nil, []string{"--fix", ".", "no/such/dir"}, `no/such/dir: no such file or directory`},
		{"unknown rule code", nil, []string{"--fix", "--select", "EXT004,EXT999", "."}, `unknown rule "EXT999"`},
		{"unknown format", nil, []string{"--format", "xml", "."}, `unknown --format "xml"`},
		{"missing baseline", nil, []string{"--fix", "--baseline", "nope.json", "."}, `baseline nope.json: no such file`},
		{"baseline with fix", nil, []string{"--fix", "--write-baseline", "b.json", "."}, `--write-baseline records findings as they are`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join(checkData, "tree"))
			if tc.setup != nil {
				tc.setup(dir)
			}
			t.Chdir(dir)
			before := snapshot(t, ".")
			r := runCmd(append([]string{"check"}, tc.args...)...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2", r.code)
			}
			if !oneLineRE.MatchString(r.stderr) || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q, want one line containing %q", r.stderr, tc.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout: %s", r.stdout)
			}
			if !equalMaps(snapshot(t, "."), before) {
				t.Error("files were written")
			}
		})
	}
	if os.Getuid() != 0 {
		t.Run("permission denied", func(t *testing.T) {
			dir := copyTree(t, filepath.Join(checkData, "tree"))
			t.Chdir(dir)
			os.Chmod("kernels/aiv/entry.cpp", 0)
			defer os.Chmod("kernels/aiv/entry.cpp", 0o644)
			r := runCmd("check", "--fix", ".")
			if r.code != 2 || !strings.Contains(r.stderr, "kernels/aiv/entry.cpp: permission denied") {
				t.Errorf("exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}

// Baseline: recorded findings pass, survive edits above them, a new finding
// fails, and fixed ones are reported as stale.
func TestBaseline(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	if r := runCmd("check", "--write-baseline", "baseline.json", "."); r.code != 0 || !strings.Contains(r.stderr, "wrote 4 finding(s)") {
		t.Fatalf("write: exit %d %s", r.code, r.stderr)
	}
	if r := runCmd("check", "--baseline", "baseline.json", "."); r.code != 0 || r.stderr != "" {
		t.Fatalf("baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	entry := "kernels/mixed/entry.cpp"
	src, _ := os.ReadFile(entry)
	edited := strings.Replace(string(src), "#include \"barrier.h\"\n", "#include \"barrier.h\"\n\n// New helpers.\nconstexpr int kTiles = 2;\n\n", 1)
	os.WriteFile(entry, []byte(edited), 0o644)
	if r := runCmd("check", "--baseline", "baseline.json", "."); r.code != 0 {
		t.Fatalf("lines inserted above: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A second, identical barrier in the same function is a new finding.
	os.WriteFile(entry, []byte(strings.Replace(edited, "  AscendC::SyncAll<>();\n", "  AscendC::SyncAll<>();\n  AscendC::SyncAll<>();\n", 1)), 0o644)
	r := runCmd("check", "--format", "concise", "--baseline", "baseline.json", ".")
	if r.code != 1 || strings.Count(r.stdout, "EXT004") != 1 {
		t.Fatalf("new finding: exit %d\n%s", r.code, r.stdout)
	}
	// Fixing a recorded finding leaves a stale entry.
	os.WriteFile(entry, []byte(strings.Replace(edited, "SyncAll<true>()", "SyncAll<false>()", 1)), 0o644)
	r = runCmd("check", "--baseline", "baseline.json", ".")
	if r.code != 0 || !strings.Contains(r.stderr, "1 stale baseline entry") || !strings.Contains(r.stderr, "kernels/mixed/entry.cpp: EXT004") {
		t.Errorf("stale: exit %d, stderr %s", r.code, r.stderr)
	}
	// SARIF marks baselined results as externally suppressed.
	r = runCmd("check", "--format", "sarif", "--baseline", "baseline.json", ".")
	if !strings.Contains(r.stdout, `"kind": "external"`) || !strings.Contains(r.stdout, `"kind": "inSource"`) {
		t.Errorf("sarif suppressions missing:\n%s", r.stdout)
	}
}

func TestExitCodeFlags(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	os.WriteFile("warn.toml", []byte("exclude = [\"skipped\"]\nextend-generated-markers = [\"AUTOGEN\"]\nseverity = { EXT004 = \"warning\" }\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--exit-zero", "."}, 0},
		{[]string{"--max-warnings", "10", "."}, 1}, // errors always fail
		{[]string{"--config", "warn.toml", "--max-warnings", "3", "."}, 0},
		{[]string{"--config", "warn.toml", "--max-warnings", "2", "."}, 1},
		{[]string{"--config", "warn.toml", "."}, 1},
		{[]string{"--ignore", "syncall-aiv-only", "."}, 0},
		{[]string{"--select", "EXT9", "."}, 0},
	} {
		if r := runCmd(append([]string{"check"}, tc.args...)...); r.code != tc.code {
			t.Errorf("%v: exit %d, want %d\n%s", tc.args, r.code, tc.code, r.stderr)
		}
	}
}

func TestStdin(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	t.Chdir(checkData)
	src := "#include \"kernel_operator.h\"\n#include \"barrier.h\"\n__aicore__ inline void c() { AscendC::Mmad(c, a, b, p); }\n" +
		"__aicore__ inline void v() { AscendC::PipeBarrier<PIPE_V>(); }\n" +
		"extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {\n  AscendC::SyncAll();\n}\n"
	r := runCmdStdin(strings.NewReader(src), "check", "--format", "concise", "--stdin-filename", "tree/kernels/mixed/buffer.cpp", "-")
	if r.code != 1 || !strings.Contains(r.stdout, "tree/kernels/mixed/buffer.cpp:6:3: error: EXT004 [*]") || strings.Contains(r.stdout, "entry.cpp") {
		t.Errorf("stdin check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmdStdin(strings.NewReader(src), "check", "--fix", "--format", "concise", "--stdin-filename", "tree/kernels/mixed/buffer.cpp", "-")
	if r.code != 0 || r.stdout != strings.Replace(src, "SyncAll()", "SyncAll<false>()", 1) {
		t.Errorf("stdin fix: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat("tree/kernels/mixed/buffer.cpp"); err == nil {
		t.Error("stdin fix wrote a file")
	}
	if r := runCmd("check", "-"); r.code != 2 {
		t.Errorf("- without --stdin-filename: exit %d", r.code)
	}
}

func TestGithubEscaping(t *testing.T) {
	if got := ghData("50% done\nnext"); got != "50%25 done%0Anext" {
		t.Errorf("data: %q", got)
	}
	if got := ghProp("a:b,c"); got != "a%3Ab%2Cc" {
		t.Errorf("prop: %q", got)
	}
}

// breaker offers, on each SyncAll call, a safe fix that edits the call and
// the included header; on `SyncAll<>()` the header edit breaks the parse.
var breaker = &analysis.Analyzer{
	Code: "EXT998", Name: "test-breaker", Severity: analysis.SeverityWarning, Lang: grammar.CPP,
	Run: func(p *analysis.Pass) {
		for _, n := range p.Nodes("call_expression") {
			text := n.Text()
			if !strings.Contains(text, "SyncAll") || strings.Contains(text, "false") || strings.HasPrefix(text, "phase_barrier") {
				continue
			}
			fix := analysis.Fix{Title: "rewrite", Applicability: analysis.Safe,
				Edits: []analysis.TextEdit{{Start: n.Start, End: n.End, NewText: "AscendC::SyncAll<false>()"}}}
			if strings.Contains(text, "<>") && len(p.Includes) > 0 {
				hdr := p.Includes[0]
				fix.Edits = append(fix.Edits, analysis.TextEdit{File: hdr.Path, Start: 0, End: 0, NewText: "int broken( {{\n"})
			}
			p.Report(analysis.Diagnostic{Start: n.Start, End: n.End, Message: "test", Fixes: []analysis.Fix{fix}})
		}
	},
}

// A fix that would add parse errors is dropped in every file it touches;
// the others still apply.
func TestFixDropsParseBreakingFixes(t *testing.T) {
	pinRules(t, breaker)
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	hdrBefore, _ := os.ReadFile("kernels/mixed/barrier.h")
	r := runCmd("check", "--fix", "--format", "concise", "kernels/mixed/entry.cpp")
	if r.code != 1 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	src, _ := os.ReadFile("kernels/mixed/entry.cpp")
	if !strings.Contains(string(src), "AscendC::SyncAll<>();") {
		t.Errorf("the parse-breaking fix was half applied:\n%s", src)
	}
	if strings.Count(string(src), "SyncAll<false>()") < 3 {
		t.Errorf("the other fixes were not applied:\n%s", src)
	}
	if hdr, _ := os.ReadFile("kernels/mixed/barrier.h"); string(hdr) != string(hdrBefore) {
		t.Errorf("header changed:\n%s", hdr)
	}
	// It remains, no longer marked fixable: --fix just refused its fix.
	if !strings.Contains(r.stdout, "entry.cpp:23:3: warning: EXT998 test") {
		t.Errorf("the unfixed finding should remain, unmarked:\n%s", r.stdout)
	}
}

// --diff with a baseline that records every finding: the diff is printed,
// and the exit code counts only findings the baseline does not cover.
func TestDiffWithBaseline(t *testing.T) {
	pinRules(t, rules.SyncAllAIVOnly)
	dir := copyTree(t, filepath.Join(checkData, "tree"))
	t.Chdir(dir)
	if r := runCmd("check", "--write-baseline", "b.json", "."); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r := runCmd("check", "--diff", "--baseline", "b.json", ".")
	if r.code != 0 || !strings.Contains(r.stdout, "+  AscendC::SyncAll<false>();") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestTraceEnvWritesATrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "check.trace")
	t.Setenv(traceEnv, path)
	if r := runCmd("check", "-j", "2", "--quiet", filepath.Join(checkData, "tree")); r.code == 2 {
		t.Fatalf("check failed: %s", r.stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("go 1.")) {
		t.Fatalf("%s is not an execution trace (%d bytes, starts %q)", path, len(data), data[:min(len(data), 16)])
	}
}
