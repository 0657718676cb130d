package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNearestFileUp(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "pyproject.toml"), `
[project]
name = "x"
[tool.extern-lsp]
ignore = ["EXT004"]
reserved-flags = [8, 9, 10]
core-macro-family = "pto"
arch = "a5"
`)
	// A pyproject.toml without the table does not stop the search.
	write(t, filepath.Join(root, "a", "pyproject.toml"), "[project]\nname = \"a\"\n")
	write(t, filepath.Join(root, "b", "extern-lsp.toml"), "select = [\"syncall-aiv-only\"]\n")
	write(t, filepath.Join(root, "c", "extern-lsp.toml"), "[tool.extern-lsp]\nseverity = { EXT004 = \"warning\" }\n")

	c, err := ForFile(filepath.Join(root, "a", "k", "entry.cpp"), all)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != filepath.Join(root, "pyproject.toml") || len(c.Ignore) != 1 || c.CoreMacroFamily != "pto" {
		t.Fatalf("a/: got %+v", c)
	}
	s := c.Settings()
	if !s.Reserved(9) || s.Reserved(11) || s.Family() != "pto" || s.Arch != grammar.ArchA5 {
		t.Errorf("settings: %+v", s)
	}
	b, err := Load(filepath.Join(root, "b"), all)
	if err != nil || b.Path != filepath.Join(root, "b", "extern-lsp.toml") || b.Select[0] != "syncall-aiv-only" {
		t.Fatalf("b/: %+v %v", b, err)
	}
	if b.Settings().Family() != "consistent" || b.Settings().Arch != grammar.ArchNone {
		t.Errorf("nearest file replaces farther ones; family = %q", b.Settings().Family())
	}
	cc, err := Load(filepath.Join(root, "c"), all)
	if err != nil || cc.Severity["EXT004"] != "warning" {
		t.Fatalf("c/: %+v %v", cc, err)
	}
	if got := cc.Severities()["EXT004"]; got != analysis.SeverityWarning {
		t.Errorf("severity override = %v", got)
	}
	d, err := Load(t.TempDir(), all)
	if err != nil || d.Path != "" {
		t.Errorf("no file: %+v %v", d, err)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{"selekt = [\"EXT004\"]", `key "selekt": unknown key (did you mean "select"?)`},
		{"select = \"EXT004\"", `key "select": want a list of strings, got "EXT004"`},
		{"select = [\"EXT999\"]", `key "select": unknown rule "EXT999"`},
		{"ignore = [\"syncall-aiv-onyl\"]", `did you mean "syncall-aiv-only"?`},
		{"severity = { EXT004 = \"fatal\" }", `key "severity.EXT004": bad level "fatal" (want "error", "warning", "info", "hint" or "off")`},
		{"severity = { EXT777 = \"off\" }", `key "severity.EXT777": unknown rule "EXT777"`},
		{"severity = { EXT004 = \"off\", syncall-aiv-only = \"error\" }", `key "severity.syncall-aiv-only": the same rule as "EXT004"`},
		{"reserved-flags = [8, 16]", `key "reserved-flags": bad flag id 16 (FFTS flag ids are integers 0-15)`},
		{"reserved-flags = 8", `key "reserved-flags": want a list of flag ids 0-15, got 8`},
		{"core-macro-family = \"c310\"", `key "core-macro-family": bad value "c310" (want "consistent" (the default), "c220", "pto" or "any")`},
		{"arch = \"910b\"", `key "arch": bad value "910b" (want "a2a3" (Atlas A2/A3, dav-c220) or "a5" (Ascend 950, dav-c310))`},
		{"arch = 5", `key "arch": bad value 5`},
		{"exclude = [\"[\"]", `key "exclude": bad glob "["`},
		{"select = [", `invalid TOML: line 1`},
		{"max-findings-per-rule = -1", `key "max-findings-per-rule": bad value -1 (want a count of findings, 0 for no cap (default 500))`},
		{"max-findings-per-rule = \"500\"", `key "max-findings-per-rule": bad value "500"`},
		{"max-findings-per-rule = 1.5", `key "max-findings-per-rule": bad value 1.5`},
		{"max-findings-per-rul = 5", `did you mean "max-findings-per-rule"?`},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		p := filepath.Join(dir, "extern-lsp.toml")
		write(t, p, tc.text+"\n")
		_, err := Load(dir, all)
		if err == nil {
			t.Errorf("%s: no error", tc.text)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, p+": ") || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s:\n got %s\nwant %s: ...%s...", tc.text, msg, p, tc.want)
		}
	}
	// In a pyproject.toml the key is named with its table.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "pyproject.toml"), "[tool.extern-lsp]\nfoo = 1\n")
	if _, err := Load(dir, all); err == nil || !strings.Contains(err.Error(), `key "tool.extern-lsp.foo": unknown key`) {
		t.Errorf("pyproject: %v", err)
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.toml"), all); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing --config: %v", err)
	}
	write(t, filepath.Join(dir, "other", "pyproject.toml"), "[project]\n")
	if _, err := LoadFile(filepath.Join(dir, "other", "pyproject.toml"), all); err == nil || !strings.Contains(err.Error(), "no [tool.extern-lsp] table") {
		t.Errorf("--config pyproject without table: %v", err)
	}
}

