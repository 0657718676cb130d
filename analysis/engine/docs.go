package engine

import (
	"fmt"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Rule documentation, rendered from each rule's Doc: one renderer for
// `extern-lsp explain` (ExplainText), docs/rules.md and SARIF
// (RulesMarkdown, RuleMarkdown) and the editor's hover (RuleHover).

func DefaultLevel(a *analysis.Analyzer) string {
	if a.DefaultOff {
		return "off (" + a.Severity.String() + " when selected)"
	}
	return a.Severity.String()
}

func LangName(l grammar.Lang) string {
	if l == grammar.Python {
		return "python"
	}
	return "cpp"
}

// ExplainText is a rule's full page for the terminal.
func ExplainText(a *analysis.Analyzer) string {
	var b strings.Builder
	fix := ""
	if a.Fixable {
		fix = ", fixable"
	}
	fmt.Fprintf(&b, "%s %s (%s%s)\n%s\n", a.Code, a.Name, DefaultLevel(a), fix, wrap(a.Doc.Summary, 78, ""))
	section := func(title, body string, code bool) {
		if strings.TrimSpace(body) == "" {
			return
		}
		fmt.Fprintf(&b, "\n%s\n", title)
		if code {
			for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
				fmt.Fprintf(&b, "    %s\n", l)
			}
			return
		}
		b.WriteString(wrap(body, 78, "  "))
		b.WriteByte('\n')
	}
	section("What it does", a.Doc.What, false)
	section("Why it is a bug", a.Doc.Why, false)
	section("Example", a.Doc.Example, true)
	section("Use instead", a.Doc.UseInstead, true)
	section("Fix safety", a.Doc.FixSafety, false)
	b.WriteByte('\n')
	if a.Doc.Guide != "" {
		fmt.Fprintf(&b, "Guide: %s of the CCE extern kernel guide\n", a.Doc.Guide)
	}
	fmt.Fprintf(&b, "Docs: %s\n", a.DocURL())
	fmt.Fprintf(&b, "Suppress: // NOLINT(%s) on the line, or // NOLINTNEXTLINE(%s) above it\n", a.Code, a.Name)
	return b.String()
}

// wrap fills text to width, each line indented.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	for pi, para := range strings.Split(text, "\n") {
		if pi > 0 {
			b.WriteByte('\n')
		}
		n := 0
		for i, w := range strings.Fields(para) {
			if i == 0 {
				b.WriteString(indent)
				n = len(indent)
			} else if n+1+len(w) > width {
				b.WriteString("\n" + indent)
				n = len(indent)
			} else {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += len(w)
		}
	}
	return b.String()
}

// RulesMarkdown is docs/rules.md.
func RulesMarkdown(all []*analysis.Analyzer) string {
	var b strings.Builder
	b.WriteString("# extern-lsp rules\n\n")
	b.WriteString("<!-- Generated from the rule files by `go generate ./cmd/extern-lsp`\n")
	b.WriteString("     (`extern-lsp rules --format markdown`); edit the rules' Doc, not this page. -->\n\n")
	b.WriteString("Each rule has a code and a name; both work in `--select`, `ignore`, `NOLINT(...)` and `extern-lsp explain`.\n")
	b.WriteString("Fixable rules offer a quick fix in the editor and under `extern-lsp check --fix` (safe fixes; unsafe ones with `--unsafe-fixes`).\n\n")
	b.WriteString("| Code | Name | Severity | Fix | Summary |\n| --- | --- | --- | --- | --- |\n")
	for _, a := range all {
		sev := a.Severity.String()
		if a.DefaultOff {
			sev = "off (" + sev + ")"
		}
		fix := ""
		if a.Fixable {
			fix = "yes"
		}
		fmt.Fprintf(&b, "| [%s](#%s) | `%s` | %s | %s | %s |\n", a.Code, Anchor(a), a.Name, sev, fix, strings.ReplaceAll(a.Doc.Summary, "|", `\|`))
	}
	for _, a := range all {
		b.WriteString("\n")
		b.WriteString(RuleMarkdown(a, "##"))
	}
	return b.String()
}

func Anchor(a *analysis.Analyzer) string { return strings.ToLower(a.Code + "-" + a.Name) }

// RuleMarkdown is one rule's section (also SARIF's help.markdown).
func RuleMarkdown(a *analysis.Analyzer, h string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n\n", h, a.Code, a.Name)
	meta := []string{"Severity: " + DefaultLevel(a)}
	if a.Fixable {
		meta = append(meta, "fixable")
	}
	if a.Doc.Guide != "" {
		meta = append(meta, "guide "+a.Doc.Guide)
	}
	fmt.Fprintf(&b, "%s. %s.\n", strings.Join(meta, " · "), strings.TrimSuffix(a.Doc.Summary, "."))
	lang := LangName(a.Lang)
	section := func(title, body string, code bool) {
		if strings.TrimSpace(body) == "" {
			return
		}
		fmt.Fprintf(&b, "\n**%s**\n\n", title)
		if code {
			fmt.Fprintf(&b, "```%s\n%s\n```\n", lang, strings.TrimRight(body, "\n"))
			return
		}
		b.WriteString(strings.TrimSpace(body))
		b.WriteString("\n")
	}
	section("What it does", a.Doc.What, false)
	section("Why is this a bug?", a.Doc.Why, false)
	section("Example", a.Doc.Example, true)
	section("Use instead", a.Doc.UseInstead, true)
	section("Fix safety", a.Doc.FixSafety, false)
	return b.String()
}

// RuleHover is a rule's page for an editor hover: its section, then the
// link to the full page.
func RuleHover(a *analysis.Analyzer) string {
	return RuleMarkdown(a, "###") + "\n[documentation](" + a.DocURL() + ")"
}
