// Package analysis is extern-lsp's rule framework: analyzers, passes,
// diagnostics with fixes, suppressions, the findings cap and the driver
// that runs rules on one file of a workspace. A pass hands a rule the
// file's units (analysis/unit), which answer every question about the
// code; rules live in analysis/rules, and front ends reach the driver
// through analysis/engine.
package analysis

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Severity of a diagnostic.
type Severity int

const (
	SeverityError Severity = iota + 1
	SeverityWarning
	SeverityInfo
	SeverityHint
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "unknown"
}

// ParseSeverity reads "error", "warning", "info" (or "information"), "hint".
func ParseSeverity(s string) (Severity, bool) {
	switch strings.ToLower(s) {
	case "error":
		return SeverityError, true
	case "warning", "warn":
		return SeverityWarning, true
	case "info", "information":
		return SeverityInfo, true
	case "hint":
		return SeverityHint, true
	}
	return 0, false
}

// Applicability says whether a fix can be applied without review.
type Applicability int

const (
	// Safe fixes keep the kernel's meaning apart from removing the bug;
	// `check --fix` and fix-all apply them.
	Safe Applicability = iota
	// Unsafe fixes are right in the common case but can change behaviour;
	// applied only on request.
	Unsafe
	// DisplayOnly fixes are sketches shown to the user, never applied
	// automatically.
	DisplayOnly
)

func (a Applicability) String() string {
	switch a {
	case Safe:
		return "safe"
	case Unsafe:
		return "unsafe"
	}
	return "display-only"
}

// TextEdit replaces the bytes [Start, End) of File with NewText.
type TextEdit struct {
	File    string
	Start   uint32
	End     uint32
	NewText string
}

// Fix is a suggested change made of independent edits against the same base.
type Fix struct {
	Title         string
	Applicability Applicability
	Edits         []TextEdit
}

// Related points at another place that explains a diagnostic.
type Related struct {
	File       string
	Start, End uint32
	Message    string
}

// Diagnostic is one finding. Start and End are byte offsets in File.
type Diagnostic struct {
	File     string
	Start    uint32
	End      uint32
	Code     string
	Name     string
	Severity Severity
	Message  string
	Related  []Related
	Fixes    []Fix
	// Suppressed is set by the driver when a suppression comment matched
	// (only kept when Options.KeepSuppressed is set).
	Suppressed string
	// Unseen is set by the driver when it offered the finding's safe
	// fixes as unsafe: what, before the finding, the analysis could not
	// see (see Unit.UnseenBefore).
	Unseen []unit.Unseen
	// SaidLess is set by a rule that reports at info what would be a
	// warning because a call it cannot see into (its definition is in an
	// #include that did not resolve) may change the verdict: the call.
	SaidLess string
	// Unlisted is set on the note that stands for a rule's findings in
	// this file past max-findings-per-rule (see CapFindings).
	Unlisted *Unlisted
	// Advisory marks an info that asks for a house rule where the code is
	// correct today (a scalar read of memory nothing in the task writes):
	// editors show it as a hint unless the user asks for more.
	Advisory bool
}

// Doc is a rule's documentation page, in the shape of ruff's rule pages.
type Doc struct {
	Summary    string // one line
	What       string // what it does
	Why        string // why it is a bug, with the runtime fact it rests on
	Example    string // code that is flagged
	UseInstead string // the correct code
	FixSafety  string // what the fix does and why it is safe or unsafe
	Guide      string // the guide section(s), e.g. "§5"
}

// Analyzer is one rule.
type Analyzer struct {
	Code     string // EXT004
	Name     string // syncall-aiv-only
	Severity Severity
	// Lang is the language of the files the rule reports on.
	Lang grammar.Lang
	// DefaultOff rules only run when selected explicitly.
	DefaultOff bool
	Fixable    bool
	Doc        Doc
	Run        func(*Pass)
	// Finish, for a rule about the other rules' findings (EXT900), runs on
	// every file after them and the suppressions, unless the run was cut
	// short: it sees the file's suppressions (marked used or not) and
	// findings, and returns its own, final (severity overrides applied).
	Finish func(p *Pass, sups []*Suppression, diags []Diagnostic) []Diagnostic
	// Premise is what the rule's verdict rests on: the driver runs it on
	// a C++ file only where the premise holds for a unit of the file, and
	// its page says where it applies.
	Premise Premise
}

// DocURL is where a rule's documentation page lives.
func (a *Analyzer) DocURL() string {
	return DocsBaseURL + "#" + strings.ToLower(a.Code+"-"+a.Name)
}

// Lookup finds a rule of list by code or name (any case).
func Lookup(list []*Analyzer, codeOrName string) *Analyzer {
	for _, a := range list {
		if strings.EqualFold(a.Code, codeOrName) || strings.EqualFold(a.Name, codeOrName) {
			return a
		}
	}
	return nil
}

// DocsBaseURL is the rule reference in the repository.
const DocsBaseURL = "https://github.com/extern-lsp/extern-lsp/blob/main/docs/rules.md"

