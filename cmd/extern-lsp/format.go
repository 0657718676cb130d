package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// reporter prints findings in one of the --format shapes.
type reporter struct {
	ws     *workspace.Workspace
	cwd    string
	w      io.Writer
	color  bool
	quiet  bool
	unsafe bool // --unsafe-fixes: unsafe fixes count as applicable
	loc    *locator
	// grouping: a blank line ends the findings before the summary.
	grouping bool
}

// useColor: only on a terminal, never with --no-color or NO_COLOR set.
func useColor(w io.Writer, noColor bool) bool {
	if noColor || os.Getenv("NO_COLOR") != "" {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiBlue   = "\x1b[1;34m"
	ansiCyan   = "\x1b[1;36m"
	ansiGreen  = "\x1b[1;32m"
	ansiDim    = "\x1b[2m"
)

func (r *reporter) paint(code, s string) string {
	if !r.color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func severityColor(s analysis.Severity) string {
	switch s {
	case analysis.SeverityError:
		return ansiRed
	case analysis.SeverityWarning:
		return ansiYellow
	case analysis.SeverityInfo:
		return ansiBlue
	}
	return ansiCyan
}

// position is a 1-based line and UTF-8 byte column.
type position struct{ line, col int }

type locator struct {
	ws    *workspace.Workspace
	lines map[string]*grammar.Lines
}

func (l *locator) at(file string, off uint32) position {
	line, col := l.linesOf(file).Position(off)
	return position{line + 1, col + 1}
}

// atUTF16 is a 1-based line and UTF-16 column (SARIF's default unit).
func (l *locator) atUTF16(file string, off uint32) position {
	line, col := l.linesOf(file).PositionUTF16(off)
	return position{line + 1, col + 1}
}

func (l *locator) linesOf(file string) *grammar.Lines {
	if l.lines == nil {
		l.lines = map[string]*grammar.Lines{}
	}
	if ln, ok := l.lines[file]; ok {
		return ln
	}
	src, _ := l.ws.Source(file)
	ln := grammar.NewLines(src)
	l.lines[file] = ln
	return ln
}

func (r *reporter) locator() *locator {
	if r.loc == nil {
		r.loc = &locator{ws: r.ws}
	}
	return r.loc
}

// maxEchoedLine caps the source line the text format quotes under a finding
// (a minified or generated line can be megabytes).
const maxEchoedLine = 400

// echoWindow is the part of a finding's line the text format quotes: the
// whole line, or on a long one a window of maxEchoedLine bytes around the
// finding (… marks the cut ends), with the caret's indent and width in it
// (bytes of text).
// Quoting a window keeps the output linear when a long line holds many
// findings.
func echoWindow(loc *locator, file string, s position, width int) (text string, pad, w int) {
	lines := loc.linesOf(file)
	src, _ := loc.ws.Source(file)
	ls, le := lines.LineStart(s.line-1), lines.LineEnd(s.line-1)
	if int(le) > len(src) || ls > le {
		return "", 0, 1
	}
	line := src[ls:le]
	col := s.col - 1
	from := 0
	if len(line) > maxEchoedLine && col > maxEchoedLine/2 {
		from = col - maxEchoedLine/2
		for from > 0 && !utf8.RuneStart(line[from]) {
			from--
		}
	}
	to := min(len(line), from+maxEchoedLine)
	for to < len(line) && to > from && !utf8.RuneStart(line[to]) {
		to--
	}
	text = string(line[from:to])
	pad = col - from
	if from > 0 {
		text = "…" + text
		pad += len("…")
	}
	if to < len(line) {
		text += "…"
	}
	return text, pad, max(1, min(width, to-col))
}

// escapeText makes a file name or message safe for a terminal: control
// characters (ESC, newline, carriage return, DEL, C1), bidirectional
// overrides and bytes that are not UTF-8 are written as Go escapes, so a
// crafted name can neither recolour the terminal nor forge a line.
func escapeText(s string) string {
	clean := true
	for _, c := range s {
		if unsafeRune(c) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x80 && unsafeRune(c):
			fmt.Fprintf(&b, `\x%02x`, c)
		case unsafeRune(c):
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func unsafeRune(c rune) bool {
	return c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 && c < 0xa0 || c == utf8.RuneError ||
		c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069
}

// fixable returns the fix --fix would apply (safe, or unsafe with
// --unsafe-fixes), and whether an unsafe one exists.
func fixable(d analysis.Diagnostic, unsafe bool) (fix *analysis.Fix, hasUnsafe bool) {
	for i := range d.Fixes {
		f := &d.Fixes[i]
		switch f.Applicability {
		case analysis.Safe:
			if fix == nil {
				fix = f
			}
		case analysis.Unsafe:
			hasUnsafe = true
			if unsafe && fix == nil {
				fix = f
			}
		}
	}
	return fix, hasUnsafe
}

// text is the gcc-style format: location, severity, message and rule, the
// source line with a caret under the range, the related locations (`note:`
// lines), the fix, and a summary.
func (r *reporter) text(diags []analysis.Diagnostic, files int) {
	loc := r.locator()
	r.each(diags, files, func(_ int, d analysis.Diagnostic, s position, fix *analysis.Fix, hasUnsafe bool) {
		fmt.Fprintf(r.w, "%s: %s: %s %s\n", r.where(d.File, s),
			r.paint(severityColor(d.Severity), d.Severity.String()), escapeText(d.Message),
			r.paint(ansiDim, "["+d.Code+" "+d.Name+"]"))
		e := loc.at(d.File, d.End)
		width := 1
		if e.line == s.line && e.col > s.col {
			width = e.col - s.col
		}
		text, pad, width := echoWindow(loc, d.File, s, width)
		// The caret is placed in display columns of the line as printed
		// (escaped, tabs as one space): CJK text before it is two
		// columns a character, three bytes.
		shown := func(s string) string { return escapeText(strings.ReplaceAll(s, "\t", " ")) }
		fmt.Fprintf(r.w, "  %s\n", shown(text))
		pad, width = displayWidth(shown(text[:pad])), max(1, displayWidth(shown(text[pad:pad+width])))
		fmt.Fprintf(r.w, "  %s%s\n", strings.Repeat(" ", pad), r.paint(ansiGreen, "^"+strings.Repeat("~", width-1)))
		for _, rel := range d.Related {
			fmt.Fprintf(r.w, "%s: note: %s\n", r.where(rel.File, loc.at(rel.File, rel.Start)), escapeText(rel.Message))
		}
		switch {
		case fix != nil:
			fmt.Fprintf(r.w, "  %s %s\n", r.paint(ansiCyan, "fix ("+fix.Applicability.String()+"):"), fix.Title)
		case hasUnsafe:
			for _, f := range d.Fixes {
				if f.Applicability == analysis.Unsafe {
					fmt.Fprintf(r.w, "  %s %s\n", r.paint(ansiCyan, "fix (unsafe, --unsafe-fixes):"), f.Title)
					break
				}
			}
		}
	})
}

// where is a finding's `file:line:col`, bold.
func (r *reporter) where(file string, p position) string {
	return r.paint(ansiBold, fmt.Sprintf("%s:%d:%d", escapeText(relPath(r.cwd, file)), p.line, p.col))
}

// each prints the findings one by one with line (fix: what --fix would
// apply; hasUnsafe: an unsafe fix exists), then, unless quiet, the summary
// and how many --fix (and --unsafe-fixes) could fix.
func (r *reporter) each(diags []analysis.Diagnostic, files int, line func(i int, d analysis.Diagnostic, s position, fix *analysis.Fix, hasUnsafe bool)) {
	loc := r.locator()
	nSafe, nUnsafe := 0, 0
	for i, d := range diags {
		fix, hasUnsafe := fixable(d, r.unsafe)
		if fix != nil {
			nSafe++
		} else if hasUnsafe {
			nUnsafe++
		}
		line(i, d, loc.at(d.File, d.Start), fix, hasUnsafe)
	}
	if r.quiet {
		return
	}
	if r.grouping && len(diags) > 0 {
		fmt.Fprintln(r.w)
	}
	r.summary(diags, files)
	if nSafe > 0 {
		fmt.Fprintf(r.w, "%d fixable with --fix", nSafe)
		if nUnsafe > 0 {
			fmt.Fprintf(r.w, " (%d more with --unsafe-fixes)", nUnsafe)
		}
		fmt.Fprintln(r.w)
	} else if nUnsafe > 0 {
		fmt.Fprintf(r.w, "%d fixable with --fix --unsafe-fixes\n", nUnsafe)
	}
}

// summary is the `N files checked: ...` line. It counts the findings past
// max-findings-per-rule (the exit code does), not the notes that stand for
// them, and says how many of them are not listed.
func (r *reporter) summary(diags []analysis.Diagnostic, files int) {
	counts, unlisted := analysis.SeverityCounts(diags)
	more := ""
	if unlisted > 0 {
		more = fmt.Sprintf(" (%d not listed: max-findings-per-rule)", unlisted)
	}
	// The severities by LSP's words, as each finding line says them; `note:`
	// is only the related-location line.
	hints := ""
	if n := counts[analysis.SeverityHint]; n > 0 {
		hints = ", " + count(n, "hint")
	}
	fmt.Fprintf(r.w, "%s checked: %s, %s, %s%s%s\n", count(files, "file"), count(counts[analysis.SeverityError], "error"),
		count(counts[analysis.SeverityWarning], "warning"), count(counts[analysis.SeverityInfo], "info"), hints, more)
}

func count(n int, s string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, s)
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// concise prints one line per finding: `file:line:col: severity: CODE [*]
// message` ([*] marks an applicable fix), then the summary.
func (r *reporter) concise(diags []analysis.Diagnostic, files int) {
	r.each(diags, files, func(_ int, d analysis.Diagnostic, s position, fix *analysis.Fix, _ bool) {
		fmt.Fprintf(r.w, "%s: %s: %s%s %s\n", r.where(d.File, s),
			r.paint(severityColor(d.Severity), d.Severity.String()), r.paint(ansiDim, d.Code), fixMark(fix), escapeText(d.Message))
	})
}

// fixMark is the [*] after a finding --fix can fix.
func fixMark(fix *analysis.Fix) string {
	if fix != nil {
		return " [*]"
	}
	return ""
}

// jsonSpan is where a finding, a note or an edit is: 1-based lines, UTF-8
// byte columns, the path relative to the working directory.
type jsonSpan struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
}

func (r *reporter) jsonSpan(file string, start, end uint32) jsonSpan {
	s, e := r.locator().at(file, start), r.locator().at(file, end)
	return jsonSpan{File: relPath(r.cwd, file), Line: s.line, Column: s.col, EndLine: e.line, EndColumn: e.col}
}

type jsonEdit struct {
	jsonSpan
	NewText string `json:"new_text"`
}

type jsonFix struct {
	Title         string     `json:"title"`
	Applicability string     `json:"applicability"`
	Edits         []jsonEdit `json:"edits"`
}

type jsonDiag struct {
	jsonSpan
	Code     string        `json:"code"`
	Name     string        `json:"name"`
	Severity string        `json:"severity"`
	Message  string        `json:"message"`
	Related  []jsonRelated `json:"related"`
	Fixes    []jsonFix     `json:"fixes"`
	// Unlisted is set on the note that stands for a rule's findings in
	// the file past max-findings-per-rule.
	Unlisted *jsonUnlisted `json:"unlisted,omitempty"`
}

// jsonUnlisted is what a cap note stands for: count findings of the rule
// code (name) in the file, not listed.
type jsonUnlisted struct {
	Code  string `json:"code"`
	Name  string `json:"name"`
	Count int    `json:"count"`
	Max   int    `json:"max_findings_per_rule"`
}

// jsonRelated is a note at another location (the stub parameter, the
// barrier an early return skips): what the text format prints as `note:`.
type jsonRelated struct {
	jsonSpan
	Message string `json:"message"`
}

// jsonDiag converts a finding to the JSON shape.
func (r *reporter) jsonDiag(d analysis.Diagnostic) jsonDiag {
	jd := jsonDiag{jsonSpan: r.jsonSpan(d.File, d.Start, d.End),
		Code: d.Code, Name: d.Name, Severity: d.Severity.String(), Message: d.Message, Related: []jsonRelated{}, Fixes: []jsonFix{}}
	for _, rel := range d.Related {
		jd.Related = append(jd.Related, jsonRelated{r.jsonSpan(rel.File, rel.Start, rel.End), rel.Message})
	}
	for _, f := range d.Fixes {
		jf := jsonFix{Title: f.Title, Applicability: f.Applicability.String(), Edits: []jsonEdit{}}
		for _, ed := range f.Edits {
			jf.Edits = append(jf.Edits, jsonEdit{r.jsonSpan(ed.File, ed.Start, ed.End), ed.NewText})
		}
		jd.Fixes = append(jd.Fixes, jf)
	}
	if u := d.Unlisted; u != nil {
		jd.Unlisted = &jsonUnlisted{Code: u.Code, Name: u.Name, Count: u.Total(), Max: u.Max}
	}
	return jd
}

// json prints the public contract: {"diagnostics": [...], "files_checked": N}
// (and "statistics" with --statistics), byte for byte what encoding/json
// writes for that document with a two-space indent. Each finding is
// converted and written on its own through a buffered writer: a document
// encoded whole holds its text twice (encoded, then indented), and on a
// big file with many findings that text is 20 to 40 times the input.
func (r *reporter) json(diags []analysis.Diagnostic, n int, stats *checkStats) {
	w := bufio.NewWriter(r.w)
	defer w.Flush()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// write encodes v as a value nested at depth levels of the document;
	// the encoder's trailing newline is not part of it.
	write := func(v any, depth int) {
		buf.Reset()
		enc.SetIndent(strings.Repeat("  ", depth), "  ")
		enc.Encode(v)
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	w.WriteString("{\n  \"diagnostics\": [")
	for i, d := range diags {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		write(r.jsonDiag(d), 2)
	}
	if len(diags) > 0 {
		w.WriteString("\n  ")
	}
	fmt.Fprintf(w, "],\n  \"files_checked\": %d", n)
	if partial := incompleteFiles(diags, r.cwd); len(partial) > 0 {
		w.WriteString(",\n  \"not_fully_analysed\": ")
		write(partial, 1)
	}
	if stats != nil {
		w.WriteString(",\n  \"statistics\": ")
		write(stats, 1)
	}
	w.WriteString("\n}\n")
}

// jsonLines prints one finding per line, each a compact JSON object of the
// same shape as in --format json (for streaming and `jq -c`).
func (r *reporter) jsonLines(diags []analysis.Diagnostic) {
	enc := json.NewEncoder(r.w)
	enc.SetEscapeHTML(false)
	for _, d := range diags {
		enc.Encode(r.jsonDiag(d))
	}
}

// grouped prints the findings under their file's name, one indented
// `line:col CODE [*] message` each, then the summary (ruff's grouped).
func (r *reporter) grouped(diags []analysis.Diagnostic, files int) {
	r.grouping = true
	r.each(diags, files, func(i int, d analysis.Diagnostic, s position, fix *analysis.Fix, _ bool) {
		if i == 0 || diags[i-1].File != d.File {
			if i > 0 {
				fmt.Fprintln(r.w)
			}
			fmt.Fprintf(r.w, "%s:\n", r.paint(ansiBold, relPath(r.cwd, d.File)))
		}
		fmt.Fprintf(r.w, "  %-8s %s %s%s %s\n", fmt.Sprintf("%d:%d", s.line, s.col), r.paint(severityColor(d.Severity), d.Severity.String()+":"),
			r.paint(ansiDim, d.Code), fixMark(fix), d.Message)
	})
}

// pylint prints `file:line: [CODE] message` (pylint's parseable format).
func (r *reporter) pylint(diags []analysis.Diagnostic) {
	loc := r.locator()
	for _, d := range diags {
		s := loc.at(d.File, d.Start)
		fmt.Fprintf(r.w, "%s:%d: [%s] %s\n", relPath(r.cwd, d.File), s.line, d.Code, d.Message)
	}
}

// azure prints Azure Pipelines logging commands.
func (r *reporter) azure(diags []analysis.Diagnostic) {
	loc := r.locator()
	for _, d := range diags {
		s := loc.at(d.File, d.Start)
		typ := "warning"
		if d.Severity == analysis.SeverityError {
			typ = "error"
		}
		fmt.Fprintf(r.w, "##vso[task.logissue type=%s;sourcepath=%s;linenumber=%d;columnnumber=%d;code=%s;]%s\n",
			typ, relPathSlash(r.cwd, d.File), s.line, s.col, d.Code, azureData(d.Message))
	}
}

// azureData escapes a logging command's message.
func azureData(s string) string {
	return strings.NewReplacer("%", "%AZP25", "\r", "%0D", "\n", "%0A", ";", "%3B", "]", "%5D").Replace(s)
}

// github prints workflow commands that GitHub Actions turns into
// annotations on the pull request.
func (r *reporter) github(diags []analysis.Diagnostic) {
	loc := r.locator()
	for _, d := range diags {
		s, e := loc.at(d.File, d.Start), loc.at(d.File, d.End)
		level := "notice"
		switch d.Severity {
		case analysis.SeverityError:
			level = "error"
		case analysis.SeverityWarning:
			level = "warning"
		}
		props := fmt.Sprintf("file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s",
			ghProp(relPathSlash(r.cwd, d.File)), s.line, s.col, e.line, e.col, ghProp(d.Code+" "+d.Name))
		fmt.Fprintf(r.w, "::%s %s::%s\n", level, props, ghData(d.Message+" ["+d.Code+" "+d.Name+"]"))
	}
}

func relPathSlash(cwd, p string) string {
	return strings.ReplaceAll(relPath(cwd, p), string(os.PathSeparator), "/")
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProp escapes a workflow command property value.
func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// displayWidth is the number of terminal columns s takes: two for East
// Asian wide and fullwidth characters, none for combining marks, one for
// the rest.
func displayWidth(s string) int {
	n := 0
	for _, c := range s {
		switch {
		case unicode.Is(unicode.Mn, c) || unicode.Is(unicode.Me, c) || c == 0x200b:
		case width.LookupRune(c).Kind() == width.EastAsianWide || width.LookupRune(c).Kind() == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// incompleteFile is a file some rule did not analyse fully, with why
// (JSON's not_fully_analysed, SARIF's notifications).
type incompleteFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// incompleteFiles lists the files the notes of diags say were not fully
// analysed, in order, once each.
func incompleteFiles(diags []analysis.Diagnostic, cwd string) []incompleteFile {
	var out []incompleteFile
	for _, d := range firstIncomplete(diags) {
		out = append(out, incompleteFile{File: relPath(cwd, d.File), Reason: d.Message})
	}
	return out
}

// firstIncomplete is, for each file some rule did not analyse fully, the
// first note of diags saying so, in order (the text, JSON and SARIF
// reports all name a file once, by that note).
func firstIncomplete(diags []analysis.Diagnostic) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	seen := map[string]bool{}
	for _, d := range diags {
		if analysis.Incomplete(&d) && !seen[d.File] {
			seen[d.File] = true
			out = append(out, d)
		}
	}
	return out
}
