package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// An Analyzer is a rule; a Pass is one rule's view of one file: its
// findings (Report) and its units, which answer every question about the
// code (package unit).

// Doc is a rule's documentation page, in the shape of ruff's rule pages.
type Doc struct {
	Summary    string // one line
	What       string // what it does
	Why        string // why it is a bug, with the runtime fact it rests on
	Example    string // code that is flagged
	UseInstead string // the correct code
	FixSafety  string // what the fix does and why it is safe or unsafe
	Guide      string // the guide section(s), e.g. "§5"
	// Applies, when set, says where the rule applies in place of its
	// premise's sentence: a rule whose checks rest on different premises.
	Applies string
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
	// ABI marks a rule that judges C++ args[] reads against a stub's
	// packing: `extern-lsp abi` lists its findings as disagreements.
	ABI bool
	// Shares names a costly unit fact the rule waits on (SharesGM). With
	// a file's rules run at once, the first rule naming it starts it and
	// the others naming it run after every rule that names none: they
	// would only wait while it is computed (an open's GM model: ~44 ms
	// of two rule workers' time under load).
	Shares string
}

// SharesGM is Analyzer.Shares of the rules that read the unit's GM model
// (unit.Unit.GM).
const SharesGM = "unit.gm"

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
	WS       *workspace.Workspace // never nil
	Ctx      *workspace.Context
	// Consts resolves integer constants of the file and its includes.
	Consts *cxx.Resolver
	// Includes are the parsed workspace files this file includes
	// (transitively), without the file itself.
	Includes []*grammar.File
	// Settings are the project's rule settings (zero value: defaults).
	Settings Settings
	ctx      context.Context
	// rules are the run's rules (set for Finish: see Rules).
	rules *ruleSet
	store *unit.Store
	lazy  *passUnits
	diags *[]Diagnostic
	// limit counts the rule's findings against max-findings-per-rule
	// (nil: no cap).
	limit *findingCap
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
	return p.rules.all, p.rules.enabled, p.rules.severity
}

// ruleSet is what Rules returns.
type ruleSet struct {
	all      []*Analyzer
	enabled  func(*Analyzer) bool
	severity map[string]Severity
}

// Nodes returns the file's nodes of the given kinds in source order. The
// index is built once per file and shared by every rule.
func (p *Pass) Nodes(kinds ...string) []*grammar.Node {
	return p.Closure().Nodes(p.File, kinds...)
}

// Cores returns the cores that compile and reach n: the guards around it
// (as the units compiling the file see them: unit.CoresOf),
// less the cores that already left its function (a return behind a core
// guard, a macro whose body does that).
func (p *Pass) Cores(n *grammar.Node) grammar.Cores {
	c := p.File.CoresOf(n)
	if c == grammar.None {
		return c
	}
	p.lazy.guards.once.Do(func() { p.lazy.guards.v = p.Reach().IncludeGuards(p.File) })
	if g := p.lazy.guards.v; g != nil && g != p.File.Guards && n.Tree() == p.File.Tree {
		if c &= g.CoresAt(n.Start); c == grammar.None {
			return c
		}
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
	d.Message = CapMessage(d.Message)
	for i := range d.Fixes {
		for j, e := range d.Fixes[i].Edits {
			if e.File == "" {
				d.Fixes[i].Edits[j].File = d.File
			}
		}
	}
	for i := range d.Related {
		if d.Related[i].File == "" {
			d.Related[i].File = d.File
		}
		d.Related[i].Message = CapMessage(d.Related[i].Message)
	}
	if r, ok := p.expandedFrom(&d); ok {
		d.Related = append(d.Related, r)
	}
	*p.diags = append(*p.diags, d)
}

// expandedFrom is the note a finding at a use of one of the unit's macros
// (`SET_FLAG(MTE2, V, id);`, `FLUSH_ROWS;`) gets, as a compiler's
// "expanded from macro": the finding stays on the line the user wrote,
// and the #define whose body does what it reports is one click away.
func (p *Pass) expandedFrom(d *Diagnostic) (Related, bool) {
	src := p.File.Src
	if d.File != p.File.Path || p.File.Lang != grammar.CPP || int(d.Start) >= len(src) {
		return Related{}, false
	}
	i, j := int(d.Start), int(d.Start)
	for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || j > i && src[j] >= '0' && src[j] <= '9') {
		j++
	}
	k := j
	for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if j == i || k == len(src) || src[k] != '(' && src[k] != ';' {
		return Related{}, false
	}
	name := string(src[i:j])
	m := p.Closure().MacroDefinition(name)
	// A macro whose body is statements: not a type or a constant.
	if m == nil || m.Def == nil && !m.Opaque || m.File == nil {
		return Related{}, false
	}
	return Related{File: m.File.Path, Start: m.At, End: m.BodyStart, Message: CapMessage("expanded from macro `" + name + "`")}, true
}

