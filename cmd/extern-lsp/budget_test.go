package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIncompleteExitCode (issue 31 item 13): a file whose analysis a rule
// did not finish (here every rule gets one step, EXTERN_LSP_STEPS) is
// listed on stderr, in JSON's not_fully_analysed and in SARIF's
// notifications, and check exits 3, not 0 or 1 as if it were checked;
// --allow-incomplete keeps the list and the usual exit code.
func TestIncompleteExitCode(t *testing.T) {
	dir := trapsTree(t)
	full := runBinary(t, dir, "check", "--no-progress", ".")
	if full.code != 1 || strings.Contains(full.stderr, "not fully analysed") {
		t.Fatalf("the traps with the default steps: exit %d, stderr %q; want 1 and no file left incomplete", full.code, full.stderr)
	}
	t.Setenv(stepsEnv, "1")
	r := runBinary(t, dir, "check", "--no-progress", ".")
	if r.code != ExitIncomplete {
		t.Errorf("one step per rule: exit %d, want %d\n%s", r.code, ExitIncomplete, r.stderr)
	}
	if !strings.Contains(r.stderr, "extern-lsp check: incomplete ") || !strings.Contains(r.stderr, "not fully analysed; exit code 3") {
		t.Errorf("one step per rule: stderr does not list the files:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "info: not fully analysed: ") {
		t.Errorf("one step per rule: no info on the file in the text output:\n%s", r.stdout)
	}
	if j := runBinary(t, dir, "check", "--no-progress", "--format", "json", "."); !strings.Contains(j.stdout, `"not_fully_analysed": [`) {
		t.Errorf("json: no not_fully_analysed list:\n%s", j.stdout)
	}
	if s := runBinary(t, dir, "check", "--no-progress", "--format", "sarif", "."); !strings.Contains(s.stdout, `"toolExecutionNotifications"`) {
		t.Errorf("sarif: no notification for the files not fully analysed")
	}
	if st := runBinary(t, dir, "check", "--no-progress", "--statistics", "."); !strings.Contains(st.stdout, "files not fully analysed") {
		t.Errorf("--statistics: no count of the files not fully analysed:\n%s", st.stdout)
	}
	allow := runBinary(t, dir, "check", "--no-progress", "--allow-incomplete", ".")
	if allow.code == ExitIncomplete || !strings.Contains(allow.stderr, "exit code not changed (--allow-incomplete)") {
		t.Errorf("--allow-incomplete: exit %d, stderr %q", allow.code, allow.stderr)
	}
}

// TestNULHeaderIsIncomplete (issue 31 item 12): a header with a NUL byte
// that an extern includes is not read; the extern is reported as not
// fully analysed (exit 3), naming the header, rather than checked without
// it in silence.
func TestNULHeaderIsIncomplete(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("blob.h", "#pragma once\nconstexpr int kFlag = 3;\x00\n")
	write("k.cpp", "#include \"blob.h\"\nextern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) { (void)args; }\n")
	r := runBinary(t, dir, "check", "--no-progress", "k.cpp")
	if r.code != ExitIncomplete || !strings.Contains(r.stderr, "blob.h holds a NUL byte") {
		t.Errorf("an extern including a binary header: exit %d, stderr %q; want %d and the header named", r.code, r.stderr, ExitIncomplete)
	}
}

// TestHelpListsExitCodes: check --help documents every exit code.
func TestHelpListsExitCodes(t *testing.T) {
	r := runBinary(t, t.TempDir(), "check", "--help")
	for _, want := range []string{"exit codes:", "  2  ", "  3  a file analysed only in part", "--allow-incomplete"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("check --help does not say %q:\n%s", want, r.stderr)
		}
	}
}

// TestSameOutputAnyJobs (issue 26 item 5): the analysis is bounded in
// steps, not time, so the examples and the rule fixtures give byte-identical
// output checked one file at a time and eight at once; so do the fixtures
// at 100 steps a rule, where the call-graph summaries some files' rules
// share run out of theirs (1,000: whichever rule, in whichever file, asks
// first).
func TestSameOutputAnyJobs(t *testing.T) {
	if testing.Short() {
		t.Skip("checks the example and fixture trees twice")
	}
	for _, tc := range []struct{ tree, steps, want string }{
		{"../../examples", "", `"code"`},
		{"../../analysis/rules/testdata", "", `"code"`},
		{"../../analysis/rules/testdata", "100", "(the shared unit.summaries it reads passed its 1,000 analysis steps)"},
	} {
		abs, err := filepath.Abs(tc.tree)
		if err != nil {
			t.Fatal(err)
		}
		if tc.steps != "" {
			t.Setenv(stepsEnv, tc.steps)
		}
		one := runBinary(t, abs, "check", "--no-progress", "--format", "json", "-j", "1", ".")
		eight := runBinary(t, abs, "check", "--no-progress", "--format", "json", "-j", "8", ".")
		if one.code != eight.code || one.stdout != eight.stdout {
			t.Errorf("%s (steps %q): -j 1 (exit %d) and -j 8 (exit %d) differ:\n%s", tc.tree, tc.steps, one.code, eight.code, unifiedDiff("-j 1", "-j 8", []byte(one.stdout), []byte(eight.stdout)))
		}
		if !strings.Contains(one.stdout, tc.want) {
			t.Errorf("%s (steps %q): no %s in the output: the test needs it", tc.tree, tc.steps, tc.want)
		}
	}
}
