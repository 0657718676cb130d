package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/coverage"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// checkStats is what --statistics reports: how much the run saw, what it
// could not see, and the findings per rule. A new figure is one more
// counter appended in collectStats; the printers and the JSON take it as is.
type checkStats struct {
	Counters []statCounter `json:"counters"`
	Rules    []ruleCount   `json:"findings_by_rule"`
}

// statCounter is one figure: Key names it in JSON, Label and Note in text.
// Files names what is behind the count (paths relative to the working
// directory, `path:line` for a place, `path (n)` for several in one file):
// all of them in JSON, the first few in text.
type statCounter struct {
	Key   string   `json:"key"`
	Label string   `json:"label"`
	N     int      `json:"count"`
	Note  string   `json:"note,omitempty"`
	Files []string `json:"files"`
}

type ruleCount struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	N       int    `json:"count"`
	Fixable bool   `json:"fixable"`
	// Unlisted of the N were past max-findings-per-rule in their file.
	Unlisted int `json:"unlisted,omitempty"`
}

// add appends a counter.
func (s *checkStats) add(key, label string, n int, note string, files []string) {
	if files == nil {
		files = []string{}
	}
	s.Counters = append(s.Counters, statCounter{Key: key, Label: label, N: n, Note: note, Files: files})
}

// launchLabel is each launch model's line in the text statistics.
var launchLabel = map[unit.Launch]string{
	unit.LaunchExtern:     "  pypto externs",
	unit.LaunchRuntime:    "  runtime-ABI kernels",
	unit.LaunchStandalone: "  standalone kernels",
	unit.LaunchHost:       "  host-only (CPU sim)",
	unit.LaunchUnknown:    "  unknown launch",
}

// includeLabel and includeNote name the searches that resolve #includes.
var includeLabel = map[workspace.IncludeSource]string{
	workspace.FromFolder: "#includes found beside",
	workspace.FromConfig: "  by include-dirs / -I",
	workspace.FromBuild:  "  by build files",
	workspace.FromSuffix: "  by unique suffix",
}

var includeNote = map[workspace.IncludeSource]string{
	workspace.FromFolder: "found in the including file's folder",
	workspace.FromConfig: "found in a folder of -I, include-dirs or a stub's include_dirs",
	workspace.FromBuild:  "found in a folder a CMakeLists.txt, build script, setup.py or compile_commands.json over the file names",
	workspace.FromSuffix: "found nowhere else: the one file of the tree whose path ends with the include's (or of several, the one nearest the includer)",
}

// launchNote says what each launch model's units get.
var launchNote = map[unit.Launch]string{
	unit.LaunchExtern:     "entries an @pl.jit.extern stub links: every rule",
	unit.LaunchRuntime:    "the runtime's kernel(args) shape: every rule",
	unit.LaunchStandalone: "__global__ kernels launched by the host: hardware and cache rules, not the runtime's",
	unit.LaunchHost:       "CPU-simulator builds: no rule",
	unit.LaunchUnknown:    "no recognised entry shape: hardware and cache rules at most",
}