func TestEnabled(t *testing.T) {
	on := &analysis.Analyzer{Code: "EXT004", Name: "syncall-aiv-only"}
	off := &analysis.Analyzer{Code: "EXT900", Name: "unused-suppression", DefaultOff: true}
	cases := []struct {
		c         Config
		wantOn    bool
		wantOffOn bool
	}{
		{Config{}, true, false},
		{Config{Select: []string{"ALL"}}, true, false},
		{Config{Select: []string{"EXT0"}}, true, false},
		{Config{Select: []string{"EXT00*"}}, true, false},
		{Config{Select: []string{"EXT1"}}, false, false},
		{Config{Select: []string{"ext900"}}, false, true},
		{Config{Select: []string{"ALL", "unused-suppression"}}, true, true},
		{Config{Ignore: []string{"syncall-aiv-only"}}, false, false},
		{Config{Select: []string{"EXT004"}, Ignore: []string{"EXT0"}}, false, false},
		{Config{Severity: map[string]string{"syncall-aiv-only": "off"}}, false, false},
		{Config{Severity: map[string]string{"EXT900": "warning"}}, true, false},
		{Config{ExtendSelect: []string{"EXT900"}}, true, true},
		{Config{Select: []string{"EXT1"}, ExtendSelect: []string{"EXT004"}}, true, false},
	}
	for i, tc := range cases {
		if got := tc.c.Enabled(on); got != tc.wantOn {
			t.Errorf("%d %+v: EXT004 enabled = %v", i, tc.c, got)
		}
		if got := tc.c.Enabled(off); got != tc.wantOffOn {
			t.Errorf("%d %+v: EXT900 enabled = %v", i, tc.c, got)
		}
	}
}

func TestGlobs(t *testing.T) {
	c := &Config{Dir: "/p", Exclude: []string{"build", "*.gen.cpp", "third_party/**/vendor", "gen/"}}
	for path, want := range map[string]bool{
		"/p/build/a.cpp":                    true,
		"/p/src/build/a.cpp":                true,
		"/p/src/k.gen.cpp":                  true,
		"/p/third_party/vendor/x.h":         true,
		"/p/third_party/a/b/vendor/x.h":     true,
		"/p/src/third_party/vendor/x.h":     false,
		"/p/gen/x.cpp":                      true,
		"/p/src/entry.cpp":                  false,
		"/elsewhere/build.cpp":              false,
		"/p/kernels/builder/entry.cpp":      false,
		"/p/third_party/a/b/notvendor/x.cc": false,
	} {
		if got := c.Excluded(path, false); got != want {
			t.Errorf("exclude %s = %v, want %v", path, got, want)
		}
	}
	inc := &Config{Dir: "/p", Include: []string{"kernels/**/*.cpp", "*.h"}}
	for path, want := range map[string]bool{
		"/p/kernels/a/b/entry.cpp": false,
		"/p/kernels/entry.cpp":     false,
		"/p/other/entry.cpp":       true,
		"/p/other/x.h":             false,
	} {
		if got := inc.Excluded(path, false); got != want {
			t.Errorf("include %s: excluded = %v, want %v", path, got, want)
		}
	}
	if inc.Excluded("/p/other", true) {
		t.Error("include globs must not prune folders")
	}
}

func TestLoaderOverrideAndCache(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "extern-lsp.toml"), "ignore = [\"EXT004\"]\n")
	write(t, filepath.Join(root, "ci.toml"), "[tool.extern-lsp]\nselect = [\"EXT004\"]\n")
	l, err := NewLoader("", all)
	if err != nil {
		t.Fatal(err)
	}
	c1, _ := l.ForFile(filepath.Join(root, "x", "y", "a.cpp"))
	c2, _ := l.ForFile(filepath.Join(root, "x", "b.cpp"))
	if c1 != c2 || len(c1.Ignore) != 1 {
		t.Errorf("cache: %p %p %+v", c1, c2, c1)
	}
	l, err = NewLoader(filepath.Join(root, "ci.toml"), all)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := l.ForFile(filepath.Join(root, "a.cpp"))
	if len(c.Select) != 1 || len(c.Ignore) != 0 {
		t.Errorf("override: %+v", c)
	}
	o := c.Options(nil)
	if o.Enabled == nil || len(o.Analyzers) == 0 {
		t.Errorf("options: %+v", o)
	}
}

