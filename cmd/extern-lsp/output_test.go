package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// trapsTree copies examples/traps (every rule once, notes included).
func trapsTree(t *testing.T) string {
	t.Helper()
	return copyTree(t, "../../examples/traps")
}

// TestOutputFormats runs the binary with each --output-format name (ruff's
// and ours) over the same tree: the machine formats carry every finding and
// every related note the text format prints.
func TestOutputFormats(t *testing.T) {
	dir := trapsTree(t)
	text := runBinary(t, dir, "check", "--no-progress", ".")
	if text.code != 1 {
		t.Fatalf("check: exit %d\n%s", text.code, text.stderr)
	}
	notes := regexp.MustCompile(`(?m)^\S+:\d+:\d+: note: `).FindAllString(text.stdout, -1)
	if len(notes) == 0 {
		t.Fatal("the traps print no notes: the test needs some")
	}
	if full := runBinary(t, dir, "check", "--no-progress", "--output-format", "full", "."); full.stdout != text.stdout {
		t.Errorf("--output-format full differs from --format text:\n%s", unifiedDiff("text", "full", []byte(text.stdout), []byte(full.stdout)))
	}

	r := runBinary(t, dir, "check", "--output-format", "json", ".")
	var doc struct {
		Diagnostics []jsonDiag `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, r.stdout)
	}
	related := 0
	for _, d := range doc.Diagnostics {
		related += len(d.Related)
		for _, rel := range d.Related {
			if rel.File == "" || rel.Line < 1 || rel.Message == "" {
				t.Errorf("%s %s: incomplete related location %+v", d.File, d.Code, rel)
			}
		}
	}
	if related != len(notes) {
		t.Errorf("json has %d related locations, the text prints %d notes", related, len(notes))
	}

	r = runBinary(t, dir, "check", "--output-format", "json-lines", ".")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != len(doc.Diagnostics) {
		t.Fatalf("json-lines: %d lines for %d findings", len(lines), len(doc.Diagnostics))
	}
	for i, l := range lines {
		var d jsonDiag
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("json-lines line %d: %v: %s", i+1, err, l)
		}
		if d.Code != doc.Diagnostics[i].Code || d.Line != doc.Diagnostics[i].Line || len(d.Related) != len(doc.Diagnostics[i].Related) {
			t.Errorf("json-lines line %d = %s %d, json has %s %d", i+1, d.Code, d.Line, doc.Diagnostics[i].Code, doc.Diagnostics[i].Line)
		}
	}

	r = runBinary(t, dir, "check", "--output-format", "grouped", ".")
	entry := filepath.Join("kernels", "topk_mix", "topk_entry.cpp")
	for _, want := range []string{entry + ":\n  ", "\ntopk_ops.py:\n  ", "files checked"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("grouped: no %q in\n%s", want, r.stdout)
		}
	}
	if got := regexp.MustCompile(`(?m)^  \d+:\d+ +\w+: EXT\d+`).FindAllString(r.stdout, -1); len(got) != len(doc.Diagnostics) {
		t.Errorf("grouped: %d finding lines, want %d", len(got), len(doc.Diagnostics))
	}

	r = runBinary(t, dir, "check", "--output-format", "pylint", ".")
	if got := regexp.MustCompile(`(?m)^\S+:\d+: \[EXT\d+\] `).FindAllString(r.stdout, -1); len(got) != len(doc.Diagnostics) {
		t.Errorf("pylint: %d lines, want %d\n%s", len(got), len(doc.Diagnostics), r.stdout)
	}
	r = runBinary(t, dir, "check", "--output-format", "azure", ".")
	if got := regexp.MustCompile(`(?m)^##vso\[task\.logissue type=(error|warning);sourcepath=[^;]+;linenumber=\d+;columnnumber=\d+;code=EXT\d+;\]`).FindAllString(r.stdout, -1); len(got) != len(doc.Diagnostics) {
		t.Errorf("azure: %d lines, want %d\n%s", len(got), len(doc.Diagnostics), r.stdout)
	}
	for _, f := range []string{"github", "sarif", "concise"} {
		if r := runBinary(t, dir, "check", "--output-format", f, "."); r.code != 1 || r.stdout == "" {
			t.Errorf("--output-format %s: exit %d, stdout %d bytes", f, r.code, len(r.stdout))
		}
	}
	r = runBinary(t, dir, "check", "--output-format", "junit", ".")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown --format "junit"`) {
		t.Errorf("junit: exit %d, %s", r.code, r.stderr)
	}
}

// TestStatistics: --statistics (and --stats) report files, units, parse
// errors, files not parsed, unresolved includes and findings per rule; in
// JSON as an object.
func TestStatistics(t *testing.T) {
	dir := trapsTree(t)
	// A header no extern compiles (not parsed: check does not read it),
	// with one include nobody has, and a Python file that does not parse
	// (every Python file is parsed).
	broken := "#include \"no_such_header.h\"\n__aicore__ inline void f( { int x = ; }\n"
	if err := os.WriteFile(filepath.Join(dir, "kernels", "broken.h"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels", "broken.py"), []byte("def f(:\n    return\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, "check", "--statistics", "--quiet", ".")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^files analysed +5$`),
		regexp.MustCompile(`(?m)^units +1  \(`),
		// Units per launch model: the traps entry is named by its stub.
		regexp.MustCompile(`(?m)^  pypto externs +1  \(.*\)\n +kernels/topk_mix/topk_entry\.cpp$`),
		regexp.MustCompile(`(?m)^  standalone kernels +0$`),
		// The traps kernel splits its cores on the dav-c220 macros: A2/A3.
		regexp.MustCompile(`(?m)^units of unknown chip +0$`),
		regexp.MustCompile(`(?m)^files with parse errors +1  \(`),
		regexp.MustCompile(`(?m)^unresolved #includes +2  \(`),
		regexp.MustCompile(`(?m)^findings by rule:\n +\d+  EXT\d+ `),
		regexp.MustCompile(`(?m)^ +1  EXT004  \[\*\] syncall-aiv-only$`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("--statistics: no %s in\n%s", want, r.stdout)
		}
	}
	// Each count names its files: the first few in text, under the count.
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^files with parse errors +1  \(.*\)\n +kernels/broken\.py$`),
		regexp.MustCompile(`(?m)^files not parsed +1  \(.*\)\n +kernels/broken\.h$`),
		regexp.MustCompile(`(?m)^unresolved #includes +2  \(.*\)\n +.*kernels/broken\.h:1: "no_such_header\.h"`),
		regexp.MustCompile(`(?m)^units +1  \(.*\)\n +kernels/topk_mix/topk_entry\.cpp$`),
		regexp.MustCompile(`(?m)^files analysed +5\n +\S+, \S+, \S+ and 2 more$`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("--statistics: no %s in\n%s", want, r.stdout)
		}
	}
	// --stats is the same flag (compared on the counters: the findings
	// above them are the rules' business).
	counters := func(out string) string {
		if i := strings.Index(out, "\nfiles analysed"); i >= 0 {
			out = out[i:]
		}
		if i := strings.Index(out, "\nfindings by rule:"); i >= 0 {
			out = out[:i]
		}
		return out
	}
	if alias := runBinary(t, dir, "check", "--stats", "--quiet", "."); counters(alias.stdout) != counters(r.stdout) {
		t.Errorf("--stats differs from --statistics:\n%s", unifiedDiff("statistics", "stats", []byte(counters(r.stdout)), []byte(counters(alias.stdout))))
	}
	doc := jsonStatistics(t, dir)
	got := doc.counters()
	want := map[string]int{"files_analysed": 5, "units": 1, "units_unknown_target": 0, "files_with_parse_errors": 1, "files_not_parsed": 1, "unresolved_includes": 2}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("json statistics %s = %d, want %d (%v)", k, got[k], n, got)
		}
	}
	if len(doc.Rules) == 0 {
		t.Error("json statistics: no findings_by_rule")
	}
	// JSON names every file behind every count.
	for _, c := range doc.Counters {
		if c.Key != "unevaluated_include_dirs" && c.Key != "findings_not_listed" && len(c.Files) != c.N {
			t.Errorf("json statistics %s: %d files named for a count of %d: %q", c.Key, len(c.Files), c.N, c.Files)
		}
	}
	// Machine formats keep stdout to themselves: the table goes to stderr.
	r = runBinary(t, dir, "check", "--statistics", "--format", "sarif", ".")
	if !strings.Contains(r.stderr, "files analysed") || strings.Contains(r.stdout, "files analysed") {
		t.Errorf("sarif --statistics: stats on the wrong stream\nstderr: %s", r.stderr)
	}
}

