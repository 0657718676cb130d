package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func init() {
	commands["check"] = command{"check extern sources and report findings (text, concise, json, sarif, github)", runCheck}
}

// ruleSet is the rules check runs and SARIF describes; tests pin it so
// their goldens do not move when rules are added.
var ruleSet = rules.All

// stdin is where `check -` reads from (tests replace it).
var stdin io.Reader = os.Stdin

// formats are the accepted --format values.
var formats = []string{"text", "concise", "grouped", "json", "json-lines", "sarif", "github", "pylint", "azure"}

// formatAliases are ruff's --output-format names for our formats.
var formatAliases = map[string]string{"full": "text"}

type checkFlags struct {
	format        string
	noColor       bool
	jobs          int
	configPath    string
	selectRules   string
	extendSelect  string
	ignoreRules   string
	strict        bool
	fix           bool
	unsafeFixes   bool
	diff          bool
	exitZero      bool
	maxWarnings   int
	baseline      string
	writeBaseline string
	stats         bool
	quiet         bool
	stdinFilename string
	noProgress    bool
	root          string
	includeDirs   dirList
}

// dirList is a repeatable folder flag (-I DIR -I DIR2).
type dirList []string

func (d *dirList) String() string { return strings.Join(*d, ",") }
func (d *dirList) Set(v string) error {
	abs, err := filepath.Abs(v)
	if err != nil {
		return err
	}
	*d = append(*d, abs)
	return nil
}

// usageError is a problem with the invocation or its inputs: exit 2, one
// line on stderr, nothing written.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

func parseCheckFlags(args []string, stderr io.Writer) (*checkFlags, []string, error) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := &checkFlags{}
	fs.StringVar(&f.format, "format", "text", "output format: "+strings.Join(formats, ", ")+" (full is text)")
	fs.StringVar(&f.format, "output-format", "text", "the same as --format (ruff's name)")
	fs.BoolVar(&f.noColor, "no-color", false, "never colour the text output (also NO_COLOR=1)")
	fs.IntVar(&f.jobs, "j", runtime.GOMAXPROCS(0), "files checked in parallel")
	fs.StringVar(&f.configPath, "config", "", "use this configuration file for every file (instead of the nearest extern-lsp.toml / pyproject.toml)")
	fs.StringVar(&f.selectRules, "select", "", "comma-separated rules to run instead of the configured ones (codes, names, prefixes like EXT0, ALL)")
	fs.StringVar(&f.extendSelect, "extend-select", "", "comma-separated rules to run in addition")
	fs.StringVar(&f.ignoreRules, "ignore", "", "comma-separated rules not to run")
	fs.BoolVar(&f.strict, "strict", false, "also report unused suppressions and unknown codes (EXT900)")
	fs.BoolVar(&f.fix, "fix", false, "apply safe fixes, to a fixed point, and report what remains")
	fs.BoolVar(&f.unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply unsafe fixes")
	fs.BoolVar(&f.diff, "diff", false, "print the fixes as a unified diff instead of writing them")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 even when findings remain")
	fs.IntVar(&f.maxWarnings, "max-warnings", -1, "exit 1 only when errors remain or warnings exceed this number")
	fs.StringVar(&f.baseline, "baseline", "", "ignore findings recorded in this baseline file")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in this baseline file and exit 0")
	fs.BoolVar(&f.stats, "statistics", false, "print what the run analysed (files, extern units, parse errors, unresolved includes) and the findings per rule")
	fs.BoolVar(&f.stats, "stats", false, "the same as --statistics")
	fs.BoolVar(&f.quiet, "quiet", false, "print findings only: no summary, notes or progress")
	fs.BoolVar(&f.quiet, "q", false, "short for --quiet")
	fs.StringVar(&f.stdinFilename, "stdin-filename", "", "with the path -, the name of the file read from stdin")
	fs.BoolVar(&f.noProgress, "no-progress", false, "never show progress on stderr")
	rootFlag(fs, &f.root)
	fs.Var(&f.includeDirs, "I", "search this folder for quoted #includes, as the compile's -I (repeatable; adds to include-dirs)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: extern-lsp check [flags] [PATH...]   (PATH - reads stdin, with --stdin-filename)")
		fs.PrintDefaults()
	}
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, nil, err
	}
	if a, ok := formatAliases[f.format]; ok {
		f.format = a
	}
	if !contains(formats, f.format) {
		return nil, nil, usagef("unknown --format %q (want %s; full is text)", f.format, strings.Join(formats, ", "))
	}
	if f.writeBaseline != "" && (f.fix || f.diff) {
		return nil, nil, usagef("--write-baseline records findings as they are: run it without --fix or --diff")
	}
	if f.unsafeFixes && !f.fix && !f.diff {
		return nil, nil, usagef("--unsafe-fixes needs --fix or --diff")
	}
	if err := absRoot(&f.root); err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if p == "-" && (f.stdinFilename == "" || len(paths) > 1) {
			return nil, nil, usagef("reading stdin (-) needs --stdin-filename PATH and no other paths")
		}
	}
	if f.stdinFilename != "" && (len(paths) != 1 || paths[0] != "-") {
		return nil, nil, usagef("--stdin-filename needs the path - (read the source from stdin)")
	}
	for _, list := range []string{f.selectRules, f.extendSelect, f.ignoreRules} {
		for _, s := range splitList(list) {
			if err := config.CheckSelector(s); err != nil {
				return nil, nil, usagef("%v", err)
			}
		}
	}
	return f, paths, nil
}