// collectStats measures a run: the files analysed, the extern units they
// belong to and how many of those have no known target chip, the files that
// did not parse cleanly, the quoted #includes that resolve to no file, what
// the analysis could not see (sight: macros it cannot read, unknown
// template arguments) and the fixes demoted for it, and the findings per
// rule, each with the files behind it. gaps are the run's coverage gaps
// (coverage.Find, found once for the run). archSet reports whether the
// configuration (or --arch) names the target chip for a file.
func collectStats(ws *workspace.Workspace, cwd string, results []engine.FileResult, diags []analysis.Diagnostic, gaps []coverage.Gap, unsafe bool, archSet func(path string) bool, buildOf func(entry string, l unit.LaunchModel) unit.Build) *checkStats {
	s := &checkStats{}
	rel := func(p string) string { return relPath(cwd, p) }
	loc := locator{ws: ws}
	at := func(p string, off uint32) string { return fmt.Sprintf("%s:%d", rel(p), loc.at(p, off).line) }
	units := map[string]bool{}
	var analysed, parseErrs, unparsed, unresolved, unevaluatedFiles, binary []string
	var undefined, unread, templates, ambiguous, offBuild []string
	bySource := map[workspace.IncludeSource][]string{}
	buildSkipped := map[string]bool{}
	var sight analysis.Sight
	unevaluated := 0
	var unevaluatedNames []string
	inFile := func(list *[]string, p string, n int) {
		if n == 1 {
			*list = append(*list, rel(p))
		} else if n > 1 {
			*list = append(*list, fmt.Sprintf("%s (%d)", rel(p), n))
		}
	}
	for _, res := range results {
		p := res.Path
		src, err := ws.Source(p)
		if err != nil {
			// Unreadable: not analysed.
			continue
		}
		if grammar.IsBinary(src) {
			// Binary: not analysed, and counted as not fully analysed.
			binary = append(binary, rel(p))
			continue
		}
		analysed = append(analysed, rel(p))
		sight.Add(res.Sight)
		inFile(&undefined, p, res.Sight.UndefinedMacros)
		inFile(&unread, p, res.Sight.UnreadMacros)
		inFile(&templates, p, res.Sight.TemplateConditions)
		if res.ParseErrors {
			parseErrs = append(parseErrs, rel(p))
		}
		if res.Unparsed {
			unparsed = append(unparsed, rel(p))
		}
		if l, _ := grammar.LangOf(p); l != grammar.CPP {
			n, names := unevaluatedIncludeDirs(ws, p)
			unevaluated += n
			unevaluatedNames = append(unevaluatedNames, names...)
			inFile(&unevaluatedFiles, p, n)
			continue
		}
		for _, u := range ws.Context(p).Units {
			units[u] = true
		}
		_, skipped := ws.BuildIncludeDirs(filepath.Dir(p))
		for _, e := range skipped {
			buildSkipped[e] = true
		}
		for _, r := range ws.Resolutions(p) {
			place := fmt.Sprintf("%s: %q", at(p, r.Include.Start), r.Include.Path)
			switch {
			case r.Path != "":
				bySource[r.Source] = append(bySource[r.Source], place)
			case r.Include.System:
			case r.Ambiguous():
				ambiguous = append(ambiguous, fmt.Sprintf("%s (%d files)", place, r.Candidates))
				unresolved = append(unresolved, place)
			default:
				unresolved = append(unresolved, place)
				if inBuildFolder(ws, p, r) {
					offBuild = append(offBuild, place)
				}
			}
		}
	}
	entries := slices.Sorted(maps.Keys(units))
	var unitNames, unknown []string
	for _, u := range entries {
		unitNames = append(unitNames, rel(u))
		if !(archSet != nil && archSet(u)) && !unit.InferTarget(ws, u).Known() {
			unknown = append(unknown, rel(u))
		}
	}
	s.add("files_analysed", "files analysed", len(results), "", analysed)
	s.add("units", "units", len(units), "entry files the analysed files are compiled into", unitNames)
	byLaunch := map[unit.Launch][]string{}
	var noEnd []string
	for _, e := range entries {
		lm := unit.LaunchOfEntry(ws, e)
		byLaunch[lm.Launch] = append(byLaunch[lm.Launch], rel(e))
		if buildOf != nil && lm.Launch.Device() {
			if b := buildOf(e, lm); !b.KernelEndWriteBack {
				noEnd = append(noEnd, rel(e)+": "+b.EndSource)
			}
		}
	}
	for _, l := range unit.Launches {
		s.add("units_"+strings.ReplaceAll(l.String(), "-", "_"), launchLabel[l], len(byLaunch[l]), launchNote[l], byLaunch[l])
	}
	s.add("units_no_end_write_back", "units no end write-back", len(noEnd),
		"device units whose build does not write the data cache back as the kernel ends (a switch turns it off, or an A5 `ascendc_library` build drops the dirty lines): a store there must be written back by the kernel; each with the source that decided", noEnd)
	analysedSet := make(map[string]bool, len(results))
	for _, res := range results {
		analysedSet[res.Path] = true
	}
	var unlinked []string
	for _, g := range gaps {
		if g.Kind == coverage.NoStub || g.Kind == coverage.Unlinked || g.Kind == coverage.StubAbove {
			for _, p := range g.Paths {
				if analysedSet[p] {
					unlinked = append(unlinked, rel(p))
				}
			}
		}
	}
	s.add("entries_without_stub", "entries no stub links", len(unlinked),
		"no `@pl.jit.extern` stub names them as its source: the args[] rules are off for them", unlinked)
	s.add("units_unknown_target", "units of unknown chip", len(unknown),
		"no `arch` setting, no #if naming A2/A3 or A5 and no SOC_VERSION of one of those chips in the build files or ASCEND_COMPUTE_UNIT in a CMakePresets.json (a chip extern-lsp does not model, such as Ascend310P, counts here too): flag ids and modes that differ between the chips were not judged", unknown)
	s.add("files_with_parse_errors", "files with parse errors", len(parseErrs), "findings there may be missing", parseErrs)
	s.add("files_not_parsed", "files not parsed", len(unparsed), "C++ files no extern compiles: no rule reads them, so they are not parsed and their parse errors are not counted", unparsed)
	var partial []string
	for _, d := range diags {
		if analysis.Incomplete(&d) && (len(partial) == 0 || partial[len(partial)-1] != rel(d.File)) {
			partial = append(partial, rel(d.File))
		}
	}
	partial = append(partial, binary...)
	if len(partial) > 0 {
		sort.Strings(partial)
		s.add("files_not_fully_analysed", "files not fully analysed", len(partial),
			"a NUL byte (skipped), or a rule cut short at its analysis steps (its own or a shared model's), a header not read, a rule crash (the EXT000 info on the file says which): exit code 2 or 3", partial)
	}
	for _, src := range workspace.IncludeSources {
		s.add("includes_by_"+src.String(), includeLabel[src], len(bySource[src]), includeNote[src], bySource[src])
	}
	s.add("unresolved_includes", "unresolved #includes", len(unresolved), "quoted includes found in no folder the searches above know, such as CANN or pto-isa headers: their macros and constants are unknown", unresolved)
	s.add("ambiguous_includes", "  of them ambiguous", len(ambiguous), "several files of the tree end with the include's path and none is nearest the includer: not guessed (name the folder in `include-dirs`)", ambiguous)
	s.add("includes_off_build", "  in build folders", len(offBuild), "a build file names a folder holding them (`include_directories`, `ascendc_include_directories`, -I), which is searched with `build-includes = true` (off by default) or `-I`", offBuild)
	var skippedDirs []string
	for _, e := range slices.Sorted(maps.Keys(buildSkipped)) {
		// "file:line: entry", the file relative like every path here.
		if k := strings.Index(e, ":"); k > 0 {
			e = rel(e[:k]) + e[k:]
		}
		skippedDirs = append(skippedDirs, e)
	}
	s.add("build_include_dirs_unevaluated", "unevaluated build -I", len(skippedDirs), "include folders build files over the analysed files name through what extern-lsp does not evaluate (a variable set outside the tree, a generator expression): not searched", skippedDirs)
	var unreadDefs []string
	for _, e := range ws.UnreadDefinitions() {
		if k := strings.LastIndex(e, ":"); k > 0 {
			e = rel(e[:k]) + e[k:]
		}
		unreadDefs = append(unreadDefs, e)
	}
	s.add("build_definitions_unread", "unread build -D", len(unreadDefs), "macro definitions build or Python files of the roots pass by a name that is not plain text (`-D${NAME}`): an `#ifdef` probe switch they may define is judged defined (EXT011)", unreadDefs)
	s.add("unevaluated_include_dirs", "unevaluated include_dirs", unevaluated, namedSample("stub include_dirs= entries not evaluated statically, headers found only through them are unresolved", unevaluatedNames), unevaluatedFiles)
	s.add("macro_uses_undefined", "undefined macro uses", sight.UndefinedMacros,
		"statements using a macro-like name that no file of the extern defines: what they do (return on a core, synchronise) is unknown", undefined)
	s.add("macro_uses_unread", "unreadable macro uses", sight.UnreadMacros,
		"statements using a macro of the extern whose body extern-lsp cannot read as statements (token pasting, partial statements)", unread)
	s.add("template_arguments_unknown", "unknown template args", sight.TemplateConditions,
		"conditions on a template argument extern-lsp does not know, with a return under them", templates)
	var demoted, saidLess []string
	for _, d := range diags {
		if len(d.Unseen) > 0 {
			demoted = append(demoted, at(d.File, d.Start))
		}
		if d.SaidLess != "" {
			saidLess = append(saidLess, at(d.File, d.Start))
		}
	}
	s.add("fixes_demoted", "fixes demoted to unsafe", len(demoted),
		"safe fixes of findings after something above that extern-lsp could not see: applied only with --unsafe-fixes", demoted)
	s.add("findings_said_less", "findings said less", len(saidLess),
		"infos that would be warnings but for code extern-lsp cannot see into (a call whose definition is in an #include that did not resolve, `unless f() ...`) or a host's arithmetic it does not follow (`unless every block the host launches ...`)", saidLess)

	if _, unlisted := analysis.SeverityCounts(diags); unlisted > 0 {
		var files []string
		for _, d := range diags {
			if d.Unlisted != nil {
				files = append(files, fmt.Sprintf("%s (%d %s)", rel(d.File), d.Unlisted.Total(), d.Unlisted.Code))
			}
		}
		s.add("findings_not_listed", "findings not listed", unlisted,
			"past max-findings-per-rule in their file: counted below and in the exit code, each file's rest stood for by one info", files)
	}

	byCode := map[string]*ruleCount{}
	rule := func(code, name string) *ruleCount {
		x := byCode[code]
		if x == nil {
			x = &ruleCount{Code: code, Name: name}
			byCode[code] = x
		}
		return x
	}
	for _, d := range diags {
		if u := d.Unlisted; u != nil {
			// The note is no finding: the findings it stands for are.
			x := rule(u.Code, u.Name)
			x.N += u.Total()
			x.Unlisted += u.Total()
			continue
		}
		x := rule(d.Code, d.Name)
		x.N++
		if f, _ := fixable(d, unsafe); f != nil {
			x.Fixable = true
		}
	}
	s.Rules = []ruleCount{}
	for _, x := range byCode {
		s.Rules = append(s.Rules, *x)
	}
	slices.SortFunc(s.Rules, func(x, y ruleCount) int { return cmp.Or(y.N-x.N, strings.Compare(x.Code, y.Code)) })
	return s
}