// Context is the rule's context: long analyses check ctx.Err() and stop
// (the run was cancelled, is past its time limit, or the rule's steps
// are spent).
func (p *Pass) Context() context.Context {
	if p.rctx != nil {
		return p.rctx
	}
	return p.runContext()
}

// runContext is the run's context, the units' (see Pass.meter).
func (p *Pass) runContext() context.Context {
	if p.ctx == nil {
		return context.Background()
	}
	return p.ctx
}

// Stopped spends one step of the rule's budget and reports whether the
// rule should stop (see Spend): the test a long loop makes at the top of
// each iteration, so that a rule past its steps or abandoned by its run
// stops soon after (two atomic operations: cheap enough for every
// iteration).
func (p *Pass) Stopped() bool { return p.Spend(1) }

// Units lists the extern units the pass's file belongs to: for a C++ file
// the entries whose compile reaches it, for a Python file the entries its
// stubs name. A file no unit reaches gets a pseudo-unit of its own closure.
func (p *Pass) Units() []*unit.Unit {
	p.lazy.units.once.Do(func() { p.lazy.units.v = p.computeUnits() })
	return p.lazy.units.v
}

// Closure is the pseudo-unit of the pass's file and what it includes
// (transitively): the file first. Pass.Includes and Pass.Consts are its
// files and constants.
func (p *Pass) Closure() *unit.Unit {
	p.lazy.closure.once.Do(func() {
		p.lazy.closure.v = p.store.New(p.runContext(), p.WS, p.File.Path, append([]*grammar.File{p.File}, p.Includes...), nil, p.kind(), "closure")
	})
	return p.lazy.closure.v
}