// parseInterspersed parses flags wherever they stand among the paths
// (`check src/ --fix` fixes, as in ruff and gofmt); after "--" every
// argument is a path, even one starting with "-".
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(paths, rest...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkRun is one invocation's state.
type checkRun struct {
	flags    *checkFlags
	cwd      string
	loader   *config.Loader
	ws       *workspace.Workspace
	files    []string
	stdin    string // absolute path of the file read from stdin, if any
	opts     map[*config.Config]*analysis.Options
	optsMu   sync.Mutex
	cfgOf    map[string]*config.Config
	stderr   io.Writer
	origSrc  map[string][]byte     // file contents before fixes, for diffs and writes
	stamps   map[string]fsys.Stamp // what the disk held when origSrc was read
	initial  []analysis.Diagnostic // findings before any fix (for --diff's exit code)
	baseline *baseline
	// skipped are the files and folders not read or not written, with why
	// (reported at the end; the exit code is then 2).
	skipped   []skip
	notes     []string // said once at the end (non-UTF-8 text and the like)
	unwritten int      // fixed files not written
}

type skip struct {
	path string
	why  string
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	f, paths, err := parseCheckFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "extern-lsp check: %v\n", err)
		}
		return 2
	}
	code, err := checkMain(f, paths, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "extern-lsp check: %v\n", oneLine(err.Error()))
		return 2
	}
	return code
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func checkMain(f *checkFlags, paths []string, stdout, stderr io.Writer) (int, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return 2, err
	}
	r := &checkRun{flags: f, cwd: cwd, stderr: stderr, opts: map[*config.Config]*analysis.Options{}, cfgOf: map[string]*config.Config{}}
	if r.loader, err = config.NewLoader(f.configPath); err != nil {
		return 2, err
	}
	var roots, known []string
	var stdinSrc []byte
	if f.stdinFilename != "" {
		abs, err := filepath.Abs(f.stdinFilename)
		if err != nil {
			return 2, err
		}
		if _, ok := grammar.LangOf(abs); !ok {
			return 2, usagef("--stdin-filename %s: not a C++ or Python file name", f.stdinFilename)
		}
		if stdinSrc, err = io.ReadAll(stdin); err != nil {
			return 2, fmt.Errorf("reading stdin: %v", err)
		}
		r.stdin = abs
		r.files = []string{abs}
		roots = []string{r.rootFor(abs)}
		if _, err := r.configFor(abs); err != nil {
			return 2, err
		}
	} else if r.files, roots, known, err = r.collectFiles(paths); err != nil {
		return 2, err
	}
	r.ws = workspace.New(roots...)
	r.ws.SetLimits(func(path string) int64 {
		c, err := r.loader.ForFile(path)
		if err != nil {
			c = nil
		}
		return c.FileSizeLimit()
	}, 0)
	r.ws.SetIncludeDirs(r.includeDirs())
	if known != nil {
		r.ws.Seed(known)
	}
	if r.stdin != "" {
		r.ws.SetOverlay(r.stdin, stdinSrc, 1)
	}
	var bl *baseline
	if f.baseline != "" {
		if bl, err = readBaseline(f.baseline); err != nil {
			return 2, err
		}
		r.baseline = bl
	}

	var results []fileResult
	fixing := f.fix || f.diff
	fixed := 0
	if fixing {
		results, fixed, err = r.fixLoop()
	} else {
		results, err = r.checkAll(true)
	}
	if err != nil {
		return 2, err
	}
	var all []analysis.Diagnostic
	for _, res := range results {
		all = append(all, res.diags...)
	}
	analysis.SortDiagnostics(all)

	if f.writeBaseline != "" {
		n, err := writeBaseline(f.writeBaseline, r.baselineRoots(), r.ws, active(all))
		if err != nil {
			return 2, err
		}
		if !f.quiet {
			fmt.Fprintf(stderr, "extern-lsp check: wrote %d finding(s) to %s\n", n, f.writeBaseline)
		}
		return 0, nil
	}
	if bl != nil && !f.diff {
		stale := bl.apply(r.ws, all, r.files)
		if len(stale) > 0 && !f.quiet {
			fmt.Fprintf(stderr, "extern-lsp check: %d stale baseline entr%s (fixed or moved findings; run --write-baseline to refresh):\n", len(stale), plural(len(stale), "y", "ies"))
			for _, e := range stale {
				fmt.Fprintf(stderr, "  %s: %s %s (x%d)\n", e.File, e.Code, e.Name, e.Count)
			}
		}
	}

	// Writes and diffs come last, once nothing can fail any more.
	changed := r.changedFiles()
	switch {
	case f.diff:
		for _, p := range changed {
			src, _ := r.ws.Source(p)
			name := filepath.ToSlash(relPath(r.cwd, p))
			io.WriteString(stdout, unifiedDiff("a/"+name, "b/"+name, r.origSrc[p], src))
		}
		if !f.quiet {
			r.diffSummary(stderr, fixed, len(changed))
		}
		// Nothing was written: every finding, fixable or not, remains
		// (baseline already applied to them, on the original text).
		return r.exitCode(active(r.initial)), nil
	case f.fix && r.stdin != "":
		src, _ := r.ws.Source(r.stdin)
		stdout.Write(src)
		stdout = stderr // the fixed source owns stdout; findings go to stderr
	case f.fix:
		written := r.writeFixes(changed)
		if !f.quiet && len(written) < len(changed) {
			fmt.Fprintf(stderr, "extern-lsp check: wrote the fixes of %d of %d file(s)\n", len(written), len(changed))
		}
		changed = written
	}
	if f.fix && !f.quiet && fixed > 0 && len(changed) > 0 && r.unwritten == 0 {
		fmt.Fprintf(stderr, "extern-lsp check: fixed %d finding(s) in %d file(s)\n", fixed, len(changed))
	}
	w := &reporter{ws: r.ws, cwd: r.cwd, w: stdout, color: useColor(stdout, f.noColor), quiet: f.quiet, unsafe: f.unsafeFixes}
	var stats *checkStats
	if f.stats {
		stats = collectStats(r.ws, r.files, active(all), f.unsafeFixes)
	}
	switch f.format {
	case "json":
		w.json(active(all), len(results), stats)
	case "json-lines":
		w.jsonLines(active(all))
	case "sarif":
		w.sarif(all, ruleSet())
	case "github":
		w.github(active(all))
	case "pylint":
		w.pylint(active(all))
	case "azure":
		w.azure(active(all))
	case "concise":
		w.concise(active(all), len(results))
	case "grouped":
		w.grouped(active(all), len(results))
	default:
		w.text(active(all), len(results))
	}
	if stats != nil && f.format != "json" {
		// Machine formats keep stdout to themselves.
		out := stdout
		if f.format != "text" && f.format != "concise" && f.format != "grouped" {
			out = stderr
		}
		stats.write(out)
	}
	if r.reportSkipped() {
		return 2, nil
	}
	return r.exitCode(active(all)), nil
}

