package analysis

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"runtime/trace"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Options control one run of the driver.
type Options struct {
	Analyzers []*Analyzer
	// Enabled decides whether a rule runs; nil runs every rule that is not
	// DefaultOff.
	Enabled func(*Analyzer) bool
	// Severity overrides a rule's default severity by code.
	Severity map[string]Severity
	// KeepSuppressed keeps suppressed findings with Suppressed set.
	KeepSuppressed bool
	// Settings are the project's rule settings (from analysis/config); the
	// zero value means defaults. Rules read them as Pass.Settings.
	Settings Settings
	// Store memoizes file and unit facts; runs sharing one reuse each
	// other's facts. Nil: a store for this run only.
	Store *unit.Store
	// Sight, when set, receives the counts of what the analysis of the
	// file could not see (for `check --statistics`).
	Sight *Sight
	// Budget bounds the run in time (0: no bound): the server's net
	// against a runaway; check sets none, since time depends on the
	// machine's load (Steps is the bound that keeps findings the same
	// everywhere). Past it the rules stop, and the findings of the rules
	// that finished are returned with a note saying the file was not
	// fully analysed.
	Budget time.Duration
	// Steps is the step budget of each rule in the file, and a tenth of
	// each fact's the run computes (0: DefaultSteps; negative: none); see
	// steps.go.
	Steps int64
	// Jobs is how many of the file's rules run at once (0 or 1: one after
	// another).
	Jobs int
	// MaxFindingsPerRule caps the findings of each rule listed per file
	// (0: no cap); past it they are counted, and one note per file and
	// rule says how many were not listed (see CapFindings).
	MaxFindingsPerRule int
	// DropFacts drops the facts of the units made for this file alone
	// (its closure and reach) when the run ends: a one-shot check reads
	// them no more. A server keeps them for the next run on the file.
	DropFacts bool
}

// DefaultBudget is the server's per-file time limit, the net behind the
// step budget (DefaultSteps): far above what any real kernel needs even on
// a loaded machine, short enough that an input no step bound covers cannot
// hold an analysis slot for minutes.
const DefaultBudget = 60 * time.Second

// BudgetCode is the code of the note on a file whose analysis was stopped
// at its time limit or its steps.
const BudgetCode = InternalCode

func (o *Options) enabled(a *Analyzer) bool {
	if o.Enabled != nil {
		return o.Enabled(a)
	}
	return !a.DefaultOff
}

// Run analyzes one file of the workspace and returns its diagnostics,
// suppressions applied, sorted by position. C++ files that are not extern
// sources get no findings.
func Run(ws *workspace.Workspace, path string, opts Options) ([]Diagnostic, error) {
	return RunContext(context.Background(), ws, path, opts)
}

