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
	for _, sec := range docSections(a) {
		fmt.Fprintf(&b, "\n%s\n", sec.textTitle)
		if sec.code {
			for _, l := range strings.Split(strings.TrimRight(sec.body, "\n"), "\n") {
				fmt.Fprintf(&b, "    %s\n", l)
			}
			continue
		}
		b.WriteString(wrap(sec.body, 78, "  "))
		b.WriteByte('\n')
	}
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
	b.WriteString(RulesTable(all, ""))
	for _, a := range all {
		b.WriteString("\n")
		b.WriteString(RuleMarkdown(a, "##"))
	}
	return b.String()
}

// RulesTable is the index of the rules (code, name, severity, fix,
// summary), each code linking to its section of the page at base (""
// for the page itself): the top of docs/rules.md and the README's table.
func RulesTable(all []*analysis.Analyzer, base string) string {
	var b strings.Builder
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
		fmt.Fprintf(&b, "| [%s](%s#%s) | `%s` | %s | %s | %s |\n", a.Code, base, Anchor(a), a.Name, sev, fix, strings.ReplaceAll(a.Doc.Summary, "|", `\|`))
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
	for _, sec := range docSections(a) {
		fmt.Fprintf(&b, "\n**%s**\n\n", sec.title)
		if sec.code {
			fmt.Fprintf(&b, "```%s\n%s\n```\n", lang, strings.TrimRight(sec.body, "\n"))
			continue
		}
		b.WriteString(strings.TrimSpace(sec.body))
		b.WriteString("\n")
	}
	return b.String()
}

// docSection is one section of a rule page: its Markdown and plain-text
// titles, its body, and whether the body is code.
type docSection struct {
	title, textTitle, body string
	code                   bool
}

// docSections are a rule's page sections that have a body, in order.
func docSections(a *analysis.Analyzer) []docSection {
	var out []docSection
	for _, s := range []docSection{
		{"What it does", "What it does", a.Doc.What, false},
		{"Where it applies", "Where it applies", Applies(a), false},
		{"Why is this a bug?", "Why it is a bug", a.Doc.Why, false},
		{"Example", "Example", a.Doc.Example, true},
		{"Use instead", "Use instead", a.Doc.UseInstead, true},
		{"Fix safety", "Fix safety", a.Doc.FixSafety, false},
	} {
		if strings.TrimSpace(s.body) != "" {
			out = append(out, s)
		}
	}
	return out
}

// Applies says where a rule runs: its premise's launch models, or the
// language it reads.
func Applies(a *analysis.Analyzer) string {
	if a.Doc.Applies != "" {
		return a.Doc.Applies
	}
	if a.Premise != analysis.PremiseNone {
		return "On " + a.Premise.Applies() + "."
	}
	if a.Lang == grammar.Python {
		return "On `@pl.jit.extern` stubs and the Python code calling them, whatever the launch of the C++ they name."
	}
	return "On every C++ file extern-lsp analyses, whatever its launch model."
}

// RuleHover is a rule's page for an editor hover: its section, then the
// link to the full page.
func RuleHover(a *analysis.Analyzer) string {
	return RuleMarkdown(a, "###") + "\n[documentation](" + a.DocURL() + ")"
}