// jsonStatistics runs `check --statistics --format json` over dir.
func jsonStatistics(t *testing.T, dir string) checkStats {
	t.Helper()
	r := runBinary(t, dir, "check", "--statistics", "--format", "json", ".")
	var doc struct {
		Statistics checkStats `json:"statistics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, r.stdout)
	}
	return doc.Statistics
}

// counters maps each counter's key to its count.
func (s checkStats) counters() map[string]int {
	got := map[string]int{}
	for _, c := range s.Counters {
		got[c.Key] = c.N
	}
	return got
}

// TestStatisticsSight: --statistics counts what the analysis could not
// see (macro uses it cannot read, unknown template arguments) and the
// fixes it offered as unsafe for it, in text and JSON.
func TestStatisticsSight(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "analysis", "rules", "testdata", "macros"))
	if err != nil {
		t.Fatal(err)
	}
	got := jsonStatistics(t, dir).counters()
	// Unread: the two uses of TRACED, whose other definition (built by
	// the switch) stringizes its argument, and two pasting uses: one
	// whose expansion returns (LEAVE_UNLESS), one whose expansion uses an
	// undefined macro (RUN_STEP). RUN_PHASE(cube)'s expansion is read.
	want := map[string]int{"macro_uses_undefined": 1, "macro_uses_unread": 4, "template_arguments_unknown": 1, "fixes_demoted": 4}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("json statistics %s = %d, want %d (%v)", k, got[k], n, got)
		}
	}
	r := runBinary(t, dir, "check", "--statistics", "--quiet", ".")
	if !regexp.MustCompile(`(?m)^fixes demoted to unsafe +4  \(`).MatchString(r.stdout) {
		t.Errorf("--statistics: no demoted fixes in\n%s", r.stdout)
	}
}

// TestStatisticsUnknownChip: a unit whose chip nothing names is counted,
// unless --arch or the configuration's arch names it.
func TestStatisticsUnknownChip(t *testing.T) {
	dir := t.TempDir()
	src := "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args)\n{\n    AscendC::CrossCoreSetFlag<4, PIPE_FIX>(18);\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "k.cpp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	unknown := func(r runResult) string {
		m := regexp.MustCompile(`(?m)^units of unknown chip +(\d+)`).FindStringSubmatch(r.stdout)
		if m == nil {
			return "missing in " + r.stdout
		}
		return m[1]
	}
	if r := runBinary(t, dir, "check", "--statistics", "--quiet", "."); unknown(r) != "1" || strings.Contains(r.stdout, "EXT005") {
		t.Errorf("no arch: unknown chip %s, and mode 4 with id 18 is not judged:\n%s", unknown(r), r.stdout)
	}
	if r := runBinary(t, dir, "check", "--statistics", "--quiet", "--arch", "a2a3", "."); unknown(r) != "0" || !strings.Contains(r.stdout, "uses cross-core mode 4") {
		t.Errorf("--arch a2a3: unknown chip %s, want 0 and the mode-4 set flagged:\n%s", unknown(r), r.stdout)
	}
	if err := os.WriteFile(filepath.Join(dir, "extern-lsp.toml"), []byte("arch = \"a5\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runBinary(t, dir, "check", "--statistics", "--quiet", "."); unknown(r) != "0" || strings.Contains(r.stdout, "EXT005") {
		t.Errorf("arch = a5: unknown chip %s, want 0 and nothing flagged:\n%s", unknown(r), r.stdout)
	}
	if bad := runBinary(t, dir, "check", "--arch", "910b", "."); bad.code != 2 || !strings.Contains(bad.stderr, `unknown --arch "910b" (want a2a3 or a5)`) {
		t.Errorf("--arch 910b: exit %d, %s", bad.code, bad.stderr)
	}
}

// TestStatisticsEndWriteBack: units whose build ends the kernel with no
// write-back are counted with the source that decided; --arch a2a3 keeps
// an ascendc_library kernel's end write-back.
func TestStatisticsEndWriteBack(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"CMakeLists.txt": "ascendc_library(kernels STATIC k.cpp)\n",
		"README.md":      "Products: Atlas A2, Ascend 950PR.\n",
		"k.cpp":          "extern \"C\" __global__ __aicore__ void k(__gm__ uint32_t *x)\n{\n    x[block_idx] += 1;\n}\nvoid run(void *s, uint32_t *x) { k<<<8, nullptr, s>>>(x); }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runBinary(t, dir, "check", "--statistics", "--quiet", ".")
	want := regexp.MustCompile("(?m)^units no end write-back +1  \\(.*\\)\n +k\\.cpp: CMakeLists\\.txt:1: `ascendc_library` builds for A5")
	if !want.MatchString(r.stdout) || !strings.Contains(r.stdout, "is lost when the kernel ends") {
		t.Errorf("no %s, or no EXT009 finding, in\n%s", want, r.stdout)
	}
	doc := jsonStatistics(t, dir)
	for _, c := range doc.Counters {
		if c.Key == "units_no_end_write_back" && (c.N != 1 || len(c.Files) != 1 || !strings.HasPrefix(c.Files[0], "k.cpp: CMakeLists.txt:1: `ascendc_library`")) {
			t.Errorf("json %s: %d %q", c.Key, c.N, c.Files)
		}
	}
	if r := runBinary(t, dir, "check", "--statistics", "--quiet", "--arch", "a2a3", "."); !regexp.MustCompile(`(?m)^units no end write-back +0$`).MatchString(r.stdout) || strings.Contains(r.stdout, "is lost when the kernel ends") {
		t.Errorf("--arch a2a3: want no unit without the end write-back and no finding:\n%s", r.stdout)
	}
}

// TestDiffOnlyUnsafe: --fix --diff with only unsafe fixes says so; with
// --unsafe-fixes it prints them.
func TestDiffOnlyUnsafe(t *testing.T) {
	dir := t.TempDir()
	src := `extern "C" __global__ __aicore__ void k(__gm__ int64_t *args)
{
    __gm__ int32_t *counts = reinterpret_cast<__gm__ int32_t *>(args[0]);
    int32_t n = counts[0];
    (void)n;
}
`
	if err := os.WriteFile(filepath.Join(dir, "k.cpp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, "check", "--fix", "--diff", "--select", "EXT001", "k.cpp")
	if r.stdout != "" || !strings.Contains(r.stderr, "no safe fixes to show; 1 finding(s) have only unsafe fixes: add --unsafe-fixes to see them") {
		t.Errorf("--fix --diff: stdout %q stderr %q", r.stdout, r.stderr)
	}
	r = runBinary(t, dir, "check", "--fix", "--diff", "--unsafe-fixes", "--select", "EXT001", "k.cpp")
	if !strings.Contains(r.stdout, "+++ b/k.cpp") || !strings.Contains(r.stdout, "+    dcci(") || !strings.Contains(r.stderr, "1 fix(es) would change 1 file(s)") {
		t.Errorf("--fix --diff --unsafe-fixes: stdout %q stderr %q", r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "k.cpp")); string(got) != src {
		t.Error("--diff wrote the file")
	}
	r = runBinary(t, dir, "check", "--diff", "--select", "EXT004", "k.cpp")
	if r.stdout != "" || !strings.Contains(r.stderr, "no fixes to show") {
		t.Errorf("--diff, nothing to fix: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

// TestStatisticsUnevaluatedIncludeDirs: include_dirs= entries that
// cannot be evaluated are counted once per expression (externs sharing a
// constant share them) and named by reason; evaluable ones are not.
func TestStatisticsUnevaluatedIncludeDirs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ops.py": "import os\nfrom pathlib import Path\nimport pypto.language as pl\nHERE = Path(__file__).parent\n\n" +
			"def _cann():\n    root = Path(os.environ.get(\"ASCEND_HOME_PATH\", \"/opt\"))\n    return (root / \"include\", root / \"impl\")\n\n" +
			"_INC = (HERE / \"inc\",) + _cann()\n\n" +
			"@pl.jit.extern(source=HERE / \"k.cpp\", include_dirs=_INC)\ndef k(a: pl.Tensor): ...\n\n" +
			"@pl.jit.extern(source=HERE / \"k.cpp\", include_dirs=_INC)\ndef k2(a: pl.Tensor): ...\n",
		"k.cpp": "extern \"C\" __global__ __aicore__ void k(__gm__ int64_t *args) {}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runBinary(t, dir, "check", "--statistics", "--quiet", ".")
	want := regexp.MustCompile(`(?m)^unevaluated include_dirs +2  \(.*ops\.py: 2 entries, ` + "`" + `os\.environ\.get\("ASCEND_HOME_PATH", "/opt"\)` + "`" + ` reads the environment variable "ASCEND_HOME_PATH" at run time\)$`)
	if !want.MatchString(r.stdout) {
		t.Errorf("--statistics: no %s in\n%s", want, r.stdout)
	}
}

// TestStatisticsSaidLess: findings a rule reports at info because a call it
// cannot see into (its header did not resolve) may make them moot are
// counted, so a user sees how many verdicts wait on an include.
func TestStatisticsSaidLess(t *testing.T) {
	dir := t.TempDir()
	src := `#include "kernel_operator.h"
#include "project_sync.h"
extern "C" __global__ __aicore__ void tail(__gm__ int64_t *args) {
  __gm__ int32_t *slot = reinterpret_cast<__gm__ int32_t *>(args[0]);
  AscendC::GlobalTensor<float> outGm;
  AscendC::LocalTensor<float> outUb;
  AscendC::DataCopy(outGm, outUb, 64);
  slot[0] = 1;
  pipe_sync();
  AscendC::SyncAll<false>();
}
`
	if err := os.WriteFile(filepath.Join(dir, "tail.cpp"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, "check", "--statistics", ".")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile("(?m)^tail.cpp:8:3: info: .*unless `pipe_sync\\(\\)` writes it back with a `dsb`.*EXT009"),
		regexp.MustCompile(`(?m)^findings said less +1  \(`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("--statistics: no %s in\n%s", want, r.stdout)
		}
	}
	if got := jsonStatistics(t, dir).counters()["findings_said_less"]; got != 1 {
		t.Errorf("json statistics findings_said_less = %d, want 1", got)
	}
}

// TestJSONStreamedAsOneDocument: --format json writes its findings one at a
// time, and the text is exactly what encoding/json writes for the whole
// document (two-space indent, no HTML escaping), with and without
// statistics and with no finding at all.
func TestJSONStreamedAsOneDocument(t *testing.T) {
	dir := trapsTree(t)
	clean := t.TempDir()
	for _, tc := range []struct {
		dir  string
		args []string
	}{{dir, nil}, {dir, []string{"--statistics"}}, {clean, nil}, {clean, []string{"--statistics"}}} {
		r := runBinary(t, tc.dir, append([]string{"check", "--no-progress", "--format", "json"}, append(tc.args, ".")...)...)
		var doc struct {
			Diagnostics  []jsonDiag  `json:"diagnostics"`
			FilesChecked int         `json:"files_checked"`
			Statistics   *checkStats `json:"statistics,omitempty"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, r.stdout)
		}
		if tc.dir == dir && !strings.ContainsAny(r.stdout, "<>&") {
			t.Fatal("the traps' findings have no <, > or &: the test no longer sees HTML escaping")
		}
		var want strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		if r.stdout != want.String() {
			t.Errorf("%v: the streamed document differs from its encoding as one:\n%s", tc.args, unifiedDiff("one document", "streamed", []byte(want.String()), []byte(r.stdout)))
		}
	}
}