// The rules a configuration names and runs are the ones it is given.
func TestConfigOfGivenRules(t *testing.T) {
	only := &analysis.Analyzer{Code: "EXT004", Name: "syncall-aiv-only"}
	if o := Default([]*analysis.Analyzer{only}).Options(nil); len(o.Analyzers) != 1 || o.Analyzers[0] != only {
		t.Errorf("options over %v", o.Analyzers)
	}
	if err := CheckSelector("EXT005", []*analysis.Analyzer{only}); err == nil {
		t.Error("a rule the list does not hold is unknown")
	}
	if err := CheckSelector("EXT005", all); err != nil {
		t.Error(err)
	}
}

// TestLoaderConcurrentFoldersShareOneConfig: folders loaded side by side
// (check's parallel walk) get the one configuration of their project.
func TestLoaderConcurrentFoldersShareOneConfig(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "extern-lsp.toml"), "ignore = [\"EXT004\"]\n")
	l, err := NewLoader("", all)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]*Config, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = l.ForDir(filepath.Join(root, "k", string(rune('a'+i%4))))
		}()
	}
	wg.Wait()
	for i, c := range got {
		if c != got[0] || len(c.Ignore) != 1 {
			t.Fatalf("folder %d: %p %+v, folder 0: %p", i, c, c, got[0])
		}
	}
}

// max-findings-per-rule reaches the driver: 500 unless set, 0 for no cap.
func TestMaxFindingsPerRule(t *testing.T) {
	for text, want := range map[string]int{"": analysis.DefaultMaxFindingsPerRule, "max-findings-per-rule = 0\n": 0, "max-findings-per-rule = 20\n": 20} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "extern-lsp.toml"), text)
		c, err := Load(dir, all)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Options(nil).MaxFindingsPerRule; got != want || c.FindingsCap() != want {
			t.Errorf("%q: cap %d, want %d", text, got, want)
		}
	}
	if got := Default(all).Options(nil).MaxFindingsPerRule; got != analysis.DefaultMaxFindingsPerRule {
		t.Errorf("default cap %d", got)
	}
}

// A pyproject.toml nesting inline tables thousands deep in another tool's
// table is refused before decoding (the decoder's cost is quadratic in the
// depth: this one took 3 GB), with the line; so is a tool.extern-lsp that
// is not a table.
func TestHostileConfigIsRefusedBeforeDecoding(t *testing.T) {
	dir := t.TempDir()
	deep := "[project]\nname = \"k\"\n\n[tool.other]\nx = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000) + "\n\n[tool.extern-lsp]\nselect = [\"EXT004\"]\n"
	write(t, filepath.Join(dir, "pyproject.toml"), deep)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Load(dir, all)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "line 5: nested more than 64 levels deep; not read") {
		t.Errorf("deep nesting: %v", err)
	}
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 16 {
		t.Errorf("reading a 20 KB config allocated %d MB", mb)
	}
	for name, text := range map[string]string{
		"pyproject.toml":  "[tool]\nextern-lsp = \"EXT004\"\n",
		"extern-lsp.toml": "[tool]\nextern-lsp = [\"EXT004\"]\n",
	} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, name), text)
		if _, err := Load(dir, all); err == nil || !strings.Contains(err.Error(), `key "tool.extern-lsp": want a table of settings, not `) {
			t.Errorf("%s %q: %v", name, text, err)
		}
	}
}

func TestNestingScan(t *testing.T) {
	ok := `# [[[[ not brackets
[tool.a.b.c]
s = "{{{{[[[["
m = """
]]]] {{{{ "quoted" \""" ok
"""
l = '[[[['
lm = '''
{{{{
'''
v = 1.5e3
d = 1979-05-27T07:32:00.999
arr = [[1, 2], [3, {x.y.z = 4}]]

[[tool.a.list]]
x.y = {a = {b = [1.5, 2.5]}}
`
	if line := tooDeep([]byte(ok)); line != 0 {
		t.Errorf("an ordinary file flagged at line %d", line)
	}
	for _, deep := range []string{
		"x = " + strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1),
		strings.Repeat("a.", MaxNesting+1) + "b = 1",
		"[" + strings.Repeat("a.", MaxNesting+1) + "b]",
		"x = {" + strings.Repeat("a.", MaxNesting) + "b = 1}",
	} {
		if tooDeep([]byte("\n"+deep+"\n")) != 2 {
			t.Errorf("not flagged: %.40s...", deep)
		}
	}
}

// all are the rules a front end hands the configuration.
var all = rules.All()

// Load returns the configuration that applies in dir: the nearest
// extern-lsp.toml or pyproject.toml with a `[tool.extern-lsp]` table, from dir
// up to the file system root; Default(rules) when there is none. Rules are
// the rules its settings may name.
func Load(dir string, rules []*analysis.Analyzer) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := abs; ; {
		c, err := loadDir(d, rules)
		if err != nil || c != nil {
			return c, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return Default(rules), nil
		}
		d = parent
	}
}

// ForFile returns the configuration that applies to a source file.
func ForFile(path string, rules []*analysis.Analyzer) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return Load(filepath.Dir(abs), rules)
}
