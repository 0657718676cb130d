// Package config reads extern-lsp's project configuration: the
// `[tool.extern-lsp]` table of a pyproject.toml, or an extern-lsp.toml (keys
// at top level or under `[tool.extern-lsp]`). The nearest file up from a
// source file applies to it; nearer files replace farther ones, as in ruff.
// `check` and the language server read the same files through this package.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// File names searched for, in order of precedence within one folder.
const (
	FileName      = "extern-lsp.toml"
	PyprojectName = "pyproject.toml"
)

// Config is one resolved configuration.
type Config struct {
	// Path is the file it was read from; empty for the defaults.
	Path string
	// Dir is the folder globs are relative to (the file's folder).
	Dir string
	// Select lists rule codes, names, code prefixes ("EXT0"), globs or
	// "ALL"; when set, only the selected rules run.
	Select []string
	// ExtendSelect adds rules to the default set or to Select.
	ExtendSelect []string
	// Ignore lists rules never to run (same forms as Select).
	Ignore []string
	// Severity overrides a rule's severity by code or name; "off" disables it.
	Severity map[string]string
	// Exclude and Include are globs relative to Dir ("build", "*.gen.cpp",
	// "kernels/**/*.cpp"). Include, when set, limits the files checked.
	Exclude []string
	Include []string
	// IncludeDirs are folders (absolute; relative ones are read from Dir)
	// searched for #includes (a quoted one after the including file's folder), as
	// a compile's -I.
	IncludeDirs []string
	// ExtendGeneratedMarkers add to analysis.DefaultGeneratedMarkers: the
	// banners of files whose findings are shown at info.
	ExtendGeneratedMarkers []string
	// ReservedFlags and CoreMacroFamily become analysis.Settings.
	ReservedFlags   []int
	CoreMacroFamily string
	// Arch is the target chip, "a2a3" or "a5" ("": inferred per extern
	// unit from its conditionals, else its build's SOC_VERSION).
	Arch string
	// DcciInsertForScalar and DcciBeforeKernelEnd say what the project's
	// device compile passes as `-mllvm -cce-aicore-dcci-insert-for-scalar`
	// and `-cce-aicore-dcci-before-kernel-end` (nil: read from the build
	// files, else the launch model's default; see unit.BuildOf).
	DcciInsertForScalar *bool
	DcciBeforeKernelEnd *bool
	// BuildIncludes says whether #includes are also searched for in the
	// folders the project's build files name and by their unique suffix
	// in the tree (nil: DefaultBuildIncludes).
	BuildIncludes *bool
	// MaxFileSize is the largest source file read, in bytes (0: the
	// default, fsys.DefaultMaxFileSize); larger ones are reported and
	// skipped.
	MaxFileSize int64
	// MaxFindingsPerRule caps the findings of one rule listed per file
	// (nil: analysis.DefaultMaxFindingsPerRule; 0: no cap). Past it they
	// are counted, and one note per file and rule says how many.
	MaxFindingsPerRule *int
	// rules are the rules the configuration names and runs.
	rules []*analysis.Analyzer
}

// DefaultBuildIncludes is build-includes when no configuration sets it.
const DefaultBuildIncludes = false

// BuildIncludesOn is the effective build-includes.
func (c *Config) BuildIncludesOn() bool {
	if c == nil || c.BuildIncludes == nil {
		return DefaultBuildIncludes
	}
	return *c.BuildIncludes
}

// FileSizeLimit is the effective max-file-size.
func (c *Config) FileSizeLimit() int64 {
	if c == nil || c.MaxFileSize <= 0 {
		return fsys.DefaultMaxFileSize
	}
	return c.MaxFileSize
}

// FindingsCap is the effective max-findings-per-rule (0: no cap).
func (c *Config) FindingsCap() int {
	if c == nil || c.MaxFindingsPerRule == nil {
		return analysis.DefaultMaxFindingsPerRule
	}
	return *c.MaxFindingsPerRule
}

