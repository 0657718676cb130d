package analysis

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// The suppression model: the one parser of NOLINT / `# noqa` comments and
// the one writer of them (SuppressEdit adds a code, RemovalFix drops
// codes). The driver, EXT900, the server's code actions and hover all go
// through here; nothing else reads these comments.

// Suppression is one suppression comment.
type Suppression struct {
	Line  int      // 0-based line it applies to (first line for ranges)
	End   int      // last line it applies to (inclusive)
	Codes []string // codes, names or globs; empty means every rule
	Kind  string   // "NOLINT", "NOLINTNEXTLINE", "NOLINTBEGIN", "noqa"
	// Start and EndOff locate the suppression itself (`NOLINT(A, B)`,
	// `# noqa: A, B`), for unused-suppression reports, fixes and hover.
	Start, EndOff uint32
	// CodeSpans parallel Codes: each entry's byte range.
	CodeSpans [][2]uint32
	// List is the range of the code list (inside the parentheses, after
	// `noqa:`); HasList is false for a blanket suppression.
	List    [2]uint32
	HasList bool
	// Comment is the range of the whole comment holding the suppression.
	Comment [2]uint32
	Used    bool
	// UsedCodes parallels Codes: which entries silenced a finding (set by
	// Suppressed), so a partly used NOLINT(A, B) can be reported.
	UsedCodes []bool
}

const noqaEntry = `(?:[A-Za-z]+[0-9]+\*?|[a-z][a-z0-9]*(?:-[a-z0-9*]+)+)`

var (
	nolintRE = regexp.MustCompile(`\bNOLINT(NEXTLINE|BEGIN|END)?\b(\(([^)]*)\))?`)
	// noqa entries are codes, letters then digits (EXT103, E501), or
	// kebab-case rule names (return-binding), optionally globbed, separated
	// by commas or blanks, as flake8 and ruff read codes: the text after
	// the last entry is an ordinary comment.
	noqaRE = regexp.MustCompile(`#\s*noqa\b(?::\s*(` + noqaEntry + `(?:[,\s]+` + noqaEntry + `)*))?`)
)

// ParseSuppressions finds the suppression comments of a file: NOLINT,
// NOLINTNEXTLINE, NOLINTBEGIN/NOLINTEND ranges in C++ and `# noqa` in Python.
func ParseSuppressions(f *grammar.File) []*Suppression {
	var out []*Suppression
	if f == nil || f.Tree == nil {
		return nil
	}
	// Both patterns start with a literal word: a file without it has no
	// suppression, and most files have none (no walk over their comments).
	word := "NOLINT"
	if f.Lang == grammar.Python {
		word = "noqa"
	}
	if !bytes.Contains(f.Src, []byte(word)) {
		return nil
	}
	var open []*Suppression
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		// A comment without the word holds no match (most comments of
		// such a file).
		if n.Kind() != "comment" || !bytes.Contains(n.Bytes(), []byte(word)) {
			continue
		}
		text := n.Text()
		line := int(n.StartRow())
		if f.Lang == grammar.Python {
			for _, m := range noqaRE.FindAllStringSubmatchIndex(text, -1) {
				s := &Suppression{Line: line, End: line, Kind: "noqa", Start: n.Start + uint32(m[0]), EndOff: n.Start + uint32(m[1]), Comment: [2]uint32{n.Start, n.End}}
				s.setList(text, n.Start, m[2], m[3])
				out = append(out, s)
			}
			continue
		}
		for _, m := range nolintRE.FindAllStringSubmatchIndex(text, -1) {
			kind := "NOLINT"
			if m[2] >= 0 {
				kind += text[m[2]:m[3]]
			}
			s := &Suppression{Line: line, End: line, Kind: kind, Start: n.Start + uint32(m[0]), EndOff: n.Start + uint32(m[1]), Comment: [2]uint32{n.Start, n.End}}
			s.setList(text, n.Start, m[6], m[7])
			switch kind {
			case "NOLINTNEXTLINE":
				s.Line, s.End = line+1, line+1
			case "NOLINTBEGIN":
				s.End = f.Lines.Count()
				open = append(open, s)
			case "NOLINTEND":
				// Close the innermost BEGIN with the same codes.
				for j := len(open) - 1; j >= 0; j-- {
					if slices.EqualFunc(open[j].Codes, s.Codes, strings.EqualFold) {
						open[j].End = line
						open = append(open[:j], open[j+1:]...)
						break
					}
				}
				continue
			}
			out = append(out, s)
		}
	}
	return out
}

// setList records the code list text[ls:le] (ls < 0: none) of a
// suppression found in a comment starting at base.
func (s *Suppression) setList(text string, base uint32, ls, le int) {
	if ls < 0 {
		return
	}
	s.HasList = true
	s.List = [2]uint32{base + uint32(ls), base + uint32(le)}
	isSep := func(b byte) bool { return b == ',' || b == ' ' || b == '\t' }
	for i := ls; i < le; {
		if isSep(text[i]) {
			i++
			continue
		}
		j := i
		for j < le && !isSep(text[j]) {
			j++
		}
		s.Codes = append(s.Codes, text[i:j])
		s.CodeSpans = append(s.CodeSpans, [2]uint32{base + uint32(i), base + uint32(j)})
		i = j
	}
}

