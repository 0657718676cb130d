package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/config"
	"github.com/extern-lsp/extern-lsp/analysis/coverage"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/fsys"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func init() {
	commands["check"] = command{"check extern sources and report findings (text, concise, json, sarif, github)", runCheck}
}

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
	allowPartial  bool
	maxWarnings   int
	maxFindings   int
	baseline      string
	writeBaseline string
	stats         bool
	quiet         bool
	stdinFilename string
	noProgress    bool
	root          string
	includeDirs   dirList
	arch          string
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
	fs.BoolVar(&f.allowPartial, "allow-incomplete", false, "files analysed only in part (a rule cut short at its analysis steps, its own or a shared model's, a header not read, a rule crash) are still listed, but do not make the exit code 3")
	fs.IntVar(&f.maxWarnings, "max-warnings", -1, "exit 1 only when errors remain or warnings exceed this number")
	fs.IntVar(&f.maxFindings, "max-findings-per-rule", -1, "list at most this many findings of one rule in one file, and count the rest in one note (0: no cap; overrides max-findings-per-rule, default 500)")
	fs.StringVar(&f.baseline, "baseline", "", "ignore findings recorded in this baseline file")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in this baseline file and exit 0")
	fs.BoolVar(&f.stats, "statistics", false, "print what the run analysed (files, extern units, parse errors, unresolved includes) and the findings per rule")
	fs.BoolVar(&f.stats, "stats", false, "the same as --statistics")
	fs.BoolVar(&f.quiet, "quiet", false, "print findings only: no summary, notes or progress")
	fs.BoolVar(&f.quiet, "q", false, "short for --quiet")
	fs.StringVar(&f.stdinFilename, "stdin-filename", "", "with the path -, the name of the file read from stdin")
	fs.BoolVar(&f.noProgress, "no-progress", false, "never show progress on stderr")
	rootFlag(fs, &f.root)
	fs.Var(&f.includeDirs, "I", `search this folder for #includes ("x.h" and <x.h>), as the compile's -I (repeatable; adds to include-dirs)`)
	fs.StringVar(&f.arch, "arch", "", "the target chip: a2a3 (Atlas A2/A3, dav-c220) or a5 (Ascend 950, dav-c310); overrides the configured arch (default: inferred per extern unit from its #if conditionals, else the SOC_VERSION its build files pin)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: extern-lsp check [flags] [PATH...]   (PATH - reads stdin, with --stdin-filename)")
		fs.PrintDefaults()
		fmt.Fprint(stderr, exitCodesHelp)
	}
	paths, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := grammar.ParseArch(f.arch); f.arch != "" && !ok {
		return nil, nil, usagef("unknown --arch %q (want a2a3 or a5)", f.arch)
	}
	if f.maxFindings < -1 {
		return nil, nil, usagef("--max-findings-per-rule %d: want a count of findings, 0 for no cap", f.maxFindings)
	}
	if a, ok := formatAliases[f.format]; ok {
		f.format = a
	}
	if !slices.Contains(formats, f.format) {
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
			if err := config.CheckSelector(s, rules.All()); err != nil {
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

// checkRun is one invocation's state.
type checkRun struct {
	flags    *checkFlags
	cwd      string
	checker  *engine.Checker
	ws       *workspace.Workspace // checker.WS
	files    []string             // checker.Files
	stdin    string               // absolute path of the file read from stdin, if any
	stderr   io.Writer
	fixes    *engine.Fixed         // what --fix / --diff changed
	initial  []analysis.Diagnostic // findings before any fix (for --diff's exit code)
	baseline *baseline
	// skipped are the files and folders not read or not written, with why
	// (reported at the end; the exit code is then 2).
	skipped   []skip
	notes     []string       // said once at the end (non-UTF-8 text and the like)
	unwritten int            // fixed files not written
	gaps      []coverage.Gap // coverageGaps, once found
}

type skip struct {
	path string
	why  string
}

func runCheck(c *cli, args []string) int {
	stderr := c.stderr
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
	code, err := checkMain(c, f, paths)
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

func checkMain(c *cli, f *checkFlags, paths []string) (int, error) {
	stdout, stderr := c.stdout, c.stderr
	cwd, err := os.Getwd()
	if err != nil {
		return 2, err
	}
	r := &checkRun{flags: f, cwd: cwd, stderr: stderr}
	loader, err := config.NewLoader(f.configPath, rules.All())
	if err != nil {
		return 2, err
	}
	ov := engine.Overrides{
		Select:         splitList(f.selectRules),
		ExtendSelect:   splitList(f.extendSelect),
		ExtendIgnore:   splitList(f.ignoreRules),
		KeepSuppressed: true,
		Arch:           f.arch,
	}
	if f.strict {
		ov.ExtendSelect = append(ov.ExtendSelect, rules.UnusedSuppression.Code)
	}
	if f.maxFindings >= 0 {
		ov.MaxFindingsPerRule = &f.maxFindings
	}
	r.checker = &engine.Checker{Analyzers: c.rules, Loader: loader, Overrides: ov, Jobs: f.jobs, Syntax: f.stats, RootFor: r.rootFor, IncludeDirs: f.includeDirs}
	// Fixes and baselines need every finding: the run lists them all, and
	// the cap applies to what is shown.
	r.checker.Uncapped = f.fix || f.diff || f.baseline != "" || f.writeBaseline != ""
	if v := os.Getenv(stepsEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return 2, fmt.Errorf("%s=%q: want a positive number of steps", stepsEnv, v)
		}
		r.checker.Steps = n
	}
	if f.stdinFilename != "" {
		src, err := r.readStdin(c.stdin)
		if err != nil {
			return 2, err
		}
		if err := r.checker.Document(f.stdinFilename, src); err != nil {
			return 2, usagef("--stdin-filename %v", err)
		}
		r.stdin = r.checker.Files[0]
	} else if err := r.checker.Collect(paths); err != nil {
		return 2, err
	}
	r.ws, r.files = r.checker.WS, r.checker.Files
	defer setGCPercent(gcPercentFor(r.ws, r.files))()
	var bl *baseline
	if f.baseline != "" {
		if bl, err = readBaseline(f.baseline); err != nil {
			return 2, err
		}
		r.baseline = bl
	}

	var results []engine.FileResult
	var changed []string
	fixed := 0
	if f.fix || f.diff {
		fx := engine.Fixer{WS: r.ws, Unsafe: f.unsafeFixes, Recheck: r.checker.Recheck(), Check: func(round int) ([]analysis.Diagnostic, error) {
			results = r.checkAll(round == 0)
			diags := flatten(results)
			if round == 0 {
				r.initial = append([]analysis.Diagnostic(nil), diags...)
				// Fingerprints read the text: match the baseline before
				// any fix changes it.
				if r.baseline != nil {
					r.baseline.apply(r.ws, r.initial, r.files)
				}
			}
			return diags, nil
		}}
		if r.stdin != "" {
			// From stdin only that file's text can be printed back.
			fx.Allow = func(p string) bool { return p == r.stdin }
		}
		if r.fixes, err = fx.Run(); err != nil {
			return 2, err
		}
		for i := range results {
			r.fixes.Unoffer(results[i].Diags)
		}
		if !f.quiet {
			// The log of the run: each fix the recheck refused, and why.
			for _, d := range r.fixes.Dropped {
				fmt.Fprintf(stderr, "extern-lsp check: fix not applied: %s\n", d.String())
			}
		}
		if !r.fixes.Settled && !f.quiet {
			fmt.Fprintf(stderr, "extern-lsp check: fixes did not settle after %d rounds; the rest are left for review\n", engine.MaxFixRounds)
		}
		fixed, changed = r.fixes.Count, r.fixes.Changed(r.ws)
	} else {
		results = r.checkAll(true)
	}
	all := flatten(results)
	for i := range results {
		// all holds them now: one copy of the findings, not two.
		results[i].Diags = nil
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
	if r.checker.Uncapped {
		all = analysis.CapFindings(all, r.checker.FindingsCap)
	}

	// Writes and diffs come last, once nothing can fail any more.
	switch {
	case f.diff:
		for _, p := range changed {
			src, _ := r.ws.Source(p)
			name := filepath.ToSlash(relPath(r.cwd, p))
			io.WriteString(stdout, unifiedDiff("a/"+name, "b/"+name, r.fixes.Orig[p], src))
		}
		if !f.quiet {
			r.diffSummary(stderr, fixed, len(changed))
		}
		// Nothing was written: every finding, fixable or not, remains
		// (baseline already applied to them, on the original text).
		if n := r.reportIncomplete(active(r.initial)); n > 0 && !f.allowPartial {
			return ExitIncomplete, nil
		}
		return r.exitCode(active(r.initial)), nil
	case f.fix && r.stdin != "":
		src, _ := r.ws.Source(r.stdin)
		stdout.Write(src)
		stdout = stderr // the fixed source owns stdout; findings go to stderr
	case f.fix:
		written, failed := r.writeFixes()
		if !f.quiet && len(written) < len(changed) {
			fmt.Fprintf(stderr, "extern-lsp check: wrote the fixes of %d of %d file(s)\n", len(written), len(changed))
		}
		changed = written
		if len(failed) > 0 {
			all = r.onDisk(all, failed)
		}
	}
	if f.fix && !f.quiet && fixed > 0 && len(changed) > 0 && r.unwritten == 0 {
		fmt.Fprintf(stderr, "extern-lsp check: fixed %d finding(s) in %d file(s)\n", fixed, len(changed))
	}
	shown := active(all)
	w := &reporter{ws: r.ws, cwd: r.cwd, w: stdout, color: useColor(stdout, f.noColor), quiet: f.quiet, unsafe: f.unsafeFixes}
	var stats *checkStats
	if f.stats {
		stats = collectStats(r.ws, r.cwd, results, shown, r.coverageGaps(), f.unsafeFixes, func(p string) bool {
			if f.arch != "" {
				return true
			}
			cfg, err := r.checker.ConfigFor(p)
			return err == nil && cfg.Arch != ""
		}, func(entry string, l unit.LaunchModel) unit.Build {
			var bc unit.BuildConfig
			if cfg, err := r.checker.ConfigFor(entry); err == nil {
				st := cfg.Settings()
				bc, bc.Arch = st.Build, st.Arch
			}
			if a, ok := grammar.ParseArch(f.arch); ok && f.arch != "" {
				bc.Arch = a
			}
			return unit.BuildOfEntry(r.ws, entry, l, bc)
		})
		if r.fixes != nil {
			var why, files []string
			for _, d := range r.fixes.Dropped {
				rel := filepath.ToSlash(relPath(r.cwd, d.File))
				why = append(why, rel+": "+d.Code+" "+d.Why)
				files = append(files, rel)
			}
			stats.add("fixes_dropped", "fixes not applied", len(r.fixes.Dropped), namedSample("fixes whose re-check failed (the finding stayed, another appeared or the parse broke)", why), files)
		}
	}
	switch f.format {
	case "json":
		w.json(shown, len(results), stats)
	case "json-lines":
		w.jsonLines(shown)
	case "sarif":
		w.sarif(all, c.rules)
	case "github":
		w.github(shown)
	case "pylint":
		w.pylint(shown)
	case "azure":
		w.azure(shown)
	case "concise":
		w.concise(shown, len(results))
	case "grouped":
		w.grouped(shown, len(results))
	default:
		w.text(shown, len(results))
	}
	if stats != nil && f.format != "json" {
		// Machine formats keep stdout to themselves.
		out := stdout
		if f.format != "text" && f.format != "concise" && f.format != "grouped" {
			out = stderr
		}
		stats.write(out)
	}
	if r.stdin == "" && !f.quiet {
		r.reportGaps()
		if p, inc, ok := firstBuildFolderInclude(r.ws, results); ok && stats == nil {
			loc := &locator{ws: r.ws}
			// Said once without --statistics, which counts and lists
			// them: a run that read less than the build compiles says so.
			fmt.Fprintf(r.stderr, "extern-lsp check: #includes of the checked files are found only in folders the build files name "+
				"(`include_directories`, `ascendc_include_directories`, -I), such as %q at %s:%d; those folders are not searched while "+
				"`build-includes` is off, so the code behind them was not analysed: set `build-includes = true` or pass the folders "+
				"with -I (--statistics counts and lists them)\n",
				inc.Include.Path, escapeText(relPath(r.cwd, p)), loc.at(p, inc.Include.Start).line)
		}
	}
	partial := r.reportIncomplete(shown)
	if r.reportSkipped() {
		return 2, nil
	}
	if partial > 0 && !f.allowPartial {
		return ExitIncomplete, nil
	}
	return r.exitCode(shown), nil
}

// reportGaps says on stderr what the run could not see and how to let it
// (a root with no stub or entry, or below the stubs, a missing -I):
// otherwise such a run reports fewer findings without a word. Entries no
// stub links are common in a tree of plain AscendC kernels: --statistics
// names them.
func (r *checkRun) reportGaps() {
	for _, g := range r.coverageGaps() {
		if g.Kind != coverage.NoStub && g.Kind != coverage.Unlinked {
			fmt.Fprintf(r.stderr, "extern-lsp check: %s\n", escapeText(g.String()))
		}
	}
}

// coverageGaps are the run's coverage gaps, found once: the stderr report
// and --statistics both read them.
func (r *checkRun) coverageGaps() []coverage.Gap {
	if r.gaps == nil {
		how := "the project root"
		if r.flags.root != "" {
			how = "--root"
		}
		r.gaps = coverage.Find(r.ws, r.flags.includeDirs, how)
		if r.gaps == nil {
			r.gaps = []coverage.Gap{}
		}
	}
	return r.gaps
}

// ExitIncomplete is check's exit code when some file was analysed only in
// part (and none was skipped): CI must not pass a kernel whose analysis
// stopped before a known trap.
const ExitIncomplete = 3

// exitCodesHelp ends `check --help`.
const exitCodesHelp = `exit codes:
  0  no errors or warnings (or --exit-zero)
  1  errors or warnings remain (see --max-warnings)
  2  a usage or configuration error, or a path skipped (unreadable, a NUL byte, fixes not written)
  3  a file analysed only in part: a rule cut short at its analysis steps (its own or a shared model's),
     a header not read, a rule crash (the EXT000 info on the file says which; --allow-incomplete: not 3)
`

// reportIncomplete lists, on stderr, the files some rule did not analyse
// fully (the EXT000 note on each says why), and returns how many.
func (r *checkRun) reportIncomplete(ds []analysis.Diagnostic) int {
	var files []string
	why := map[string]string{}
	for _, d := range firstIncomplete(ds) {
		files = append(files, d.File)
		why[d.File] = d.Message
	}
	if len(files) == 0 || r.flags.quiet {
		return len(files)
	}
	sort.Strings(files)
	for _, p := range files {
		fmt.Fprintf(r.stderr, "extern-lsp check: incomplete %s: %s\n", escapeText(relPath(r.cwd, p)), escapeText(oneLine(why[p])))
	}
	code := fmt.Sprintf("exit code %d", ExitIncomplete)
	if r.flags.allowPartial {
		code = "exit code not changed (--allow-incomplete)"
	}
	fmt.Fprintf(r.stderr, "extern-lsp check: %d file(s) not fully analysed; %s\n", len(files), code)
	return len(files)
}

// readStdin reads the source given on stdin, capped like a file of that
// name (max-file-size): `- < /dev/zero` must end, not fill the memory.
func (r *checkRun) readStdin(stdin io.Reader) ([]byte, error) {
	limit := int64(fsys.DefaultMaxFileSize)
	if abs, err := filepath.Abs(r.flags.stdinFilename); err == nil {
		if cfg, err := r.checker.ConfigFor(abs); err == nil {
			limit = cfg.FileSizeLimit()
		}
	}
	src, err := io.ReadAll(io.LimitReader(stdin, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %v", err)
	}
	if int64(len(src)) > limit {
		return nil, fmt.Errorf("reading stdin: more than the max-file-size limit of %s; not checked", fsys.Bytes(limit))
	}
	return src, nil
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

// writeFixes writes the fixed files through the engine (the one write
// path) and returns the ones written; every file not written is recorded
// as skipped.
func (r *checkRun) writeFixes() ([]string, map[string]error) {
	written, failed := r.fixes.Write(r.ws)
	for _, p := range slices.Sorted(maps.Keys(failed)) {
		r.skip(p, "fixes not written: "+engine.UnwrapPath(failed[p]).Error())
		r.unwritten++
	}
	return written, failed
}

// onDisk gives each file whose fixes were not written back its text and
// its findings from before fixing: what the disk holds, and what the
// summary and the exit code must count.
func (r *checkRun) onDisk(all []analysis.Diagnostic, unwritten map[string]error) []analysis.Diagnostic {
	out := make([]analysis.Diagnostic, 0, len(all))
	for _, d := range all {
		if unwritten[d.File] == nil {
			out = append(out, d)
		}
	}
	var back []analysis.Diagnostic
	for _, d := range r.initial {
		if unwritten[d.File] != nil {
			back = append(back, d)
		}
	}
	for p := range unwritten {
		r.ws.SetOverlay(p, r.fixes.Orig[p], 1)
	}
	out = append(out, analysis.CapFindings(back, r.checker.FindingsCap)...)
	analysis.SortDiagnostics(out)
	return out
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
				all = append(all, skip{p.Path, engine.UnwrapPath(p.Err).Error()})
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

// active drops suppressed (NOLINT, baseline) findings: ds itself when
// none is (the list can be tens of thousands of findings with
// --max-findings-per-rule 0; a copy would double it).
func active(ds []analysis.Diagnostic) []analysis.Diagnostic {
	n := 0
	for _, d := range ds {
		if d.Suppressed == "" {
			n++
		}
	}
	if n == len(ds) {
		return ds
	}
	out := make([]analysis.Diagnostic, 0, n)
	for _, d := range ds {
		if d.Suppressed == "" {
			out = append(out, d)
		}
	}
	return out
}

func (r *checkRun) exitCode(ds []analysis.Diagnostic) int {
	counts, _ := analysis.SeverityCounts(ds)
	if !r.flags.exitZero && (counts[analysis.SeverityError] > 0 || counts[analysis.SeverityWarning] > max(r.flags.maxWarnings, 0)) {
		return 1
	}
	return 0
}

// checkAll runs the rules over every file; a file that cannot be read is
// recorded as skipped (once, on the first round) and the run goes on.
func (r *checkRun) checkAll(progress bool) []engine.FileResult {
	var prog *progressBar
	if progress && !r.flags.quiet && !r.flags.noProgress {
		prog = newProgress(r.stderr, len(r.files))
	}
	results := r.checker.Check(context.Background(), prog.set)
	prog.done()
	for i := range results {
		res := &results[i]
		if res.Err == nil {
			if progress && res.BadUTF8Line > 0 {
				r.notes = append(r.notes, fmt.Sprintf("%s:%d:%d: not valid UTF-8 from here on; checked as is (columns may be off)", relPath(r.cwd, res.Path), res.BadUTF8Line, res.BadUTF8Col))
			}
			continue
		}
		if progress {
			r.skip(res.Path, engine.UnwrapPath(res.Err).Error())
		}
		res.Err = nil
	}
	return results
}

// flatten gathers the findings of every file into one list of their
// exact total.
func flatten(results []engine.FileResult) []analysis.Diagnostic {
	lists := make([][]analysis.Diagnostic, len(results))
	for i, res := range results {
		lists[i] = res.Diags
	}
	return slices.Concat(lists...)
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

// stepsEnv sets the step budget of each rule in a file, and a tenth of
// each fact's they share (default analysis.DefaultSteps): a developer's
// switch, to see how a file stopped at its steps is reported.
const stepsEnv = "EXTERN_LSP_STEPS"
