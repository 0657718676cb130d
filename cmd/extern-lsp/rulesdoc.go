package main

//go:generate go test -run ^TestRulesDocInSync$ . -update

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/engine"
	"github.com/extern-lsp/extern-lsp/analysis/rules"
)

func init() {
	commands["rules"] = command{"list the rules (--format text, json or markdown)", runRules}
	commands["explain"] = command{"show a rule's documentation: extern-lsp explain EXT004|syncall-aiv-only", runExplain}
}

func runRules(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
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
		text = engine.RulesMarkdown(rules.All())
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

func runExplain(c *cli, args []string) int {
	stdout, stderr := c.stdout, c.stderr
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "usage: extern-lsp explain CODE|NAME   (extern-lsp rules lists them)")
		return 2
	}
	a := rules.Lookup(args[0])
	if a == nil {
		fmt.Fprintf(stderr, "extern-lsp explain: unknown rule %q (`extern-lsp rules` lists them)\n", args[0])
		return 2
	}
	io.WriteString(stdout, engine.ExplainText(a))
	return 0
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

func rulesJSON(all []*analysis.Analyzer) string {
	out := []ruleJSON{}
	for _, a := range all {
		out = append(out, ruleJSON{Code: a.Code, Name: a.Name, Severity: a.Severity.String(), DefaultEnabled: !a.DefaultOff,
			Fixable: a.Fixable, Language: engine.LangName(a.Lang), Summary: a.Doc.Summary, URL: a.DocURL(),
			Doc: docJSON{What: a.Doc.What, Why: a.Doc.Why, Example: a.Doc.Example, UseInstead: a.Doc.UseInstead, FixSafety: a.Doc.FixSafety, Guide: a.Doc.Guide}})
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(out)
	return b.String()
}