// write prints the counters, then the findings per rule, most frequent
// first ([*]: --fix can fix some of them).
func (s *checkStats) write(w io.Writer) {
	width := 0
	for _, c := range s.Counters {
		width = max(width, len(c.Label))
	}
	for _, c := range s.Counters {
		note := ""
		if c.Note != "" && c.N > 0 {
			note = "  (" + c.Note + ")"
		}
		fmt.Fprintf(w, "%-*s  %5d%s\n", width, c.Label, c.N, note)
		if c.N > 0 && len(c.Files) > 0 {
			fmt.Fprintf(w, "%-*s  %5s  %s\n", width, "", "", namedFiles(c.Files))
		}
	}
	if len(s.Rules) == 0 {
		fmt.Fprintln(w, "no findings")
		return
	}
	fmt.Fprintln(w, "findings by rule:")
	for _, x := range s.Rules {
		mark := "   "
		if x.Fixable {
			mark = "[*]"
		}
		more := ""
		if x.Unlisted > 0 {
			more = fmt.Sprintf("  (%d not listed)", x.Unlisted)
		}
		fmt.Fprintf(w, "%5d  %-7s %s %s%s\n", x.N, x.Code, mark, x.Name, more)
	}
}

// unevaluatedIncludeDirs lists the include_dirs= entries of a stub file's
// externs that could not be evaluated statically, once per expression
// (externs sharing a constant share its entries), and a name for each
// group of one reason: `ops.py: 20 entries, `os.environ.get(...)` reads
// ...`.
func unevaluatedIncludeDirs(ws *workspace.Workspace, path string) (entries int, names []string) {
	seen := map[string]bool{}
	var reasons []string
	count := map[string]int{}
	for _, st := range ws.StubsFor(path) {
		for _, d := range st.IncludeDirs {
			if d.Path != "" || seen[d.Expr+"\x00"+d.Reason] {
				continue
			}
			seen[d.Expr+"\x00"+d.Reason] = true
			entries++
			if count[d.Reason] == 0 {
				reasons = append(reasons, d.Reason)
			}
			count[d.Reason]++
		}
	}
	for _, r := range reasons {
		n := "1 entry"
		if count[r] > 1 {
			n = fmt.Sprintf("%d entries", count[r])
		}
		names = append(names, fmt.Sprintf("%s: %s, %s", filepath.Base(path), n, r))
	}
	return entries, names
}

