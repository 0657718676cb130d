package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
)

// The analysis budget is counted in steps, not seconds: a rule spends one
// at each iteration of its loops (Pass.Stopped, Pass.Spend), and a rule
// past its steps stops. The same input takes the same steps on any
// machine, under any load and with any number of jobs, so it gives the
// same findings. A rule stopped that way, or one that says it gave up
// part of its work (Pass.Incomplete), has its findings in the file
// dropped (a search cut short can miss the write-back that clears a
// finding) and the file is reported as not fully analysed (a note named
// IncompleteName; `check` exits ExitIncomplete).
//
// A fact the rules share counts its work on its own steps (a
// unit.UnitKey with Steps: the store gives it a cxx.Meter), never on the
// asking rule's: which rule, or which file, computes it first depends on
// the order of the work, what it costs does not. A fact past its steps
// stops and is kept as such; every rule that reads it, then or later, has
// its findings in the file dropped the same way (with the rules of a file
// run one after another, as check does, a rule is told of the facts it
// read; run at once, as the server does, of any the file's rules read).
// The call-graph summaries count theirs (expansions, provenance, callers:
// work that grows with the paths of a call graph); the other shared facts
// (indexes, the GM model, constants) are passes over the text with
// bounded recursion, linear in it (BenchmarkShapes).
//
// So `check` needs no time limit, and has none: its findings are the same
// under any load and with any -j. Options.Budget, the time limit, is the
// server's net against a runaway (an editor waits on it); it never
// applies to check.

// DefaultSteps is the step budget of a rule in one file when the options
// set none (a shared fact gets sharedSteps times it): about a hundred
// times what the largest real kernels measured take (pto-isa's 70 KB
// flash-attention kernels, catlass's templated kernels), a few seconds of
// work at most.
const DefaultSteps = 20_000_000

// sharedSteps is how many times a rule's steps a shared fact gets: it
// answers the questions of several rules, over a whole unit (the most a
// real file's summaries took is 21 million steps, ops-transformer's
// prompt-flash-attention headers: under 2 s of CPU).
const sharedSteps = 10

// IncompleteName is the name of the note (code InternalCode) on a file
// some rule did not analyse fully: it stopped at its step budget, or gave
// up part of its work.
const IncompleteName = "analysis-incomplete"

// BudgetName is the name of the note on a file whose analysis the server
// stopped at its time limit (Options.Budget): a net against a runaway
// that never applies to check, met by no real kernel.
const BudgetName = "analysis-budget"

// NotAnalysedName is the name of the note on a file the tool cannot read
// as source (a NUL byte: a binary file).
const NotAnalysedName = "not-analysed"

// Incomplete reports whether d is a note saying its file was not fully
// analysed: a rule stopped at its steps or gave up part of its work, the
// time limit stopped the rules, a rule crashed, or the file could not be
// read as source.
func Incomplete(d *Diagnostic) bool {
	if d.Code != InternalCode {
		return false
	}
	switch d.Name {
	case IncompleteName, BudgetName, NotAnalysedName, "internal-error":
		return true
	}
	return false
}

// errSteps is the cause of a rule's context once its steps are spent.
var errSteps = errors.New("the rule's analysis step budget is spent")

// meter counts one rule's steps in one file (the count is a shared
// fact's cxx.Meter's); past them the rule's context is cancelled.
type meter struct {
	steps  *cxx.Meter
	cancel context.CancelCauseFunc
	mu     sync.Mutex
	// why says why the rule's analysis is incomplete ("" while it is not).
	why string
}

func newMeter(ctx context.Context, limit int64) (*meter, context.Context) {
	m := &meter{steps: cxx.NewMeter(limit)}
	ctx, m.cancel = context.WithCancelCause(ctx)
	ctx = cxx.WithCut(ctx, m.cut)
	return m, ctx
}

// spend takes n steps and reports whether the budget ran out.
func (m *meter) spend(n int) bool {
	if m == nil || !m.steps.Spend(n) {
		return false
	}
	m.cut(fmt.Sprintf("it spent its %s analysis steps", Thousands(int(m.steps.Limit()))))
	return true
}

// cut marks the rule's analysis incomplete (the first reason is kept)
// and stops it.
func (m *meter) cut(why string) {
	m.mu.Lock()
	if m.why == "" {
		m.why = why
	}
	m.mu.Unlock()
	m.cancel(errSteps)
}

func (m *meter) reason() string {
	if m == nil {
		return ""
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.why
}

// running counts the files whose rules run in the process (RunContext).
var running atomic.Int64

// slowdown is how many times longer than alone a file's rules take now:
// the files under analysis that share the process's cores, times the
// machine's load average over its cores. The time limit stretches by it:
// it is a net for a rule that never ends, and a busy machine reaching it
// first made the findings depend on the load and on -j (rules of 2 s of
// CPU took over a minute at a load of 50 on 2 cores, and at -j 8).
func slowdown() time.Duration {
	cores := int64(runtime.GOMAXPROCS(0))
	n := max(1, (running.Load()+cores-1)/cores)
	if load, ok := loadAverage(); ok {
		n *= max(1, int64(math.Ceil(load/float64(runtime.NumCPU()))))
	}
	return time.Duration(n)
}

// BinaryNote is the note on a file that holds a NUL byte (src is its
// text): it is not read as source, and says where the byte is so that a
// stray one can be found.
func BinaryNote(path string, src []byte) Diagnostic {
	at := bytes.IndexByte(src, 0)
	where := ""
	if at >= 0 {
		line := 1 + bytes.Count(src[:at], []byte("\n"))
		col := at - bytes.LastIndexByte(src[:at], '\n')
		where = fmt.Sprintf(" (line %d, column %d)", line, col)
	}
	return Diagnostic{
		File: path, Code: InternalCode, Name: NotAnalysedName, Severity: SeverityInfo,
		Message: "not analysed: the file holds a NUL byte" + where + ", so it is read as binary, not as source; remove the byte to have it checked",
	}
}