// diffSummary says what --diff showed, and why it showed nothing: no
// fixable finding, or only unsafe fixes without --unsafe-fixes.
func (r *checkRun) diffSummary(w io.Writer, fixed, changed int) {
	unsafeOnly := 0
	if !r.flags.unsafeFixes {
		for _, d := range active(r.initial) {
			if fix, hasUnsafe := fixable(d, false); fix == nil && hasUnsafe {
				unsafeOnly++
			}
		}
	}
	more := ""
	if unsafeOnly > 0 {
		more = fmt.Sprintf("; %d finding(s) have only unsafe fixes, shown with --unsafe-fixes", unsafeOnly)
	}
	switch {
	case changed > 0:
		fmt.Fprintf(w, "extern-lsp check: %d fix(es) would change %d file(s)%s\n", fixed, changed, more)
	case unsafeOnly > 0:
		fmt.Fprintf(w, "extern-lsp check: no safe fixes to show; %d finding(s) have only unsafe fixes: add --unsafe-fixes to see them\n", unsafeOnly)
	default:
		fmt.Fprintln(w, "extern-lsp check: no fixes to show")
	}
}

// writeFixes writes the fixed files through the one write path and returns
// the ones written; every file not written is recorded as skipped.
func (r *checkRun) writeFixes(changed []string) []string {
	wr := &fsys.Writer{Roots: r.ws.Roots()}
	var written []string
	for _, p := range changed {
		src, _ := r.ws.Source(p)
		var stamp *fsys.Stamp
		if st, ok := r.stamps[p]; ok {
			stamp = &st
		}
		if err := wr.Replace(p, stamp, src); err != nil {
			r.skip(p, "fixes not written: "+unwrapPath(err).Error())
			r.unwritten++
			continue
		}
		written = append(written, p)
	}
	return written
}