// Matches reports whether the suppression covers a rule.
func (s *Suppression) Matches(code, name string) bool {
	if len(s.Codes) == 0 {
		return true
	}
	for _, c := range s.Codes {
		if MatchCode(c, code, name) {
			return true
		}
	}
	return false
}

// MatchCode reports whether a suppression entry (code, name or glob, any
// case) names a rule.
func MatchCode(pattern, code, name string) bool {
	p := strings.ToLower(pattern)
	for _, v := range []string{strings.ToLower(code), strings.ToLower(name)} {
		if p == v {
			return true
		}
		if strings.ContainsAny(p, "*?[") {
			if ok, _ := path.Match(p, v); ok {
				return true
			}
		}
	}
	return false
}

// Suppressed returns the suppression that silences d, marking it used.
func Suppressed(sups []*Suppression, d Diagnostic, line int) *Suppression {
	for _, s := range sups {
		if line >= s.Line && line <= s.End && s.Matches(d.Code, d.Name) {
			s.Used = true
			s.markCodes(d.Code, d.Name)
			return s
		}
	}
	return nil
}

func (s *Suppression) markCodes(code, name string) {
	if len(s.UsedCodes) != len(s.Codes) {
		s.UsedCodes = make([]bool, len(s.Codes))
	}
	for i, c := range s.Codes {
		if MatchCode(c, code, name) {
			s.UsedCodes[i] = true
		}
	}
}

// CodeUsed reports whether Codes[i] silenced a finding.
func (s *Suppression) CodeUsed(i int) bool {
	return i < len(s.UsedCodes) && s.UsedCodes[i]
}

// SuppressionAt returns the suppression whose text covers off, and the index
// of the code under off (-1 on the keyword or between codes).
func SuppressionAt(sups []*Suppression, off uint32) (*Suppression, int) {
	for _, s := range sups {
		if off < s.Start || off > s.EndOff {
			continue
		}
		for i, sp := range s.CodeSpans {
			if off >= sp[0] && off <= sp[1] {
				return s, i
			}
		}
		return s, -1
	}
	return nil, -1
}

// SuppressEdit returns the edit that silences code on a line of f: the code
// joins the line's `NOLINT(...)` / `# noqa: ...` list, or a suppression
// comment is appended (`// NOLINT(code)`, `  # noqa: code`). A line continued
// with a backslash gets none (a comment would swallow the continuation).
func SuppressEdit(f *grammar.File, line int, code string) (TextEdit, bool) {
	at := func(off uint32, text string) (TextEdit, bool) {
		return TextEdit{File: f.Path, Start: off, End: off, NewText: text}, true
	}
	kind := "NOLINT"
	if f.Lang == grammar.Python {
		kind = "noqa"
	}
	for _, s := range ParseSuppressions(f) {
		if s.Kind != kind || s.Line != line || !s.HasList {
			continue
		}
		if n := len(s.CodeSpans); n > 0 {
			return at(s.CodeSpans[n-1][1], ", "+code)
		}
		return at(s.List[1], code)
	}
	text := strings.TrimRight(f.Lines.LineText(line), " \t")
	if strings.HasSuffix(text, "\\") {
		return TextEdit{}, false
	}
	end := f.Lines.LineStart(line) + uint32(len(text))
	if f.Lang == grammar.Python {
		return at(end, "  # noqa: "+code)
	}
	return at(end, " // NOLINT("+code+")")
}

// RemovalFix drops the codes of s that are not in keep, or the whole
// suppression when keep is empty; a comment left empty goes too, and so
// does a line left empty.
func RemovalFix(f *grammar.File, s *Suppression, keep []string) Fix {
	if len(keep) > 0 {
		var text string
		if s.Kind == "noqa" {
			text = "# noqa: " + strings.Join(keep, ", ")
		} else {
			text = s.Kind + "(" + strings.Join(keep, ", ") + ")"
		}
		return Fix{
			Title:         "Remove the unused codes",
			Applicability: Safe,
			Edits:         []TextEdit{{File: f.Path, Start: s.Start, End: s.EndOff, NewText: text}},
		}
	}
	fix := Fix{Title: "Remove the unused suppression", Applicability: Safe}
	start, end := s.Start, s.EndOff
	if s.Kind == "noqa" && int(start) < len(f.Src) && f.Src[start] == '#' {
		// The `#` opens the comment: keep it for the text that follows.
		start++
	}
	if cs, ce := s.Comment[0], s.Comment[1]; cs <= s.Start && s.EndOff <= ce && int(ce) <= len(f.Src) {
		rest := string(f.Src[cs:start]) + string(f.Src[s.EndOff:ce])
		if strings.Trim(rest, "/*# \t") == "" {
			start, end = cs, ce
			// Take the blanks before the comment along.
			for start > 0 && (f.Src[start-1] == ' ' || f.Src[start-1] == '\t') {
				start--
			}
			line, _ := f.Lines.Position(start)
			if start == f.Lines.LineStart(line) {
				// The comment was alone on its line: remove the line.
				if int(end) < len(f.Src) && f.Src[end] == '\n' {
					end++
				}
			}
		}
	}
	fix.Edits = []TextEdit{{File: f.Path, Start: start, End: end}}
	return fix
}
