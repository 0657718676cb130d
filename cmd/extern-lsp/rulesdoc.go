package main

//go:generate go run . rules --format markdown -o ../../docs/rules.md

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
	"github.com/extern-lsp/extern-lsp/grammar"
)

func init() {
	commands["rules"] = command{"list the rules (--format text, json or markdown)", runRules}
	commands["explain"] = command{"show a rule's documentation: extern-lsp explain EXT004|syncall-aiv-only", runExplain}
}

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rules", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "text, json or markdown (the docs/rules.md page)")
	out := fs.String("o", "", "write to this file instead of stdout")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "extern-lsp rules: unexpected argument %q (use `extern-lsp explain %s`)\n", fs.Arg(0), fs.Arg(0))
		return 2
	}
	var text string
	switch *format {
	case "text":
		text = rulesTable(rules.All())
	case "json":
		text = rulesJSON(rules.All())
	case "markdown", "md":
		text = rulesMarkdown(rules.All())
	default:
		fmt.Fprintf(stderr, "extern-lsp rules: unknown --format %q (want text, json or markdown)\n", *format)
		return 2
	}
	if *out != "" {
		if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
			fmt.Fprintf(stderr, "extern-lsp rules: %v\n", err)
			return 2
		}
		return 0
	}
	io.WriteString(stdout, text)
	return 0
}

func runExplain(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "usage: extern-lsp explain CODE|NAME   (extern-lsp rules lists them)")
		return 2
	}
	a := rules.Lookup(args[0])
	if a == nil {
		fmt.Fprintf(stderr, "extern-lsp explain: unknown rule %q (`extern-lsp rules` lists them)\n", args[0])
		return 2
	}
	io.WriteString(stdout, explainText(a))
	return 0
}

func defaultLevel(a *analysis.Analyzer) string {
	if a.DefaultOff {
		return "off (" + a.Severity.String() + " when selected)"
	}
	return a.Severity.String()
}

func rulesTable(all []*analysis.Analyzer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-24s %-9s %-4s %s\n", "CODE", "NAME", "SEVERITY", "FIX", "SUMMARY")
	for _, a := range all {
		sev := a.Severity.String()
		if a.DefaultOff {
			sev = "off"
		}
		fix := ""
		if a.Fixable {
			fix = "yes"
		}
		fmt.Fprintf(&b, "%-7s %-24s %-9s %-4s %s\n", a.Code, a.Name, sev, fix, plainText(a.Doc.Summary))
	}
	return b.String()
}

type ruleJSON struct {
	Code           string  `json:"code"`
	Name           string  `json:"name"`
	Severity       string  `json:"severity"`
	DefaultEnabled bool    `json:"default_enabled"`
	Fixable        bool    `json:"fixable"`
	Language       string  `json:"language"`
	Summary        string  `json:"summary"`
	URL            string  `json:"url"`
	Doc            docJSON `json:"doc"`
}

type docJSON struct {
	What       string `json:"what"`
	Why        string `json:"why"`
	Example    string `json:"example"`
	UseInstead string `json:"use_instead"`
	FixSafety  string `json:"fix_safety"`
	Guide      string `json:"guide"`
}

func langName(l grammar.Lang) string {
	if l == grammar.Python {
		return "python"
	}
	return "cpp"
}

func rulesJSON(all []*analysis.Analyzer) string {
	out := []ruleJSON{}
	for _, a := range all {
		out = append(out, ruleJSON{Code: a.Code, Name: a.Name, Severity: a.Severity.String(), DefaultEnabled: !a.DefaultOff,
			Fixable: a.Fixable, Language: langName(a.Lang), Summary: a.Doc.Summary, URL: a.DocURL(),
			Doc: docJSON{What: a.Doc.What, Why: a.Doc.Why, Example: a.Doc.Example, UseInstead: a.Doc.UseInstead, FixSafety: a.Doc.FixSafety, Guide: a.Doc.Guide}})
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(out)
	return b.String()
}

// explainText is a rule's full page for the terminal.
func explainText(a *analysis.Analyzer) string {
	var b strings.Builder
	fix := ""
	if a.Fixable {
		fix = ", fixable"
	}
	fmt.Fprintf(&b, "%s %s (%s%s)\n%s\n", a.Code, a.Name, defaultLevel(a), fix, wrap(a.Doc.Summary, 78, ""))
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

// rulesMarkdown is docs/rules.md.
func rulesMarkdown(all []*analysis.Analyzer) string {
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
		fmt.Fprintf(&b, "| [%s](#%s) | `%s` | %s | %s | %s |\n", a.Code, anchor(a), a.Name, sev, fix, strings.ReplaceAll(a.Doc.Summary, "|", `\|`))
	}
	for _, a := range all {
		b.WriteString("\n")
		b.WriteString(ruleMarkdown(a, "##"))
	}
	return b.String()
}

func anchor(a *analysis.Analyzer) string { return strings.ToLower(a.Code + "-" + a.Name) }

// ruleMarkdown is one rule's section (also SARIF's help.markdown).
func ruleMarkdown(a *analysis.Analyzer, h string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n\n", h, a.Code, a.Name)
	meta := []string{"Severity: " + defaultLevel(a)}
	if a.Fixable {
		meta = append(meta, "fixable")
	}
	if a.Doc.Guide != "" {
		meta = append(meta, "guide "+a.Doc.Guide)
	}
	fmt.Fprintf(&b, "%s. %s.\n", strings.Join(meta, " · "), strings.TrimSuffix(a.Doc.Summary, "."))
	lang := langName(a.Lang)
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