// TestCaretDisplayColumns: the caret under a finding sits under the code it
// names when wide (CJK) text comes before it on the line: it counts display
// columns, two for each wide character, not bytes.
func TestCaretDisplayColumns(t *testing.T) {
	dir := trapsTree(t)
	entry := filepath.Join(dir, "kernels", "topk_mix", "topk_entry.cpp")
	src, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	const trap = "AscendC::SyncAll();"
	wide := "/* 全核同步 */ " + trap
	if !strings.Contains(string(src), "  "+trap) {
		t.Fatalf("no %q in the traps entry", trap)
	}
	if err := os.WriteFile(entry, []byte(strings.Replace(string(src), "  "+trap, "  "+wide, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, dir, "check", "--no-progress", "--select", "EXT004", ".")
	lines := strings.Split(r.stdout, "\n")
	for i, l := range lines {
		if !strings.Contains(l, "[EXT004 ") || i+2 >= len(lines) {
			continue
		}
		echo, caret := lines[i+1], lines[i+2]
		at := strings.Index(echo, "AscendC::SyncAll")
		// Display columns of the echoed text before the call: four wide
		// characters count two each.
		want := len([]rune(echo[:at])) + 4
		if got := strings.Index(caret, "^"); got != want {
			t.Errorf("caret at display column %d, want %d:\n%s\n%s", got, want, echo, caret)
		}
		return
	}
	t.Fatalf("no EXT004 finding:\n%s", r.stdout)
}

// TestStatisticsIncludeSources: --statistics says which search resolved
// each #include (a build file's folder, the tree's one file ending with
// the path), counts the ambiguous ones among the unresolved, and lists
// the build's include folders it could not evaluate.
func TestStatisticsIncludeSources(t *testing.T) {
	dir := copyTree(t, "../../analysis/rules/testdata/includes")
	got := jsonStatistics(t, dir).counters()
	// Three kernels through their build (CMake include_directories,
	// target_include_directories, build.sh -I), one by suffix; the
	// ambiguous one and the five kernel_operator.h stay unresolved.
	want := map[string]int{"includes_by_folder": 0, "includes_by_config": 0, "includes_by_build": 3, "includes_by_suffix": 1,
		"unresolved_includes": 6, "ambiguous_includes": 1, "build_include_dirs_unevaluated": 2}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("statistics %s = %d, want %d (%v)", k, got[k], n, got)
		}
	}
	r := runBinary(t, dir, "check", "--statistics", "--quiet", ".")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^  of them ambiguous +1  \(.*\)\n +proj/ambiguous_kernel/poll_ambiguous\.cpp:5: "dup/flush\.h" \(2 files\)$`),
		regexp.MustCompile(`(?m)^unevaluated build -I +2  \(.*\)\n +proj/script_kernel/build\.sh:4: \$\{ASCEND_HOME\}/include, proj/target_kernel/CMakeLists\.txt:4: \$\{ASCEND_HOME_PATH\}/include$`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("--statistics: no %s in\n%s", want, r.stdout)
		}
	}
}

// TestStatisticsIncludesOffBuild: with build-includes off, the includes a
// folder the build names would resolve are counted as such among the
// unresolved, so the switch is found from the run that needs it.
func TestStatisticsIncludesOffBuild(t *testing.T) {
	dir := copyTree(t, "../../analysis/rules/testdata/includes")
	cfg := filepath.Join(dir, "proj", "extern-lsp.toml")
	if err := os.WriteFile(cfg, []byte("build-includes = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := jsonStatistics(t, dir).counters()
	// The three kernels their build's folders resolve; the suffix's one
	// is no build folder's.
	if got["includes_by_build"] != 0 || got["includes_off_build"] != 3 {
		t.Errorf("statistics by build %d, in build folders %d; want 0 and 3 (%v)", got["includes_by_build"], got["includes_off_build"], got)
	}
}

// TestCheckSaysBuildFoldersUnread: a check (no --statistics) whose kernels
// include headers only build folders hold says on stderr that it did not
// read them, where one is, and how to let it; --statistics counts and
// lists them instead, and with build-includes on there is nothing to say.
func TestCheckSaysBuildFoldersUnread(t *testing.T) {
	dir := copyTree(t, "../../analysis/rules/testdata/includes")
	cfg := filepath.Join(dir, "proj", "extern-lsp.toml")
	if err := os.WriteFile(cfg, []byte("build-includes = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const note = "#includes of the checked files are found only in folders the build files name"
	if r := runBinary(t, dir, "check", "--exit-zero", "."); !strings.Contains(r.stderr, note) || !strings.Contains(r.stderr, "set `build-includes = true`") ||
		!regexp.MustCompile(`such as "[^"]+" at proj/[^:]+:\d+;`).MatchString(r.stderr) {
		t.Errorf("check stderr lacks %q:\n%s", note, r.stderr)
	}
	if r := runBinary(t, dir, "check", "--exit-zero", "--statistics", "."); strings.Contains(r.stderr, note) {
		t.Errorf("--statistics repeats the note on stderr:\n%s", r.stderr)
	}
	if err := os.WriteFile(cfg, []byte("build-includes = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runBinary(t, dir, "check", "--exit-zero", "."); strings.Contains(r.stderr, "found only in folders") {
		t.Errorf("build-includes on, yet:\n%s", r.stderr)
	}
}
