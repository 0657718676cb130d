package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// UnusedSuppression reports suppression comments that silence nothing and
// extern-lsp codes no rule has. Its work happens after the other rules ran
// (Finish), since only then is it known which suppressions were used.
var UnusedSuppression = register(&analysis.Analyzer{
	Code:       "EXT900",
	Name:       "unused-suppression",
	Severity:   analysis.SeverityWarning,
	Lang:       grammar.CPP,
	DefaultOff: true,
	Fixable:    true,
	Doc: analysis.Doc{
		Summary: "a `NOLINT(...)` / `# noqa: ...` naming an extern-lsp rule that reports nothing there, or an unknown EXT code",
		What: "Flags entries of `NOLINT(...)`, `NOLINTNEXTLINE(...)`, `NOLINTBEGIN(...)` and Python `# noqa: ...` " +
			"comments that name an extern-lsp rule (code, name or glob) which reported nothing on the covered lines, " +
			"and `EXT` codes that no rule has. Codes of other tools (clang-tidy's `bugprone-...`, flake8's `E501`) and " +
			"blanket `NOLINT` / `# noqa` without codes are left alone: they are shared with those tools. Rules that are " +
			"turned off by the configuration are not judged. Off by default in the editor; on in `check --strict`.",
		Why: "A suppression outlives the finding it silenced: after the kernel is fixed (say `SyncAll()` became " +
			"`SyncAll<false>()`), a stale `NOLINT(EXT004)` will silently hide the bug if it comes back on that line. A " +
			"mistyped code (`NOLINT(EXT04)`) never silenced anything and hides that the finding is still reported.",
		Example:    "AscendC::SyncAll<false>();  // NOLINT(EXT004)  (nothing to silence any more)",
		UseInstead: "AscendC::SyncAll<false>();",
		FixSafety: "Safe: removes the unused codes from the list, or the whole suppression (and the comment, or the " +
			"line of a `NOLINTNEXTLINE`, when nothing else is left in it). Comments that carry other text keep it.",
	},
	// Nothing to do per rule pass: only after the others is it known
	// which suppressions were used.
	Run: func(*analysis.Pass) {},
	Finish: func(p *analysis.Pass, sups []*analysis.Suppression, _ []analysis.Diagnostic) []analysis.Diagnostic {
		all, enabled, severity := p.Rules()
		return unusedSuppressions(p, sups, all, enabled, severity)
	},
})

var supExtCodeRE = regexp.MustCompile(`(?i)^EXT[0-9*?\[]`)

// supEntryKind classifies one code of a suppression.
type supEntryKind int

const (
	supEntryForeign supEntryKind = iota // another tool's code: not ours to judge
	supEntryUnknown                     // looks like ours, names no rule
	supEntryOff                         // names only rules that did not run
	supEntryUsed
	supEntryUnused
)

func unusedSuppressions(p *analysis.Pass, sups []*analysis.Suppression, analyzers []*analysis.Analyzer, enabled func(*analysis.Analyzer) bool, severity map[string]analysis.Severity) []analysis.Diagnostic {
	f := p.File
	var out []analysis.Diagnostic
	for _, s := range sups {
		if len(s.Codes) == 0 {
			continue
		}
		kinds := make([]supEntryKind, len(s.Codes))
		var unused, unknown []string
		for i, c := range s.Codes {
			kinds[i] = supClassify(c, s.CodeUsed(i), analyzers, enabled)
			switch kinds[i] {
			case supEntryUnused:
				unused = append(unused, c)
			case supEntryUnknown:
				unknown = append(unknown, c)
			}
		}
		if len(unused)+len(unknown) == 0 {
			continue
		}
		text := string(f.Src[s.Start:s.EndOff])
		var parts []string
		if len(unknown) > 0 {
			parts = append(parts, fmt.Sprintf("unknown rule code%s %s", supPlural(len(unknown)), supBackquote(unknown)))
		}
		if len(unused) > 0 {
			parts = append(parts, fmt.Sprintf("%s reported nothing here", supBackquote(unused)))
		}
		d := analysis.Diagnostic{
			File:     f.Path,
			Start:    s.Start,
			End:      s.EndOff,
			Code:     p.Analyzer.Code,
			Name:     p.Analyzer.Name,
			Severity: p.Analyzer.Severity,
			Message:  "unused suppression `" + text + "`: " + strings.Join(parts, "; "),
		}
		if sev, ok := severity[d.Code]; ok {
			d.Severity = sev
		}
		if line, _ := f.Lines.Position(d.Start); analysis.Suppressed(sups, d, line) != nil {
			continue
		}
		var keep []string
		for i, c := range s.Codes {
			if kinds[i] != supEntryUnused && kinds[i] != supEntryUnknown {
				keep = append(keep, c)
			}
		}
		d.Fixes = []analysis.Fix{analysis.RemovalFix(f, s, keep)}
		out = append(out, d)
	}
	return out
}

func supClassify(code string, used bool, analyzers []*analysis.Analyzer, enabled func(*analysis.Analyzer) bool) supEntryKind {
	var named []*analysis.Analyzer
	for _, a := range all {
		if analysis.MatchCode(code, a.Code, a.Name) {
			named = append(named, a)
		}
	}
	if len(named) == 0 {
		if supExtCodeRE.MatchString(code) {
			return supEntryUnknown
		}
		return supEntryForeign
	}
	if used {
		return supEntryUsed
	}
	for _, a := range named {
		for _, b := range analyzers {
			if a == b && enabled(a) {
				return supEntryUnused
			}
		}
	}
	return supEntryOff
}

func supBackquote(codes []string) string {
	q := make([]string, len(codes))
	for i, c := range codes {
		q[i] = "`" + c + "`"
	}
	return strings.Join(q, ", ")
}

func supPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