// namedSample is a counter note naming up to three of the things counted.
func namedSample(what string, names []string) string {
	if len(names) == 0 {
		return what
	}
	const show = 3
	b := what + ": " + strings.Join(names[:min(show, len(names))], "; ")
	if len(names) > show {
		b += fmt.Sprintf("; and %d more", len(names)-show)
	}
	return b
}

// namedFiles is the text line under a counter: the first few files behind
// it and how many more (the JSON lists them all).
func namedFiles(files []string) string {
	const show = 3
	b := strings.Join(files[:min(show, len(files))], ", ")
	if len(files) > show {
		b += fmt.Sprintf(" and %d more", len(files)-show)
	}
	return b
}

// inBuildFolder reports whether an unresolved quoted include of file p
// names a file a folder the build files name holds, while build-includes
// is off: code the run did not read, which the switch or -I would let it.
func inBuildFolder(ws *workspace.Workspace, p string, r workspace.IncludeResolution) bool {
	if r.Path != "" || r.Include.System || r.Ambiguous() || !ws.BuildIncludesOff() {
		return false
	}
	for _, d := range ws.NamedBuildDirs(filepath.Dir(p)) {
		if st, err := os.Stat(filepath.Join(d.Dir, r.Include.Path)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// firstBuildFolderInclude is the first unresolved include of the
// analysed entries, in the results' order, that a build folder holds
// (inBuildFolder): its file and include, ok false when there is none. It
// stops at the first: counting them all walked every build folder of a
// large tree (--statistics does, and lists them).
func firstBuildFolderInclude(ws *workspace.Workspace, results []engine.FileResult) (file string, inc workspace.IncludeResolution, ok bool) {
	if !ws.BuildIncludesOff() {
		return "", workspace.IncludeResolution{}, false
	}
	for _, res := range results {
		if res.Unparsed || !ws.Context(res.Path).Entry {
			// The kernels' own includes: a header's would walk the
			// build folders of every library folder.
			continue
		}
		for _, r := range ws.Resolutions(res.Path) {
			if inBuildFolder(ws, res.Path, r) {
				return res.Path, r, true
			}
		}
	}
	return "", workspace.IncludeResolution{}, false
}