func (r *checkRun) skip(path, why string) {
	r.skipped = append(r.skipped, skip{path, why})
}

// reportSkipped prints what was not read or not written (the workspace's
// read problems too) and reports whether there was anything.
func (r *checkRun) reportSkipped() bool {
	seen := map[string]bool{}
	var all []skip
	for _, s := range r.skipped {
		if !seen[s.path] {
			seen[s.path] = true
			all = append(all, s)
		}
	}
	if r.ws != nil {
		for _, p := range r.ws.Problems() {
			if !seen[p.Path] {
				seen[p.Path] = true
				all = append(all, skip{p.Path, unwrapPath(p.Err).Error()})
			}
		}
	}
	for _, n := range r.notes {
		fmt.Fprintf(r.stderr, "extern-lsp check: note: %s\n", escapeText(n))
	}
	if len(all) == 0 {
		return false
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].path < all[j].path })
	for _, s := range all {
		fmt.Fprintf(r.stderr, "extern-lsp check: skipped %s: %s\n", escapeText(relPath(r.cwd, s.path)), escapeText(s.why))
	}
	fmt.Fprintf(r.stderr, "extern-lsp check: %d path(s) skipped; exit code 2\n", len(all))
	return true
}

// active drops suppressed (NOLINT, baseline) findings.
func active(ds []analysis.Diagnostic) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, d := range ds {
		if d.Suppressed == "" {
			out = append(out, d)
		}
	}
	return out
}

func (r *checkRun) exitCode(ds []analysis.Diagnostic) int {
	if r.flags.exitZero {
		return 0
	}
	errs, warns := 0, 0
	for _, d := range ds {
		switch {
		case d.Severity == analysis.SeverityError:
			errs++
		case d.Severity == analysis.SeverityWarning:
			warns++
		}
	}
	if errs > 0 {
		return 1
	}
	if r.flags.maxWarnings >= 0 {
		if warns > r.flags.maxWarnings {
			return 1
		}
		return 0
	}
	if warns > 0 {
		return 1
	}
	return 0
}