// RunContext is Run under a context: when ctx is cancelled the rules stop
// early and the run returns ctx's error.
func RunContext(ctx context.Context, ws *workspace.Workspace, path string, opts Options) ([]Diagnostic, error) {
	parent := ctx
	steps := opts.Steps
	if steps == 0 {
		steps = DefaultSteps
	}
	ctx = unit.WithRun(ctx, steps*sharedSteps)
	path = workspace.Abs(path)
	var wctx *workspace.Context
	if lang, _ := grammar.LangOf(path); lang == grammar.CPP {
		// Whether an extern compiles the file comes from the text's scan:
		// a file none does gets no findings, and no parse.
		if _, err := ws.Source(path); err != nil {
			return nil, err
		}
		wctx = ws.Context(path)
		if !wctx.Extern {
			return nil, nil
		}
	}
	f, err := ws.File(path)
	if err != nil {
		return nil, err
	}
	if wctx != nil && !wctx.Entry && unit.OnlyIncludes(f) && ParseSuppressions(f) == nil {
		// Nothing a rule reports on: the rules would only build its
		// closure's facts, and in a chain of such headers each including
		// the next that was quadratic.
		return nil, nil
	}
	var includes []*grammar.File
	// cut are the parts of the file's analysis that were not done, with
	// why (a header not read, a rule cut short).
	var cut []string
	if f.Lang == grammar.CPP {
		incl := ws.Closure(path)[1:]
		incs, errs := ws.Files(incl)
		for i, inc := range incs {
			if errs[i] == nil && inc.Lang == grammar.CPP {
				includes = append(includes, inc)
			}
			if errors.Is(errs[i], grammar.ErrBinary) {
				cut = append(cut, fmt.Sprintf("the included %s holds a NUL byte and was not read", filepath.Base(incl[i])))
			}
		}
	}
	if wctx != nil {
		// The units' files too (parsed once, kept by the workspace).
		for _, e := range wctx.Units {
			ws.Files(ws.Closure(e))
		}
	}
	if opts.Budget > 0 {
		// The time limit starts once the file and its headers are parsed:
		// parsing is linear in the text, and on a loaded machine a large
		// unit's parse alone could reach it, changing the findings with
		// the load. What it guards against is a rule that never ends.
		var cancel context.CancelFunc
		running.Add(1)
		defer running.Add(-1)
		ctx, cancel = context.WithTimeout(ctx, opts.Budget*slowdown())
		defer cancel()
	}
	store := opts.Store
	if store == nil {
		store = unit.NewStore()
	}
	base := Pass{
		File:     f,
		WS:       ws,
		Ctx:      wctx,
		Includes: includes,
		Settings: opts.Settings,
		ctx:      ctx,
		store:    store,
		lazy:     &passUnits{},
	}
	base.Consts = base.Closure().Consts()
	if wctx != nil {
		base.models = ModelsOf(ws, wctx, opts.Settings)
	}
	if opts.DropFacts {
		defer func() {
			// A run stopped may have abandoned rules still making its units.
			if ctx.Err() == nil {
				base.dropUnits()
			}
		}()
	}
	sups := ParseSuppressions(f)
	var diags, notes []Diagnostic
	var run []*Analyzer
	for _, a := range opts.Analyzers {
		if a.Lang != f.Lang || !opts.enabled(a) {
			continue
		}
		if wctx != nil && !base.models.Holds(a.Premise) {
			// The rule's premise holds for no unit of the file (a
			// runtime rule on a standalone kernel, anything on CPU-only
			// code).
			continue
		}
		run = append(run, a)
	}
	// At once, each rule's findings are still its own, kept in rule order,
	// and shared facts are charged to no rule's steps: the same findings
	// as one after another.
	res := runRules(ctx, base, run, max(opts.Jobs, 1), steps, func() *findingCap {
		if opts.MaxFindingsPerRule > 0 {
			return &findingCap{max: opts.MaxFindingsPerRule, sups: sups}
		}
		return nil
	})
	jobs := max(opts.Jobs, 1)
	for i, a := range run {
		found, why, limit := res[i].found, res[i].why, res[i].limit
		if !res[i].ok {
			// The rule was abandoned (or not run), or may have worked
			// from facts cut short: keep only the findings of rules that
			// finished in time.
			break
		}
		to := -1
		if jobs == 1 && i+1 < len(run) && res[i+1].ok {
			to = res[i+1].reads
		}
		if fact, n := unit.RunCut(ctx, res[i].reads, to); why == "" && fact != "" {
			// A shared fact the rule read ran out of its own steps, by the
			// end of the file's rules: the same whichever of them asked
			// first. Rules run at once are not told apart: each is told
			// of any fact the file's rules read.
			why = fmt.Sprintf("the shared %s it reads passed its %s analysis steps", fact, Thousands(int(n)))
		}
		if why != "" {
			// Cut short by its own bound: the same on every machine. A
			// search cut short can miss what clears a finding: none of
			// the rule's findings is kept, and the note says so.
			cut = append(cut, fmt.Sprintf("%s %s did not finish (%s), so its findings here are not listed", a.Code, a.Name, why))
			continue
		}
		diags = append(diags, found...)
		if limit != nil {
			notes = append(notes, limit.notes()...)
		}
	}
	diags = append(diags, notes...)
	if err := parent.Err(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		// Past the time limit: say so, with what the rules that finished
		// found.
		diags = append(diags, Diagnostic{
			File: f.Path, Code: BudgetCode, Name: BudgetName, Severity: SeverityInfo,
			Message: fmt.Sprintf("not fully analysed: the analysis of this file stopped at the editor's time limit (%v, stretched by the machine's load); the findings of the rules still to run are missing (`extern-lsp check` has no time limit)", opts.Budget),
		})
	}
	if len(cut) > 0 {
		diags = append(diags, Diagnostic{
			File: f.Path, Code: BudgetCode, Name: IncompleteName, Severity: SeverityInfo,
			Message: "not fully analysed: " + strings.Join(cut, "; "),
		})
	}
	for i := range diags {
		if s, ok := opts.Severity[diags[i].Code]; ok && diags[i].Code != InternalCode {
			diags[i].Severity = s
		}
	}
	// Code no device compile keeps (`#ifdef __CPU_SIM`, a header's entry
	// its includer turned off) is reported by no rule.
	premise := map[string]Premise{}
	for _, a := range opts.Analyzers {
		premise[a.Code] = a.Premise
	}
	compiled := diags[:0]
	for _, d := range diags {
		if d.Code == InternalCode || base.compiledUnder(d.File, d.Start, premise[d.Code]) {
			compiled = append(compiled, d)
		}
	}
	diags = compiled
	for i := range diags {
		base.demoteUnseen(&diags[i])
	}
	if opts.Sight != nil && ctx.Err() == nil {
		*opts.Sight = base.sight()
	}
	note := importedNote(f.Path, f.Src, opts.Settings.GeneratedMarkers)
	if note != "" {
		demoteImported(diags, f.Path, note)
	}
	if len(notes) > 0 {
		demoted := ""
		if note != "" {
			demoted = f.Path
		}
		for i := range diags {
			adjustUnlisted(&diags[i], opts.Severity, demoted)
		}
	}
	kept := diags[:0]
	for _, d := range diags {
		if d.File == f.Path && d.Code != InternalCode {
			line, _ := f.Lines.Position(d.Start)
			if s := Suppressed(sups, d, line); s != nil {
				if !opts.KeepSuppressed {
					continue
				}
				d.Suppressed = s.Kind
			}
		}
		kept = append(kept, d)
	}
	diags = kept
	// Not after a cut: the rules that did not run would make suppressions
	// look unused.
	if ctx.Err() == nil {
		for _, a := range opts.Analyzers {
			if a.Finish != nil && opts.enabled(a) {
				p := base
				p.Analyzer, p.rules = a, &ruleSet{opts.Analyzers, opts.enabled, opts.Severity}
				diags = append(diags, a.Finish(&p, sups, diags)...)
			}
		}
	}
	SortDiagnostics(diags)
	return diags, nil
}