// Error is a configuration problem: the file, the key and a hint.
type Error struct {
	File string
	Key  string
	Msg  string
	Hint string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Key != "" {
		fmt.Fprintf(&b, ": key %q", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// Default is the configuration used when no file applies, over rules.
func Default(rules []*analysis.Analyzer) *Config { return &Config{rules: rules} }

// LoadFile reads one configuration file (`--config FILE`). A pyproject.toml
// without a `[tool.extern-lsp]` table is an error here, as it was named.
func LoadFile(path string, rules []*analysis.Analyzer) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	c, err := readFile(abs, rules)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, &Error{File: path, Msg: "no [tool.extern-lsp] table", Hint: "add one, or name an extern-lsp.toml"}
	}
	return c, nil
}

// loadDir reads the configuration file of one folder, nil when it has none.
func loadDir(dir string, rules []*analysis.Analyzer) (*Config, error) {
	for _, name := range []string{FileName, "." + FileName, PyprojectName} {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil || st.IsDir() {
			continue
		}
		c, err := readFile(p, rules)
		if err != nil || c != nil {
			return c, err
		}
	}
	return nil, nil
}

// readFile parses one file; nil, nil for a pyproject.toml that does not
// configure extern-lsp.
func readFile(path string, rules []*analysis.Analyzer) (*Config, error) {
	data, _, err := fsys.ReadFile(path, 1<<20)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{File: path, Msg: "no such file"}
		}
		return nil, &Error{File: path, Msg: "cannot read: " + unwrapPathErr(err)}
	}
	if line := tooDeep(data); line > 0 {
		return nil, nestingError(path, line)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		msg := err.Error()
		var perr toml.ParseError
		if errors.As(err, &perr) {
			msg = fmt.Sprintf("line %d: %s", perr.Position.Line, perr.Message)
		}
		return nil, &Error{File: path, Msg: "invalid TOML: " + msg}
	}
	table, prefix, ok, err := extract(raw, filepath.Base(path) == PyprojectName)
	if err != nil {
		return nil, &Error{File: path, Key: "tool.extern-lsp", Msg: err.Error(), Hint: "write [tool.extern-lsp] and the settings under it"}
	}
	if !ok {
		return nil, nil
	}
	c := &Config{Path: path, Dir: filepath.Dir(path), rules: rules}
	if err := c.decode(table, prefix); err != nil {
		return nil, err
	}
	return c, nil
}

func unwrapPathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// extract finds the extern-lsp table: `[tool.extern-lsp]`, or for an
// extern-lsp.toml without a tool table, the top level. A tool.extern-lsp
// that is not a table (`tool.extern-lsp = "x"`) is an error, not a file
// without settings.
func extract(raw map[string]any, pyproject bool) (map[string]any, string, bool, error) {
	if tool, ok := raw["tool"].(map[string]any); ok {
		if v, ok := tool["extern-lsp"]; ok {
			if t, ok := v.(map[string]any); ok {
				return t, "tool.extern-lsp.", true, nil
			}
			return nil, "", false, fmt.Errorf("want a table of settings, not %s", describe(v))
		}
		if pyproject {
			return nil, "", false, nil
		}
	}
	if pyproject {
		return nil, "", false, nil
	}
	return raw, "", true, nil
}

// Keys are the accepted keys, for errors and hints.
var Keys = []string{"select", "extend-select", "ignore", "severity", "exclude", "include", "extend-generated-markers", "include-dirs", "reserved-flags", "core-macro-family", "arch", "dcci-insert-for-scalar", "dcci-before-kernel-end", "build-includes", "max-file-size", "max-findings-per-rule"}