// configFor returns (and caches) the configuration of a file.
func (r *checkRun) configFor(path string) (*config.Config, error) {
	c, err := r.loader.ForFile(path)
	if err != nil {
		return nil, err
	}
	r.optsMu.Lock()
	r.cfgOf[path] = c
	r.optsMu.Unlock()
	return c, nil
}

// optionsFor returns the driver options of a file: its configuration with
// the command line's --select/--ignore/--strict on top.
func (r *checkRun) optionsFor(path string) analysis.Options {
	r.optsMu.Lock()
	defer r.optsMu.Unlock()
	c := r.cfgOf[path]
	if c == nil {
		c = config.Default()
	}
	if o, ok := r.opts[c]; ok {
		return *o
	}
	eff := *c
	if sel := splitList(r.flags.selectRules); len(sel) > 0 {
		eff.Select = sel
	}
	eff.ExtendSelect = append(append([]string(nil), c.ExtendSelect...), splitList(r.flags.extendSelect)...)
	if r.flags.strict {
		eff.ExtendSelect = append(eff.ExtendSelect, rules.UnusedSuppression.Code)
	}
	eff.Ignore = append(append([]string(nil), c.Ignore...), splitList(r.flags.ignoreRules)...)
	o := eff.Options(ruleSet())
	o.KeepSuppressed = true
	r.opts[c] = &o
	return o
}

type fileResult struct {
	path        string
	diags       []analysis.Diagnostic
	err         error
	invalidUTF8 string // where the text stops being UTF-8, if it does
}

// includeDirs are the -I folders, then the include-dirs of every
// configuration the run loaded.
func (r *checkRun) includeDirs() []string {
	dirs := append([]string(nil), r.flags.includeDirs...)
	r.optsMu.Lock()
	defer r.optsMu.Unlock()
	for _, p := range sortedKeys(r.cfgOf) {
		for _, d := range r.cfgOf[p].IncludeDirs {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// checkAll runs the rules over every file; a file that cannot be read is
// recorded as skipped (once, on the first round) and the run goes on.
func (r *checkRun) checkAll(progress bool) ([]fileResult, error) {
	var prog *progressBar
	if progress && !r.flags.quiet && !r.flags.noProgress {
		prog = newProgress(r.stderr, len(r.files))
	}
	results := checkFiles(r.ws, r.files, r.optionsFor, r.flags.jobs, prog)
	prog.done()
	for i := range results {
		res := &results[i]
		if res.err == nil {
			if progress && res.invalidUTF8 != "" {
				r.notes = append(r.notes, relPath(r.cwd, res.path)+res.invalidUTF8)
			}
			continue
		}
		if progress {
			r.skip(res.path, unwrapPath(res.err).Error())
		}
		res.err = nil
	}
	return results, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkFiles runs the driver over files in parallel, with per-file options.
// Generated and vendored files are checked too; the driver shows their
// findings at info.
func checkFiles(ws *workspace.Workspace, files []string, optsFor func(string) analysis.Options, jobs int, prog *progressBar) []fileResult {
	if jobs < 1 {
		jobs = 1
	}
	results := make([]fileResult, len(files))
	var wg sync.WaitGroup
	var n atomic.Int64
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d, err := analysis.Run(ws, files[i], optsFor(files[i]))
				results[i] = fileResult{path: files[i], diags: d, err: err}
				if src, serr := ws.Source(files[i]); serr == nil {
					if line, col := fsys.InvalidUTF8(src); line > 0 {
						results[i].invalidUTF8 = fmt.Sprintf(":%d:%d: not valid UTF-8 from here on; checked as is (columns may be off)", line, col)
					}
				}
				prog.set(int(n.Add(1)))
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func relPath(cwd, p string) string {
	if r, err := filepath.Rel(cwd, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