// dropUnits drops the facts of the file's closure and reach (its extern
// units' are shared with the unit's other files; a check has made a C++
// file's reach for its statistics).
func (p *Pass) dropUnits() {
	p.store.DropUnit(p.Closure())
	if p.File.Lang == grammar.CPP {
		p.store.DropUnit(p.Reach())
	}
}

// ruleResult is what runRule returned for one rule, with its findings cap.
type ruleResult struct {
	found []Diagnostic
	why   string
	ok    bool
	limit *findingCap
	// reads is where the rule's span of shared facts read starts (one
	// rule after another only).
	reads int
}

// runRules runs the rules of run on jobs worker goroutines, each taking
// the next rule not started, and returns their results in rule order (a
// rule not run or not finished is not ok). The rules run on the workers
// themselves, not a goroutine each: on a busy machine every hand-off
// between goroutines is an OS thread waiting for a time slice. A
// cancelled run returns at once even from a rule that never looks at its
// context: the workers are abandoned (the findings and facts they compute
// under the cancelled context are dropped), finish their rule in the
// background and start no other.
func runRules(ctx context.Context, base Pass, run []*Analyzer, jobs int, steps int64, limit func() *findingCap) []ruleResult {
	res := make([]ruleResult, len(run))
	var mu sync.Mutex // guards res and abandoned
	abandoned := false
	var next atomic.Int64
	workers := min(jobs, len(run))
	var left atomic.Int64
	left.Store(int64(workers))
	done := make(chan struct{})
	order := ruleOrder(run, jobs)
	work := func() {
		defer func() {
			if left.Add(-1) == 0 {
				close(done)
			}
		}()
		for k := int(next.Add(1) - 1); k < len(run) && ctx.Err() == nil; k = int(next.Add(1) - 1) {
			i := order[k]
			r := ruleResult{limit: limit()}
			if jobs == 1 {
				r.reads = unit.StartReads(ctx)
			}
			r.found, r.why = runRule(ctx, base, run[i], r.limit, steps)
			// Past the rule, a stopped run may have cut its facts short.
			r.ok = ctx.Err() == nil
			mu.Lock()
			if abandoned {
				mu.Unlock()
				return
			}
			res[i] = r
			mu.Unlock()
			if !r.ok {
				return
			}
		}
	}
	if workers == 0 {
		return res
	}
	for range workers {
		go work()
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
	mu.Lock()
	abandoned = true
	mu.Unlock()
	return res
}

// ruleOrder is the order the rules of run start in (indexes): theirs
// one after another (a rule's span of shared facts read follows the
// previous rule's); at once, a rule sharing a fact an earlier rule starts
// (Analyzer.Shares) after every rule that shares none.
func ruleOrder(run []*Analyzer, jobs int) []int {
	order := make([]int, 0, len(run))
	var later []int
	started := map[string]bool{}
	for i, a := range run {
		if jobs > 1 && a.Shares != "" && started[a.Shares] {
			later = append(later, i)
			continue
		}
		if a.Shares != "" {
			started[a.Shares] = true
		}
		order = append(order, i)
	}
	return append(order, later...)
}

// runRule runs one rule with its own findings; why is set when the rule
// did not analyse the file fully (its steps ran out, or it gave up part
// of its work: see steps.go).
func runRule(ctx context.Context, base Pass, a *Analyzer, limit *findingCap, steps int64) (found []Diagnostic, why string) {
	var diags []Diagnostic
	p := base
	p.Analyzer = a
	p.diags = &diags
	p.limit = limit
	var m *meter
	if steps > 0 {
		m, p.rctx = newMeter(ctx, steps)
		p.meter = m
		defer m.cancel(nil)
	}
	rulesRunning.Add(1)
	defer rulesRunning.Add(-1)
	if trace.IsEnabled() {
		// `EXTERN_LSP_TRACE`: which rule a worker is in.
		defer trace.StartRegion(ctx, "rule "+a.Code).End()
	}
	runSafely(&p)
	return diags, m.reason()
}

// rulesRunning counts the rules not yet finished, those of abandoned
// workers included.
var rulesRunning atomic.Int64

// RulesRunning is the number of rules still running in this process, the
// abandoned ones of cancelled runs included: they hold a core until they
// notice their context.
func RulesRunning() int { return int(rulesRunning.Load()) }

func runSafely(p *Pass) {
	defer func() {
		if r := recover(); r != nil {
			p.Report(Diagnostic{
				Code:     InternalCode,
				Name:     "internal-error",
				Severity: SeverityInfo,
				Message:  fmt.Sprintf("rule %s %s crashed on this file and was skipped: %v (please report it with the file)\n%s", p.Analyzer.Code, p.Analyzer.Name, r, firstFrames(debug.Stack())),
			})
		}
	}()
	p.Analyzer.Run(p)
}

func firstFrames(stack []byte) string {
	lines := 0
	for i, b := range stack {
		if b == '\n' {
			lines++
			if lines == 12 {
				return string(stack[:i])
			}
		}
	}
	return string(stack)
}