// Pass is one analyzer's view of one file.
type Pass struct {
	Analyzer *Analyzer
	File     *grammar.File
	WS       *workspace.Workspace
	Ctx      *workspace.Context
	// Consts resolves integer constants of the file and its includes.
	Consts *cxx.Resolver
	// Includes are the parsed workspace files this file includes
	// (transitively), without the file itself.
	Includes []*grammar.File
	// Settings are the project's rule settings (zero value: defaults).
	Settings Settings
	ctx      context.Context
	// opts are the run's options (set for Finish: see Rules).
	opts  *Options
	store *unit.Store
	lazy  *passUnits
	diags *[]Diagnostic
	// limit counts the rule's findings against max-findings-per-rule
	// (nil: no cap).
	limit *findingCap
	// recent are the texts of the rule's last findings (see shareText).
	recent *recentTexts
	// models are the launch and build models of the file's units (the
	// driver sets them once per file; see Models).
	models Models
	// meter counts the rule's steps (nil: none); rctx is the rule's
	// context (ctx cancelled when the steps are spent), what Context
	// returns. ctx stays the run's: the units and the facts they share
	// with other rules are never cut by one rule's steps.
	meter *meter
	rctx  context.Context
}

// Rules are the rules of the run, with whether each runs and its severity
// (for Finish).
func (p *Pass) Rules() (all []*Analyzer, enabled func(*Analyzer) bool, severity map[string]Severity) {
	return p.opts.Analyzers, p.opts.enabled, p.opts.Severity
}

// Nodes returns the file's nodes of the given kinds in source order. The
// index is built once per file and shared by every rule.
func (p *Pass) Nodes(kinds ...string) []*grammar.Node {
	return p.Closure().Nodes(p.File, kinds...)
}

// Cores returns the cores that compile and reach n: the guards around it,
// less the cores that already left its function (a return behind a core
// guard, a macro whose body does that).
func (p *Pass) Cores(n *grammar.Node) grammar.Cores {
	c := p.File.CoresOf(n)
	if c == grammar.None {
		return c
	}
	return c &^ p.Reach().ExitedBefore(p.File, n)
}

// Mixed reports whether the file is part of a mixed extern.
func (p *Pass) Mixed() bool { return p.Ctx != nil && p.Ctx.Kind == workspace.KindMixed }

// Report records a diagnostic, filling in the rule's code, name, severity
// and the file when left empty.
func (p *Pass) Report(d Diagnostic) {
	if d.File == "" {
		d.File = p.File.Path
	}
	if d.Code == "" {
		d.Code = p.Analyzer.Code
	}
	if d.Name == "" {
		d.Name = p.Analyzer.Name
	}
	if d.Severity == 0 {
		d.Severity = p.Analyzer.Severity
	}
	if c := p.limit; c != nil && c.max > 0 && p.counted(&d) && !c.count(&d, c.max) {
		return
	}
	if p.recent == nil {
		p.recent = &recentTexts{}
	}
	r := p.recent
	d.Message = r.share(CapMessage(d.Message))
	for i := range d.Fixes {
		fx := &d.Fixes[i]
		fx.Title = r.share(fx.Title)
		for j := range fx.Edits {
			if fx.Edits[j].File == "" {
				fx.Edits[j].File = d.File
			}
			fx.Edits[j].NewText = r.share(fx.Edits[j].NewText)
		}
	}
	for i := range d.Related {
		if d.Related[i].File == "" {
			d.Related[i].File = d.File
		}
		d.Related[i].Message = r.share(CapMessage(d.Related[i].Message))
	}
	*p.diags = append(*p.diags, d)
}

// recentTexts are the last distinct texts (messages, fix titles, edit
// texts) of a rule's findings, most recent first. A rule reports in
// source order, and a shape repeated through a file repeats its texts
// (the same staging sketch, the same message, the same inserted line):
// a finding then holds the earlier finding's copy, and the held findings
// one copy of each text instead of one per finding. A handful of recent
// texts catches that without the memory a set of every text would take.
type recentTexts struct {
	s [8]string
}

// share returns an equal text kept from a recent finding, or s, which
// becomes the most recent.
func (r *recentTexts) share(s string) string {
	if s == "" {
		return s
	}
	for i, t := range r.s {
		if len(t) == len(s) && t == s {
			copy(r.s[1:i+1], r.s[:i])
			r.s[0] = t
			return t
		}
	}
	copy(r.s[1:], r.s[:len(r.s)-1])
	r.s[0] = s
	return s
}

// MaxMessageLen caps a finding's message (bytes): a message built from a
// list of names stays readable in a terminal, a hover and a SARIF viewer.
const MaxMessageLen = 1000

// CapMessage shortens a message over MaxMessageLen at a character boundary
// and says how much was left out.
func CapMessage(s string) string {
	if len(s) <= MaxMessageLen {
		return s
	}
	cut := MaxMessageLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// Reportf reports a message on a node's range.
func (p *Pass) Reportf(n *grammar.Node, format string, args ...any) {
	p.Report(Diagnostic{Start: n.Start, End: n.End, Message: fmt.Sprintf(format, args...)})
}

// RelatedAt makes related information on a node of a file.
func RelatedAt(f *grammar.File, n *grammar.Node, msg string) Related {
	return Related{File: f.Path, Start: n.Start, End: n.End, Message: msg}
}