func (c *Config) decode(t map[string]any, prefix string) error {
	lists := map[string]*[]string{"select": &c.Select, "extend-select": &c.ExtendSelect, "ignore": &c.Ignore,
		"exclude": &c.Exclude, "include": &c.Include, "extend-generated-markers": &c.ExtendGeneratedMarkers}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		v := t[k]
		// bad is an error at the key (or at key.sub).
		bad := func(msg, hint string, sub ...string) error {
			return &Error{File: c.Path, Key: strings.Join(append([]string{prefix + k}, sub...), "."), Msg: msg, Hint: hint}
		}
		var err error
		switch k {
		case "select", "extend-select", "ignore":
			var list []string
			if list, err = stringList(v); err != nil {
				return bad(err.Error(), `e.g. ["EXT004", "ffts-flag-reserved", "EXT1"]`)
			}
			for _, s := range list {
				if msg, hint := checkSelector(s, c.rules); msg != "" {
					return bad(msg, hint)
				}
			}
			*lists[k] = list
		case "severity":
			m, ok := v.(map[string]any)
			if !ok {
				return bad("want a table of rule = level", `e.g. severity = { EXT005 = "warning", EXT006 = "off" }`)
			}
			c.Severity = map[string]string{}
			seen := map[*analysis.Analyzer]string{}
			for _, rule := range slices.Sorted(maps.Keys(m)) {
				lv := m[rule]
				a := analysis.Lookup(c.rules, rule)
				if a == nil {
					return bad("unknown rule "+quote(rule), ruleHint(rule, c.rules), rule)
				}
				if seen[a] != "" {
					return bad("the same rule as "+quote(seen[a]), "keep one of them", rule)
				}
				seen[a] = rule
				s, ok := lv.(string)
				if !ok || !validLevel(s) {
					return bad(fmt.Sprintf("bad level %v", describe(lv)), `want "error", "warning", "info", "hint" or "off"`, rule)
				}
				c.Severity[rule] = strings.ToLower(s)
			}
		case "exclude", "include", "extend-generated-markers":
			var list []string
			if list, err = stringList(v); err != nil {
				return bad(err.Error(), `e.g. ["build", "third_party/**"]`)
			}
			for _, s := range list {
				if s == "" {
					return bad("empty string", "remove it")
				}
				if k != "extend-generated-markers" {
					if err := checkGlob(s); err != nil {
						return bad(fmt.Sprintf("bad glob %q: %v", s, err), "use *, ?, [...] and ** between slashes")
					}
				}
			}
			*lists[k] = list
		case "include-dirs", "include_dirs":
			var list []string
			if list, err = stringList(v); err != nil {
				return bad(err.Error(), `e.g. ["include", "../common/incore"]`)
			}
			for _, d := range list {
				if d == "" {
					return bad("empty string", "remove it")
				}
				if !filepath.IsAbs(d) {
					d = filepath.Join(c.Dir, d)
				}
				c.IncludeDirs = append(c.IncludeDirs, filepath.Clean(d))
			}
		case "reserved-flags":
			arr, ok := v.([]any)
			if !ok {
				return bad("want a list of flag ids 0-15, got "+describe(v), "e.g. reserved-flags = [8, 9, 10]")
			}
			for _, x := range arr {
				n, ok := x.(int64)
				if !ok || n < 0 || n > 15 {
					return bad("bad flag id "+describe(x), "FFTS flag ids are integers 0-15")
				}
				c.ReservedFlags = append(c.ReservedFlags, int(n))
			}
		case "core-macro-family":
			s, ok := v.(string)
			if !ok || (s != analysis.FamilyConsistent && s != analysis.FamilyC220 && s != analysis.FamilyPTO && s != analysis.FamilyAny) {
				return bad("bad value "+describe(v), `want "consistent" (the default), "c220", "pto" or "any"`)
			}
			c.CoreMacroFamily = s
		case "arch":
			s, ok := v.(string)
			if _, known := grammar.ParseArch(s); !ok || !known {
				return bad("bad value "+describe(v), `want "a2a3" (Atlas A2/A3, dav-c220) or "a5" (Ascend 950, dav-c310)`)
			}
			c.Arch = s
		case "dcci-insert-for-scalar", "dcci-before-kernel-end":
			b, ok := v.(bool)
			if !ok {
				return bad("bad value "+describe(v), "want true or false: what the device compile passes as -mllvm -cce-aicore-"+k+"=")
			}
			*map[string]**bool{"dcci-insert-for-scalar": &c.DcciInsertForScalar, "dcci-before-kernel-end": &c.DcciBeforeKernelEnd}[k] = &b
		case "build-includes":
			b, ok := v.(bool)
			if !ok {
				return bad("bad value "+describe(v), "want true or false: search the include folders the build files name, and a quoted include found nowhere by its unique suffix")
			}
			c.BuildIncludes = &b
		case "max-file-size":
			n, ok := parseSize(v)
			if !ok {
				return bad("bad size "+describe(v), `want bytes or a size such as "512KB" or "8MB"`)
			}
			c.MaxFileSize = n
		case "max-findings-per-rule":
			n, ok := v.(int64)
			if !ok || n < 0 || n > 1<<30 {
				return bad("bad value "+describe(v), "want a count of findings, 0 for no cap (default 500)")
			}
			m := int(n)
			c.MaxFindingsPerRule = &m
		default:
			hint := "known keys: " + strings.Join(Keys, ", ")
			if s := closest(k, Keys); s != "" {
				hint = "did you mean " + quote(s) + "?"
			}
			return bad("unknown key", hint)
		}
	}
	return nil
}