// Reach is the pseudo-unit of everything the file's compiles see: the
// file, its includes, then each of its units' files.
func (p *Pass) Reach() *unit.Unit {
	p.lazy.reach.once.Do(func() {
		seen := map[*grammar.File]bool{}
		var files []*grammar.File
		add := func(fs []*grammar.File) {
			for _, f := range fs {
				if f != nil && f.Lang == grammar.CPP && !seen[f] {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
		seen[p.File] = true
		files = append(files, p.File)
		add(p.Includes)
		for _, u := range p.Units() {
			if !u.Pseudo {
				add(u.Files)
			}
		}
		if c := p.Closure(); slices.Equal(files, c.Files) {
			// Nothing but the file's own includes (an entry's units are
			// its closure): the same inputs, the same facts, computed once.
			p.lazy.reach.v = []*unit.Unit{c}
			return
		}
		p.lazy.reach.v = []*unit.Unit{p.store.New(p.runContext(), p.WS, p.File.Path, files, nil, p.kind(), "reach")}
	})
	return p.lazy.reach.v[0]
}

func (p *Pass) kind() workspace.Kind {
	if p.Ctx != nil {
		return p.Ctx.Kind
	}
	return workspace.KindAIV
}

func (p *Pass) computeUnits() []*unit.Unit {
	var entries []string
	switch p.File.Lang {
	case grammar.CPP:
		if p.Ctx != nil {
			entries = p.Ctx.Units
		}
	case grammar.Python:
		seen := map[string]bool{}
		for _, s := range p.WS.StubsFor(p.File.Path) {
			for _, e := range p.WS.StubEntries(s) {
				if !seen[e] {
					seen[e] = true
					entries = append(entries, e)
				}
			}
		}
		sort.Strings(entries)
	}
	var out []*unit.Unit
	for _, e := range entries {
		if u := p.EntryUnit(e); u != nil {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return []*unit.Unit{p.Closure()}
	}
	return out
}

// EntryUnit returns the unit rooted at an extern entry file (one a stub
// names, say), or nil when the entry cannot be read.
func (p *Pass) EntryUnit(entry string) *unit.Unit {
	return p.store.ForEntry(p.runContext(), p.WS, entry)
}

type lazy[T any] struct {
	once sync.Once
	v    T
}

// passUnits are a file's units, computed once per file and shared by the
// copies of its Pass (one per rule).
type passUnits struct {
	units, reach lazy[[]*unit.Unit]
	closure      lazy[*unit.Unit]
	args         lazy[[]abi.Access]
	// guards is the file's guard model as its compiles see it (the
	// reach's IncludeGuards), asked once: Cores asks it per node.
	guards lazy[*grammar.Guards]
}

// ArgsAccesses is ArgsAccesses for the pass's file (asked once per file,
// whatever the number of rules asking).
func (p *Pass) ArgsAccesses() []abi.Access {
	p.lazy.args.once.Do(func() { p.lazy.args.v = p.store.ArgsAccesses(p.runContext(), p.WS, p.File.Path) })
	return p.lazy.args.v
}

// ArgsAccessesOf is ArgsAccesses of another C++ file of the pass's
// workspace, with the pass's fact store (a fix that renumbers args[] reads
// every file of the units it changes).
func (p *Pass) ArgsAccessesOf(path string) []abi.Access {
	return p.store.ArgsAccesses(p.Context(), p.WS, path)
}

// Bindings is EntryBindings in the pass's workspace; the file's own units
// are not built again.
func (p *Pass) Bindings(entry string) *abi.Bindings {
	for _, u := range p.Units() {
		if !u.Pseudo && u.Entry == workspace.Abs(entry) {
			return u.Bindings()
		}
	}
	return p.store.EntryBindings(p.runContext(), p.WS, entry)
}

// Target is the chip the pass's file is compiled for: the configured one,
// else what its units' conditionals say (a header of several units is
// known only when they all agree).
func (p *Pass) Target() unit.Target {
	if p.Settings.Arch.Single() {
		return unit.Target{Arch: p.Settings.Arch, Source: "config"}
	}
	var out unit.Target
	for i, u := range p.Units() {
		t := u.Target()
		if i == 0 {
			out = t
			continue
		}
		if t.Arch != out.Arch {
			return unit.Target{Arch: grammar.ArchAny}
		}
	}
	if out.Arch == grammar.ArchNone {
		out.Arch = grammar.ArchAny
	}
	return out
}

// ArchAt is the set of chips that compile node n of file f for this pass:
// the target's, narrowed by the conditionals around n (code under `#if
// __NPU_ARCH__ == 3510` is A5 code whatever the unit). ArchNone: no chip
// of the target compiles it.
func (p *Pass) ArchAt(f *grammar.File, n *grammar.Node) grammar.Arch {
	return p.Target().Arch & p.Closure().ArchMap(f).At(n.Start)
}

// Compiles reports whether a device compile of the pass's units keeps
// node n of file f (see compiled): a rule asks it of a syntactic match the
// unit's guard models may compile out, such as a `dcci` under `#if
// !defined(__DAV_C310__)` in a unit built for A5.
func (p *Pass) Compiles(f *grammar.File, n *grammar.Node) bool {
	return p.compiled(f.Path, n.Start)
}

// compiled reports whether a device compile keeps the byte at off of file:
// not under `#ifdef __CPU_SIM` or another never-device branch, nor in a
// branch only another chip than the configured one compiles, and, for a
// header, not cut out by what every unit defines before including it.
func (p *Pass) compiled(path string, off uint32) bool {
	return p.compiledBy(path, off, nil)
}

// compiledBy is compiled over the units keep accepts (nil: every unit).
func (p *Pass) compiledBy(path string, off uint32, keep func(*unit.Unit) bool) bool {
	f := p.fileAt(path)
	if f == nil || f.Lang != grammar.CPP {
		return true
	}
	if f.Guards.CoresAt(off) == grammar.None {
		return false
	}
	if a := p.Settings.Arch; a.Single() && a&p.Closure().ArchMap(f).At(off) == grammar.ArchNone {
		return false // another chip's branch: the configured chip's build drops it
	}
	seen := false
	for _, u := range p.Units() {
		if u.Pseudo || u.File(path) == nil || keep != nil && !keep(u) {
			continue
		}
		seen = true
		if u.IncludeGuards(f).CoresAt(off) != grammar.None {
			return true
		}
	}
	return !seen
}

// ReachedAt reports whether the code at byte off of the file at path
// runs under a kernel of the pass's file's units (unit.Reached): outside
// any function, in a function one of them reaches, or in a file no
// extern compile holds (a header opened alone is judged as its own code:
// who calls it is unknown). A library function no kernel reaches leaves
// its obligations to its callers: rules do not judge it.
func (p *Pass) ReachedAt(path string, off uint32) bool {
	seen := false
	for _, u := range p.Units() {
		f := u.File(path)
		if u.Pseudo || f == nil {
			continue
		}
		seen = true
		if f == u.Files[0] || u.Reached().At(f, off) {
			// The entry file is reached whole: no walk asked for.
			return true
		}
	}
	return !seen
}

// demoteUnseen offers a finding's safe fixes as unsafe when something
// before it in its function is out of the analysis's sight (a macro it
// cannot read, a condition on an unknown template argument): that
// construct may already have done what the fix adds, or made the fixed
// code wrong (a cube that returned inside a macro never meets
// `SyncAll<false>()`). The message says why.
func (p *Pass) demoteUnseen(d *Diagnostic) {
	safe := false
	for _, fx := range d.Fixes {
		safe = safe || fx.Applicability == Safe && len(fx.Edits) > 0
	}
	if !safe || d.Code == InternalCode {
		return
	}
	f := p.fileAt(d.File)
	if f == nil {
		return
	}
	us := p.Reach().UnseenBefore(f, d.Start)
	if len(us) == 0 {
		return
	}
	for i := range d.Fixes {
		if d.Fixes[i].Applicability == Safe {
			d.Fixes[i].Applicability = Unsafe
		}
	}
	d.Unseen = us
	more := ""
	if len(us) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(us)-1)
	}
	d.Message = CapMessage(d.Message + "; the fix is offered as unsafe: " + us[0].Why + more + ", and it may change what this code does")
	for _, u := range us {
		d.Related = append(d.Related, Related{File: u.File.Path, Start: u.Node.Start, End: u.Node.End, Message: CapMessage("extern-lsp could not see into this: " + u.Why)})
	}
}

// fileAt is the pass's file or the included file at path.
func (p *Pass) fileAt(path string) *grammar.File {
	if path == p.File.Path {
		return p.File
	}
	for _, inc := range p.Includes {
		if inc.Path == path {
			return inc
		}
	}
	return nil
}

// Sight counts what the analysis of a file could not see.
type Sight struct {
	// UndefinedMacros are statement uses of macro-like names with no
	// definition in any file of the unit.
	UndefinedMacros int
	// UnreadMacros are statement uses of macros the unit defines with a
	// body the analysis cannot read as statements.
	UnreadMacros int
	// TemplateConditions are conditions on template arguments the
	// analysis does not know with a return under them (the code after
	// them may not run on some instantiation).
	TemplateConditions int
}

// Add adds o's counts to s.
func (s *Sight) Add(o Sight) {
	s.UndefinedMacros += o.UndefinedMacros
	s.UnreadMacros += o.UnreadMacros
	s.TemplateConditions += o.TemplateConditions
}

// sight counts what the analysis could not see in the pass's file.
func (p *Pass) sight() Sight {
	var s Sight
	if p.File.Lang != grammar.CPP || p.File.Tree == nil {
		return s
	}
	u := p.Reach()
	for _, fn := range p.Nodes("function_definition") {
		if p.Context().Err() != nil {
			break
		}
		if cxx.EnclosingDefinition(fn) != nil {
			continue
		}
		for _, x := range u.UnseenIn(p.File, fn) {
			switch {
			case x.Undefined:
				s.UndefinedMacros++
			case x.Node.Kind() == "expression_statement":
				s.UnreadMacros++
			default:
				s.TemplateConditions++
			}
		}
	}
	return s
}

// Spend counts n steps of the rule's work (one per loop iteration, more
// for an iteration that does more) and reports whether the rule should
// stop: its steps are spent, or the run was cancelled or is past its time
// limit.
func (p *Pass) Spend(n int) bool {
	if p.meter.spend(n) {
		return true
	}
	return p.Context().Err() != nil
}

// Incomplete says the rule gave up part of its analysis of the file (a
// search past its own bound); why says what, for the note. The rule's
// findings in the file are dropped, the file is reported as not fully
// analysed, and the rule's context is cancelled.
func (p *Pass) Incomplete(why string) {
	if p.meter != nil {
		p.meter.cut(why)
	}
}

// Kept reports whether a finding of the running rule at byte start of the
// pass's file would be kept: compiled for the rule's premise and not
// silenced by a suppression comment. A fix that edits several sites
// (a flag id's set and its wait) leaves out the sites the user silenced.
func (p *Pass) Kept(start uint32) bool {
	d := Diagnostic{File: p.File.Path, Start: start, End: start, Code: p.Analyzer.Code, Name: p.Analyzer.Name}
	if p.limit == nil {
		return p.compiledUnder(d.File, d.Start, p.Analyzer.Premise)
	}
	return p.counted(&d)
}

// counted reports whether the run keeps and counts d: not a note of the
// driver, in code a unit holding the rule's premise compiles (the
// driver's filter), and not silenced by a suppression comment
// (suppressed findings do not use up the cap). It does not mark the
// suppression used: the driver does that once the rules are done.
func (p *Pass) counted(d *Diagnostic) bool {
	if d.Code == InternalCode || !p.compiledUnder(d.File, d.Start, p.Analyzer.Premise) {
		return false
	}
	if d.File != p.File.Path || len(p.limit.sups) == 0 {
		return true
	}
	line, _ := p.File.Lines.Position(d.Start)
	for _, s := range p.limit.sups {
		if line >= s.Line && line <= s.End && s.Matches(d.Code, d.Name) {
			return false
		}
	}
	return true
}

// CompiledUnder reports whether a unit whose model holds premise pr
// compiles byte start of the pass's file: a rule whose premise is the
// hardware but one of whose checks rests on the runtime asks it per site.
func (p *Pass) CompiledUnder(start uint32, pr Premise) bool {
	return p.Models().Holds(pr) && p.compiledUnder(p.File.Path, start, pr)
}

// compiledUnder is compiled over the units whose model holds premise pr:
// a header's code that only a standalone kernel compiles (its includer,
// an extern, switched it off) is not judged by a runtime rule, nor a
// library function no kernel of the file's units reaches (ReachedAt) by
// any rule judging device code.
func (p *Pass) compiledUnder(path string, off uint32, pr Premise) bool {
	if !p.compiled(path, off) {
		return false
	}
	if pr == PremiseNone {
		return true
	}
	if !p.ReachedAt(path, off) {
		return false
	}
	return p.compiledBy(path, off, func(u *unit.Unit) bool {
		m, ok := p.models.of(u.Entry)
		return ok && m.Holds(pr)
	})
}

// Models returns the launch and build models of the units compiling the
// pass's file (nil for a Python file).
func (p *Pass) Models() Models {
	if p.models == nil && p.Ctx != nil {
		p.models = ModelsOf(p.WS, p.Ctx, p.Settings)
	}
	return p.models
}

// OtherChipBuilds reports whether a compile for another chip, or the CPU
// simulator, may build the pass's file, and says why: its conditionals
// name both chips, the units compiling it target different chips, or a
// build file above it defines __CPU_SIM. A fix that rewrites one chip's
// macros is safe only when nothing else builds the file.
func (p *Pass) OtherChipBuilds() (bool, string) {
	f := p.File
	if f == nil || f.Lang != grammar.CPP {
		return false, ""
	}
	var named, targets grammar.Arch
	for _, u := range p.Units() {
		if u.Pseudo || u.File(f.Path) == nil {
			continue
		}
		for _, e := range u.ArchMap(u.File(f.Path)).Evidence {
			named |= e.Arch
		}
		if t := u.Target(); t.Known() {
			targets |= t.Arch
		}
	}
	switch {
	case named == grammar.ArchAny:
		return true, "its conditionals name both A2/A3 and A5"
	case targets == grammar.ArchAny:
		return true, "units for both A2/A3 and A5 compile it"
	}
	for _, b := range p.WS.BuildSettingsUp(filepath.Dir(f.Path)) {
		if b.Key == "cpu-sim" {
			return true, fmt.Sprintf("the CPU simulator builds it (%s:%d defines __CPU_SIM)", filepath.Base(b.File), b.Line)
		}
	}
	return false, ""
}
