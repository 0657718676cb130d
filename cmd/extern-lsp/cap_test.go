package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

// capTree writes an extern with n `set_ffts_base_addr` calls (EXT007
// errors on A2/A3), one a line; every line i with suppressed(i) carries a
// NOLINT for the rule. The configuration caps the findings at max.
func capTree(t *testing.T, n, max int, suppressed func(int) bool) {
	t.Helper()
	pinRules(t, rules.FFTSBaseReset)
	t.Chdir(t.TempDir())
	var b strings.Builder
	b.WriteString("extern \"C\" __global__ __aicore__ void big(__gm__ int64_t *args) {\n")
	for i := range n {
		b.WriteString("  AscendC::SetSyncBaseAddr(0);")
		if suppressed(i) {
			b.WriteString(" // NOLINT(EXT007)")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	os.WriteFile("big.cpp", []byte(b.String()), 0o644)
	os.WriteFile("extern-lsp.toml", []byte("arch = \"a2a3\"\nmax-findings-per-rule = "+itoa(max)+"\n"), 0o644)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func none(int) bool { return false }

// Past max-findings-per-rule the findings are counted, not listed: one
// note says how many, the exit code and the summary count them all, and
// --statistics says how many were not listed. Suppressed findings do not
// use up the cap.
func TestMaxFindingsPerRuleCLI(t *testing.T) {
	capTree(t, 40, 5, func(i int) bool { return i%4 == 0 })
	r := runGuarded(t, "--no-progress", ".")
	if got := strings.Count(r.stdout, "[EXT007 ffts-base-reset]"); got != 5 {
		t.Errorf("%d findings listed, want 5:\n%s", got, r.stdout)
	}
	note := "big.cpp:9:3: info: EXT007: 25 more findings of ffts-base-reset in this file are not listed (max-findings-per-rule = 5) [EXT000 findings-not-listed]"
	if !strings.Contains(r.stdout, note) {
		t.Errorf("no note %q:\n%s", note, r.stdout)
	}
	if sum := "1 file checked: 30 errors, 0 warnings, 0 infos (25 not listed: max-findings-per-rule)"; !strings.Contains(r.stdout, sum) || r.code != 1 {
		t.Errorf("exit %d, want 1 and the summary %q:\n%s", r.code, sum, r.stdout)
	}
	r = runGuarded(t, "--no-progress", "--statistics", "--format", "concise", ".")
	for _, want := range []string{"findings not listed          25", "   30  EXT007      ffts-base-reset  (25 not listed)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("statistics without %q:\n%s", want, r.stdout)
		}
	}
	// The command line overrides the configuration; 0 lists everything.
	r = runGuarded(t, "--no-progress", "--max-findings-per-rule", "0", ".")
	if got := strings.Count(r.stdout, "[EXT007 ffts-base-reset]"); got != 30 || strings.Contains(r.stdout, "not listed") {
		t.Errorf("no cap: %d findings listed:\n%s", got, r.stdout)
	}
	r = runGuarded(t, "--no-progress", "--max-findings-per-rule", "28", "--format", "json", ".")
	var doc struct {
		Diagnostics []jsonDiag `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Diagnostics); n != 29 {
		t.Fatalf("json: %d diagnostics, want 28 and a note", n)
	}
	last := doc.Diagnostics[28]
	if u := last.Unlisted; u == nil || *u != (jsonUnlisted{Code: "EXT007", Name: "ffts-base-reset", Count: 2, Max: 28}) || last.Code != "EXT000" {
		t.Errorf("json note %+v", last)
	}
	if r := runGuarded(t, "--max-findings-per-rule", "-3", "."); r.code != 2 || !strings.Contains(r.stderr, "--max-findings-per-rule -3") {
		t.Errorf("negative flag: exit %d %s", r.code, r.stderr)
	}
}

// A bad max-findings-per-rule stops the run with the key named.
func TestMaxFindingsPerRuleConfig(t *testing.T) {
	capTree(t, 2, 5, none)
	for _, v := range []string{"-1", "\"many\"", "2.5"} {
		os.WriteFile("extern-lsp.toml", []byte("max-findings-per-rule = "+v+"\n"), 0o644)
		r := runGuarded(t, ".")
		if r.code != 2 || !strings.Contains(r.stderr, `key "max-findings-per-rule": bad value`) {
			t.Errorf("%s: exit %d %s", v, r.code, r.stderr)
		}
	}
}

// --fix fixes every finding, the ones past the cap too; a baseline
// records them all and then silences them all.
func TestMaxFindingsPerRuleFixAndBaseline(t *testing.T) {
	capTree(t, 30, 4, none)
	if r := runGuarded(t, "--write-baseline", "b.json", "."); r.code != 0 || !strings.Contains(r.stderr, "wrote 30 finding(s)") {
		t.Fatalf("write-baseline: exit %d %s", r.code, r.stderr)
	}
	if r := runGuarded(t, "--no-progress", "--baseline", "b.json", "."); r.code != 0 || strings.Contains(r.stdout, "EXT0") {
		t.Errorf("baseline: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Baselined findings do not use up the cap either: two new ones past
	// the 30 recorded are listed.
	src := readString(t, "big.cpp")
	os.WriteFile("big.cpp", []byte(strings.Replace(src, "{\n", "{\n  AscendC::SetSyncBaseAddr(1);\n  AscendC::SetSyncBaseAddr(2);\n", 1)), 0o644)
	r := runGuarded(t, "--no-progress", "--format", "concise", "--baseline", "b.json", ".")
	if r.code != 1 || strings.Count(r.stdout, "EXT007") != 2 || strings.Contains(r.stdout, "not listed") {
		t.Errorf("baseline with new findings: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile("big.cpp", []byte(src), 0o644)
	r = runGuarded(t, "--no-progress", "--fix", "--unsafe-fixes", ".")
	if got := strings.Count(readString(t, "big.cpp"), "SetSyncBaseAddr"); got != 0 || r.code != 0 {
		t.Errorf("--fix left %d calls of 30 (exit %d)\n%s%s", got, r.code, r.stdout, r.stderr)
	}
}