// parseSize reads a positive size: an integer (bytes) or a string with a
// KB or MB suffix (powers of 1024).
func parseSize(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, x > 0
	case string:
		s := strings.ToUpper(strings.TrimSpace(x))
		mult := int64(1)
		for _, u := range []struct {
			suffix string
			mult   int64
		}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"B", 1}} {
			if strings.HasSuffix(s, u.suffix) {
				s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
				break
			}
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 || n > (1<<40)/mult {
			return 0, false
		}
		return n * mult, true
	}
	return 0, false
}

func stringList(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings, got %s", describe(v))
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("want a list of strings, found %s", describe(x))
		}
		out = append(out, s)
	}
	return out, nil
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return quote(x)
	case int64, float64, bool:
		return fmt.Sprintf("%v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

func quote(s string) string { return `"` + s + `"` }

func validLevel(s string) bool {
	if strings.EqualFold(s, "off") {
		return true
	}
	_, ok := analysis.ParseSeverity(s)
	return ok && !strings.EqualFold(s, "warn") && !strings.EqualFold(s, "information")
}

// CheckSelector validates one select/ignore entry (also used for the
// command-line --select/--ignore); it returns a message and a hint.
func CheckSelector(s string, rules []*analysis.Analyzer) error {
	if msg, hint := checkSelector(s, rules); msg != "" {
		return &Error{File: "--select/--ignore", Msg: msg, Hint: hint}
	}
	return nil
}

func checkSelector(s string, rules []*analysis.Analyzer) (msg, hint string) {
	if len(selected(s, rules)) > 0 {
		return "", ""
	}
	return "unknown rule " + quote(s), ruleHint(s, rules)
}

func ruleHint(s string, rules []*analysis.Analyzer) string {
	var names []string
	for _, a := range rules {
		names = append(names, a.Code, a.Name)
	}
	if c := closest(s, names); c != "" {
		return "did you mean " + quote(c) + "? `extern-lsp rules` lists them"
	}
	return "`extern-lsp rules` lists the rules"
}

// selected returns the rules a selector names: a code or name (any case),
// "ALL", a code prefix ("EXT0", "EXT10") or a glob ("EXT00*", "*-flag-*").
func selected(sel string, all []*analysis.Analyzer) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range all {
		if matchesSelector(sel, a) {
			out = append(out, a)
		}
	}
	return out
}

func matchesSelector(sel string, a *analysis.Analyzer) bool {
	s := strings.ToLower(sel)
	code, name := strings.ToLower(a.Code), strings.ToLower(a.Name)
	switch {
	case s == "all" || s == code || s == name:
		return true
	case strings.ContainsAny(s, "*?["):
		for _, v := range []string{code, name} {
			if ok, _ := filepath.Match(s, v); ok {
				return true
			}
		}
		return false
	case len(s) >= 3 && strings.HasPrefix(s, "ext") && strings.HasPrefix(code, s):
		return true
	}
	return false
}

// exactly reports whether sel names the rule itself (code or name), which is
// what it takes to turn on a DefaultOff rule.
func exactly(sel string, a *analysis.Analyzer) bool {
	return strings.EqualFold(sel, a.Code) || strings.EqualFold(sel, a.Name)
}

