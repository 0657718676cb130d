package analysis

import (
	"path"
	"regexp"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Suppression is one suppression comment.
type Suppression struct {
	Line  int      // 0-based line it applies to (first line for ranges)
	End   int      // last line it applies to (inclusive)
	Codes []string // codes, names or globs; empty means every rule
	Kind  string   // "NOLINT", "NOLINTNEXTLINE", "NOLINTBEGIN", "noqa"
	// Start and EndOff locate the comment text itself (for unused-suppression
	// reports and fixes).
	Start, EndOff uint32
	Used          bool
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
	var open []*Suppression
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind != "comment" {
			continue
		}
		text := n.Text()
		line := int(n.StartRow)
		if f.Lang == grammar.Python {
			for _, m := range noqaRE.FindAllStringSubmatchIndex(text, -1) {
				s := &Suppression{Line: line, End: line, Kind: "noqa", Start: n.Start + uint32(m[0]), EndOff: n.Start + uint32(m[1])}
				if m[2] >= 0 {
					s.Codes = splitCodes(text[m[2]:m[3]])
				}
				out = append(out, s)
			}
			continue
		}
		for _, m := range nolintRE.FindAllStringSubmatchIndex(text, -1) {
			kind := "NOLINT"
			if m[2] >= 0 {
				kind += text[m[2]:m[3]]
			}
			s := &Suppression{Line: line, End: line, Kind: kind, Start: n.Start + uint32(m[0]), EndOff: n.Start + uint32(m[1])}
			if m[6] >= 0 {
				s.Codes = splitCodes(text[m[6]:m[7]])
			}
			switch kind {
			case "NOLINTNEXTLINE":
				s.Line, s.End = line+1, line+1
			case "NOLINTBEGIN":
				s.End = f.Lines.Count()
				open = append(open, s)
			case "NOLINTEND":
				// Close the innermost BEGIN with the same codes.
				for j := len(open) - 1; j >= 0; j-- {
					if sameCodes(open[j].Codes, s.Codes) {
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

func splitCodes(s string) []string {
	var out []string
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func sameCodes(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Matches reports whether the suppression covers a rule.
func (s *Suppression) Matches(code, name string) bool {
	if len(s.Codes) == 0 {
		return true
	}
	for _, c := range s.Codes {
		if matchCode(c, code, name) {
			return true
		}
	}
	return false
}

func matchCode(pattern, code, name string) bool {
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
		if matchCode(c, code, name) {
			s.UsedCodes[i] = true
		}
	}
}

// CodeUsed reports whether Codes[i] silenced a finding.
func (s *Suppression) CodeUsed(i int) bool {
	return i < len(s.UsedCodes) && s.UsedCodes[i]
}

// MatchCode reports whether a suppression entry (code, name or glob, any
// case) names a rule.
func MatchCode(pattern, code, name string) bool { return matchCode(pattern, code, name) }