// closest returns the candidate within edit distance 2 of s, if any.
func closest(s string, cands []string) string {
	best, bestD := "", 3
	for _, c := range cands {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Enabled reports whether the configuration runs a rule: selected or
// extend-selected (or not DefaultOff when nothing is selected; DefaultOff
// rules must be named exactly), not ignored, and not set to "off".
func (c *Config) Enabled(a *analysis.Analyzer) bool {
	picks := func(list []string) bool {
		for _, s := range list {
			if exactly(s, a) || (!a.DefaultOff && matchesSelector(s, a)) {
				return true
			}
		}
		return false
	}
	on := !a.DefaultOff
	if len(c.Select) > 0 {
		on = picks(c.Select)
	}
	on = on || picks(c.ExtendSelect)
	for _, s := range c.Ignore {
		if matchesSelector(s, a) {
			return false
		}
	}
	if lv, ok := c.level(a); ok && lv == "off" {
		return false
	}
	return on
}

func (c *Config) level(a *analysis.Analyzer) (string, bool) {
	for k, v := range c.Severity {
		if exactly(k, a) {
			return v, true
		}
	}
	return "", false
}

// Severities returns the severity overrides by rule code.
func (c *Config) Severities() map[string]analysis.Severity {
	out := map[string]analysis.Severity{}
	for _, a := range c.rules {
		if lv, ok := c.level(a); ok {
			if s, ok := analysis.ParseSeverity(lv); ok {
				out[a.Code] = s
			}
		}
	}
	return out
}

// Settings returns the rule settings.
func (c *Config) Settings() analysis.Settings {
	arch, _ := grammar.ParseArch(c.Arch)
	return analysis.Settings{
		ReservedFlags:    append([]int(nil), c.ReservedFlags...),
		CoreMacroFamily:  c.CoreMacroFamily,
		GeneratedMarkers: append([]string(nil), c.ExtendGeneratedMarkers...),
		Arch:             arch,
		Build:            unit.BuildConfig{DcciInsertForScalar: c.DcciInsertForScalar, DcciBeforeKernelEnd: c.DcciBeforeKernelEnd},
	}
}

// Options converts the configuration to driver options over analyzers
// (the configuration's rules when nil): Enabled, Severity, Settings.
func (c *Config) Options(analyzers []*analysis.Analyzer) analysis.Options {
	if analyzers == nil {
		analyzers = c.rules
	}
	return analysis.Options{
		Analyzers: analyzers,
		Enabled:   c.Enabled,
		Severity:  c.Severities(),
		Settings:  c.Settings(),

		MaxFindingsPerRule: c.FindingsCap(),
	}
}

// Excluded reports whether path (absolute) matches an exclude glob, or
// include globs are set and it matches none of them. Folders are only
// tested against exclude (so a walk can prune them).
func (c *Config) Excluded(path string, isDir bool) bool {
	rel, err := filepath.Rel(c.Dir, path)
	if c.Dir == "" || err != nil || strings.HasPrefix(rel, "..") {
		rel = filepath.Base(path)
	}
	rel = filepath.ToSlash(rel)
	for _, g := range c.Exclude {
		if matchGlob(g, rel) {
			return true
		}
	}
	if isDir || len(c.Include) == 0 {
		return false
	}
	for _, g := range c.Include {
		if matchGlob(g, rel) {
			return false
		}
	}
	return true
}

// Loader caches configurations per folder for one run (check walks many
// files in few folders). An override (`--config FILE`) applies everywhere.
type Loader struct {
	Override *Config
	rules    []*analysis.Analyzer
	mu       sync.Mutex
	byDir    map[string]*Config
	errs     map[string]error
}

// NewLoader returns a loader of configurations over rules; override is
// the --config file ("" for none).
func NewLoader(override string, rules []*analysis.Analyzer) (*Loader, error) {
	l := &Loader{rules: rules, byDir: map[string]*Config{}, errs: map[string]error{}}
	if override != "" {
		c, err := LoadFile(override, rules)
		if err != nil {
			return nil, err
		}
		l.Override = c
	}
	return l, nil
}

// Default is the configuration used when no file applies.
func (l *Loader) Default() *Config { return Default(l.rules) }

// ForFile returns the configuration of a file.
func (l *Loader) ForFile(path string) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return l.ForDir(filepath.Dir(abs))
}

// ForDir returns the configuration that applies in a folder. Folders load
// side by side (a parallel walk asks for many); each folder has one value.
func (l *Loader) ForDir(dir string) (*Config, error) {
	if l.Override != nil {
		return l.Override, nil
	}
	l.mu.Lock()
	if c, ok := l.byDir[dir]; ok {
		err := l.errs[dir]
		l.mu.Unlock()
		return c, err
	}
	l.mu.Unlock()
	c, err := loadDir(dir, l.rules)
	if err == nil && c == nil {
		if parent := filepath.Dir(dir); parent != dir {
			c, err = l.ForDir(parent)
		} else {
			c = l.Default()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if prev, ok := l.byDir[dir]; ok {
		// Loaded meanwhile by another goroutine: the first one stored is
		// the folder's (callers key caches on the *Config).
		return prev, l.errs[dir]
	}
	l.byDir[dir], l.errs[dir] = c, err
	return c, err
}
