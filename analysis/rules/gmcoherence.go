package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// readVerdict is what the unit's summaries say about one scalar GM read.
type readVerdict struct {
	// Coherent: the lines were invalidated before the read (here, in a
	// helper, or by every caller) after anything that could make them
	// stale, or only this core's scalar unit wrote the memory before.
	Coherent bool
	// Hazard says why the read can be stale ("" for a read of memory
	// nothing in the task wrote before it: the cache was invalidated at
	// task start). HazardAt points at the cause.
	Hazard   string
	HazardAt *analysis.Related
	// Missing are the callers that do not make the memory coherent when
	// the others do.
	Missing []analysis.Related
	// OwnDMA: the hazard is this core's own DMA write to the memory (a
	// build where the compiler keeps scalar coherence does not cover it).
	OwnDMA bool
	// Poll is set for a read in a polling loop: a dcci before the
	// statement does not fix it, one inside the loop does.
	Poll bool
	// Uncached is the wait a read follows when nothing this core did in
	// the task before it (here, in a helper, in a loop around it, in a
	// caller) can have brought the memory's lines into its scalar cache:
	// the read loads GM, the house rule still applies.
	Uncached *cxx.Effect
	// Between is the stretch of the read's function where a call could
	// undo the hazard (invalidate the line): from its cause (the wait, the
	// DMA write, or the function's start when a caller waits) to the read,
	// or the whole polling loop; zero when there is none.
	Between [2]uint32
	// CachedAt points at the access that can have cached the line a
	// read after a wait finds stale.
	CachedAt *analysis.Related
	// OwnLine: the polling loop around the read invalidates the line
	// itself, so its author keeps this word coherent whatever the
	// compiler inserts (a history fix in a build with default flags moved
	// such a loop's dcci before its first read).
	OwnLine bool
	// Race is this core's own DMA write the read can overtake: nothing
	// between them waits for MTE3 (the history fix was the wait, or a
	// dcci, between them).
	Race *cxx.Effect
}

// classifyRead decides, from the effects of the access's function (helpers
// expanded) and what its callers did before calling it, whether a scalar
// read is coherent and, if not, what makes it a hazard.
func classifyRead(pass *analysis.Pass, sum *cxx.Summaries, prec *readPrecedence, a *cxx.Access, cores grammar.Cores) readVerdict {
	var v readVerdict
	fn := a.Func()
	if fn == nil || fn.Kind() != "function_definition" {
		return v
	}
	if sum.DeadForEveryCall(fn, a.Node) {
		// Every call passes null for the pointer guarding the read.
		v.Coherent = true
		return v
	}
	o := sum.OriginOf(a.Ptr())
	written := func() bool { return o.Known() && sum.WrittenInTask(fn, o) }
	hazardAt := func(e cxx.Effect) *analysis.Related {
		r := relatedAtEffect(pass, e)
		return &r
	}
	if o.Known() {
		ok, missing := sum.EntryCoherence(fn, o)
		v.Coherent = ok
		for _, cs := range missing {
			v.Missing = append(v.Missing, analysis.RelatedAt(cs.File, cs.Call,
				"`"+cs.Caller.Name+"` calls `"+cxx.FunctionName(fn)+"` here without making `"+a.Root()+"` coherent first"))
		}
		if w := sum.EntryWaitMissing(fn, o); w != nil && !ok && written() {
			v.Hazard = "read after a caller of `" + cxx.FunctionName(fn) + "` waits for another core (`" + shortText(w.Site) + "`) before calling it"
			v.HazardAt = hazardAt(*w)
			v.Between = [2]uint32{fn.Start, a.Node.Start}
		}
	}
	index := sum.Index(fn)
	pre := prec.of(fn, a)
	live := func(i int) bool { return !sum.DeadForEveryCall(fn, index.Effect(i).At) }
	// The verdict is the last effect that decides it, in the order they
	// run: those before the read, then (in a loop) those after it in the
	// body, which come before the next iteration's read (hazards only: an
	// invalidation there comes after). A wait or DMA write is a hazard
	// only when this core can have cached the line before it; otherwise
	// it leaves the verdict as it was, and says the read is uncached
	// when nothing before it decided.
	var touched *cxx.Touch
	decided, uncached := -1, -1
	hazards := []cxx.EffectKind{cxx.DMAWrite}
	if written() {
		hazards = append(hazards, cxx.Wait)
	}
	decide := func(i int) bool {
		if e := index.Effect(i); !live(i) || e.Kind != cxx.Invalidate && (returnsBefore(e.At, a.Node, fn) || unit.ApartInRun(e.At, a.Node, fn) != unit.Together) {
			return true
		}
		if index.Effect(i).Kind != cxx.Invalidate {
			if t := sum.TouchBefore(fn, o, index.Effect(i).At, cores); t == nil {
				if uncached < 0 {
					uncached = i
				}
				return true
			} else {
				touched = t
			}
		}
		decided = i
		return false
	}
	if loop := prec.loops.enclosingLoop(a.Node, fn); loop != nil {
		index.EachIn(o, cores, a.Node.End+1, loop.End, decide, hazards...)
		if decided >= 0 && invalidatedOnNextPass(prec, index, fn, a, o, cores, index.Effect(decided).At, live) {
			// The next pass invalidates the line before it reads again.
			decided, touched = -1, nil
		}
	}
	if decided < 0 {
		index.EachBefore(pre, o, cores, decide, append(hazards, cxx.Invalidate)...)
	}
	if decided >= 0 {
		switch e := index.Effect(decided); e.Kind {
		case cxx.Invalidate:
			v.Coherent, v.Hazard, v.HazardAt = true, "", nil
		case cxx.Wait:
			v.Coherent = false
			v.Hazard = "read after `" + shortText(e.Site) + "`" + effectLine(pass, e) + " waits for other cores, whose writes to it are not in this core's cache, and `" +
				shortText(touched.Site) + "`" + touchLine(pass, e, *touched) + " can have cached the line before they arrived"
			v.HazardAt = hazardAt(e)
			v.Between = [2]uint32{e.At.End, a.Node.Start}
			v.CachedAt = cachedAt(pass, *touched)
		case cxx.DMAWrite:
			v.CachedAt = cachedAt(pass, *touched)
			v.Coherent = false
			v.Hazard = "read after this core's own DMA write `" + shortText(e.Site) + "`" + effectLine(pass, e) + " to the same buffer, which bypasses the scalar cache"
			v.OwnDMA = true
			v.HazardAt = hazardAt(e)
			v.Between = [2]uint32{e.At.End, a.Node.Start}
		}
	} else if uncached >= 0 && v.Hazard == "" {
		u := index.Effect(uncached)
		v.Uncached = &u
	}
	// Also past a caller's wait: this core's own DMA holds in every build.
	if decided < 0 && !v.Coherent && !v.OwnDMA && o.Known() {
		if e, def := prec.loopDMA(pass.Reach().FuncIndex(), sum, fn, a.Node, o, cores, 0); e != nil {
			f := e.SiteFile
			if f == nil {
				f = def.File
			}
			r := analysis.RelatedAt(f, e.Site, "`"+shortText(e.Site)+"`")
			line, _ := f.Lines.Position(e.Site.Start)
			v.Hazard = fmt.Sprintf("read after this core's own DMA write `%s` (%s:%d) in a loop of `%s` around the call: "+
				"the read on an earlier pass can have cached the line the DMA then rewrote, which bypasses the scalar cache",
				shortText(e.Site), filepath.Base(f.Path), line+1, cxx.FunctionName(def.Node))
			v.HazardAt, v.OwnDMA, v.Uncached = &r, true, nil
			v.Between = [2]uint32{fn.Start, a.Node.Start}
		}
	}
	own := false
	index.EachBefore(pre, o, cores, func(i int) bool {
		own = live(i)
		return !own
	}, cxx.ScalarWrite)
	if l := prec.loops.pollLoop(a.Node, fn, a); l != nil && !scansAddress(l, a) && !comparedWithVarying(l, a) {
		// Only an invalidation inside the loop refreshes the line on
		// every iteration.
		l = prec.loops.aroundCounted(l, a.Node, fn)
		if index.NextCovering(cxx.Invalidate, o, cores, l.Start, l.End, nil) < 0 && !(!o.Known() && invalidatesRootIn(l, a.Root())) {
			if v.Hazard == "" && decided >= 0 {
				// The line a touched wait or DMA write before the
				// invalidation made stale, if any.
				index.EachBefore(pre, o, cores, func(i int) bool {
					if i >= decided || !live(i) {
						return true
					}
					if t := sum.TouchBefore(fn, o, index.Effect(i).At, cores); t != nil {
						v.CachedAt = cachedAt(pass, *t)
						return false
					}
					return true
				}, hazards...)
			}
			v.Coherent, v.Poll, v.OwnDMA = false, true, false
			v.Hazard = "read in a polling loop: once the line is cached the loop keeps reading it and never sees another core's write; `dcci` the line inside the loop, before each read"
			r := analysis.RelatedAt(pass.File, l, "the polling loop")
			v.HazardAt = &r
			v.Between = [2]uint32{l.Start, l.End}
		} else if index.NextCovering(cxx.Invalidate, o, cores, l.Start, a.Node.Start, nil) < 0 && v.Hazard == "" && !v.Coherent {
			// The loop's dcci comes after its first read (`while (*sig !=
			// v) dcci(sig, ...)`): a line this core cached before the loop
			// can end the wait with a stale value on the first pass.
			if t := sum.TouchBefore(fn, o, l, cores); t != nil && testedValue(a.Node) {
				v.Poll, v.OwnLine = true, true
				v.Hazard = "first read of a polling loop whose `dcci` comes after it: the line cached before the loop can end the wait with a stale value; `dcci` it before the loop or before each read (`do { dcci } while (...)`)"
				r := analysis.RelatedAt(pass.File, l, "the polling loop")
				v.HazardAt, v.CachedAt = &r, cachedAt(pass, *t)
				v.Between = [2]uint32{fn.Start, a.Node.Start}
			}
		}
	}
	if !v.Poll && (v.Hazard == "" || v.Coherent) && index.NextCovering(cxx.Invalidate, o, cores, fn.Start, a.Node.Start, nil) < 0 {
		if lf, l, call := helperPollLoop(pass, fn, a); l != nil {
			// `while (PeekEpoch(st) != epoch) {}` over `return st->epoch;`.
			// Only an invalidation inside the loop refreshes the line on
			// every pass, whatever the callers did before it.
			line, _ := lf.Lines.Position(l.Start)
			v.Coherent, v.Poll, v.OwnDMA, v.Missing = false, true, false, nil
			v.Hazard = fmt.Sprintf("read for a polling loop of `%s` (%s:%d) that calls `%s` until the value changes: once the line "+
				"is cached the loop keeps reading it and never sees another core's write; `dcci` the line before each read",
				cxx.FunctionName(cxx.EnclosingFunction(call)), filepath.Base(lf.Path), line+1, cxx.FunctionName(fn))
			r := analysis.RelatedAt(lf, l, "the polling loop")
			v.HazardAt = &r
			v.Between = [2]uint32{fn.Start, a.Node.Start}
		}
	}
	if !v.Poll && (v.Hazard == "" || v.OwnDMA) {
		if e := unorderedDMAWrite(pass, sum, index, pre, fn, a, o, cores, live); e != nil {
			v.Coherent, v.OwnDMA, v.Race, v.Uncached = false, true, e, nil
			v.Hazard = "race"
			v.HazardAt = hazardAt(*e)
			v.Between = [2]uint32{e.At.End, a.Node.Start}
		}
	}
	if v.OwnDMA && v.Between[0] > fn.Start && (storedBetween(fn, v.Between[0], a) || v.Race != nil && v.Race.At == v.Race.Site && loopRestores(fn, v.Race.Site, a)) {
		// This core stored the element itself after the DMA write: its
		// cache holds the value the program last wrote there.
		v.Coherent, v.OwnDMA, v.Race, v.Hazard, v.HazardAt, v.CachedAt = true, false, nil, "", nil, nil
	}
	if !v.Coherent && v.Hazard == "" && own {
		// Only this core's scalar unit wrote it before: its cache holds
		// what it wrote.
		v.Coherent = true
	}
	return v
}

// invalidatedOnNextPass reports whether the innermost loop around both the
// read a and a hazard after it (at) invalidates o between the start of its
// body and the read: on the next pass that comes after the hazard (a row
// loop whose first statement is `asc_dcci_entire_out()`, the read after
// it, the row copied out by DMA last).
func invalidatedOnNextPass(prec *readPrecedence, index *cxx.EffectIndex, fn *grammar.Node, a *cxx.Access, o cxx.Origin, cores grammar.Cores, at *grammar.Node, live func(int) bool) bool {
	for _, loop := range prec.loops.enclosingLoops(a.Node, fn) {
		if !loop.Contains(at) {
			continue
		}
		found := false
		index.EachIn(o, cores, loop.Start, a.Node.Start, func(i int) bool {
			found = live(i) && unit.ApartInRun(index.Effect(i).At, a.Node, fn) == unit.Together
			return !found
		}, cxx.Invalidate)
		return found
	}
	return false
}

// loopDMA finds, up fn's callers, this core's DMA write of o in a loop
// around a call that reaches the read, with no dcci of o in that loop:
// the read of an earlier pass caches the line, the DMA rewrites it, the
// next read returns the stale line (a chunk loop whose epilogue copies
// rows to a workspace and whose tail reads them back by scalar).
func (p *readPrecedence) loopDMA(funcs *cxx.Funcs, sum *cxx.Summaries, fn, read *grammar.Node, o cxx.Origin, cores grammar.Cores, depth int) (*cxx.Effect, cxx.FuncDef) {
	k := fnOrigin{fn, o, cores}
	if w, ok := p.dma[k]; ok || depth > 3 {
		return w.e, w.def
	}
	if p.dma == nil {
		p.dma = map[fnOrigin]loopWrite{}
	}
	p.dma[k] = loopWrite{}
	e, def := p.loopDMAUp(funcs, sum, fn, read, o, cores, depth)
	p.dma[k] = loopWrite{e, def}
	return e, def
}

func (p *readPrecedence) loopDMAUp(funcs *cxx.Funcs, sum *cxx.Summaries, fn, read *grammar.Node, o cxx.Origin, cores grammar.Cores, depth int) (*cxx.Effect, cxx.FuncDef) {
	p.callers.index(funcs)
	all := funcs.All()
	for _, site := range p.callers.byName[cxx.FunctionName(fn)] {
		def := all[site.def]
		n := funcs.Calls(def.Node)[site.i]
		c, ok := cxx.AsCall(n)
		if def.Node == fn || !ok {
			continue
		}
		oc := o
		if o.Kind == cxx.ParamOrigin {
			if oc = (cxx.Origin{}); o.Param < len(c.Args) {
				oc = sum.OriginOf(c.Args[o.Param])
			}
		}
		if !oc.Known() {
			continue
		}
		// Above this call, only the cores that make it run the read.
		cores := cores & def.File.CoresOf(n)
		if cores == grammar.None {
			continue
		}
		idx := sum.Index(def.Node)
		for l := n.Parent(); l != nil && l != def.Node && idx.NextCovering(cxx.Invalidate, oc, cores, l.Start, l.End, nil) < 0; l = l.Parent() {
			var found *cxx.Effect
			if isLoop(l) {
				// Elsewhere in the loop (fn's own writes are its own), on a
				// pass that can precede another reaching the read.
				idx.EachIn(oc, cores, l.Start, l.End, func(i int) bool {
					if e := idx.Effect(i); e.At != n && !returnsBefore(e.At, n, def.Node) && !apartInLoop(e, read, n, l) {
						found = &e
					}
					return found == nil
				}, cxx.DMAWrite)
			}
			if found != nil {
				return found, def
			}
		}
		if e, d := p.loopDMA(funcs, sum, def.Node, read, oc, cores, depth+1); e != nil {
			return e, d
		}
	}
	return nil, cxx.FuncDef{}
}

// returnsBefore reports whether the effect at sits in a statement that
// ends the function (`return Copy(...)`, or a block ending in a return
// that nothing leaves by break, continue or goto) and that does not hold
// the node n: after it, control never reaches n.
func returnsBefore(at, n, fn *grammar.Node) bool {
	for s := at; s != nil && s != fn && !s.Contains(n); s = s.Parent() {
		switch s.Kind() {
		case "return_statement":
			return true
		case "compound_statement":
			c := s.NamedChildren()
			if len(c) > 0 && c[len(c)-1].Kind() == "return_statement" && !leaves(s) {
				return true
			}
		}
	}
	return false
}

// leaves reports whether a block holds a break, continue or goto (one of
// them may leave it before its closing return).
func leaves(s *grammar.Node) bool {
	found := false
	s.Walk(func(c *grammar.Node) bool {
		switch c.Kind() {
		case "break_statement", "continue_statement", "goto_statement":
			found = true
		}
		return !found
	})
	return found
}

// apartInLoop reports whether no two passes of loop reach both the DMA
// write e and the read (in the loop through call n): they sit on the
// sides of one test, in their functions or in the loop, whose names none
// of those assigns (`if (incy == 1) DataCopy(y[i], ...); else
// y.GetValue(j);`, incy set once in Init). A test the loop steps (`stage
// ^= 1`) alternates between passes.
func apartInLoop(e cxx.Effect, read, n, loop *grammar.Node) bool {
	tests := func(site, at *grammar.Node) ([]unit.Test, []*grammar.Node) {
		t, _ := unit.TestsOf(at, loop, 0)
		scopes := []*grammar.Node{loop}
		if fn := cxx.EnclosingFunction(site); site != at && fn != nil {
			more, _ := unit.TestsOf(site, fn, 0)
			t, scopes = append(t, more...), append(scopes, fn)
		}
		return t, scopes
	}
	ta, sa := tests(e.Site, e.At)
	tb, sb := tests(read, n)
	for _, x := range ta {
		for _, y := range tb {
			if x.Key != y.Key || x.On == y.On || x.PP() {
				continue
			}
			names := map[string]bool{}
			x.Cond.Walk(func(c *grammar.Node) bool {
				if k := c.Kind(); k == "identifier" || k == "field_identifier" {
					names[c.Text()] = true
				}
				return true
			})
			if !slices.ContainsFunc(append(sa, sb...), func(s *grammar.Node) bool { return unit.AssignsAny(s, names) }) {
				return true
			}
		}
	}
	return false
}

// unorderedDMAWrite returns this core's last DMA write of o before the
// read when no dcci of the line comes after it and no call between them
// (nor the helper that issues it) waits for the MTE3 pipe: the scalar
// read can then run before the copy landed and load the old bytes,
// cached or not.
func unorderedDMAWrite(pass *analysis.Pass, sum *cxx.Summaries, index *cxx.EffectIndex, pre cxx.Preceding, fn *grammar.Node, a *cxx.Access, o cxx.Origin, cores grammar.Cores, live func(int) bool) *cxx.Effect {
	if !o.Known() {
		return nil
	}
	last := -1
	index.EachBefore(pre, o, cores, func(i int) bool {
		if e := index.Effect(i); !live(i) || e.Kind == cxx.DMAWrite && (returnsBefore(e.At, a.Node, fn) || unit.ApartInRun(e.At, a.Node, fn) != unit.Together) {
			return true
		}
		last = i
		return false
	}, cxx.DMAWrite, cxx.Invalidate)
	if last < 0 || index.Effect(last).Kind != cxx.DMAWrite {
		return nil
	}
	e := index.Effect(last)
	f := sum.FileOf(fn)
	funcs := pass.Reach().FuncIndex()
	waits := func(n *grammar.Node) bool {
		return funcs.CallReachesAny(f, n, cores, "mte3-wait", func(_ *grammar.File, c cxx.Call) bool { return waitsForMTE3(funcs, c) }, cxx.MaxCallDepth)
	}
	if e.At != e.Site && waits(e.At) {
		return nil // the helper that copies can wait after it
	}
	calls := funcs.OwnCalls(fn)
	for i := sort.Search(len(calls), func(i int) bool { return calls[i].Start >= e.At.End }); i < len(calls) && calls[i].Start < a.Node.Start; i++ {
		if waits(calls[i]) {
			return nil
		}
	}
	return &e
}

// waitsForMTE3 matches a call after which the scalar unit sees what MTE3
// wrote (cxx.ScalarDrain, shared with EXT012).
func waitsForMTE3(funcs *cxx.Funcs, c cxx.Call) bool {
	pipes, k := cxx.ScalarDrain(c, funcs)
	return k == cxx.Waits && pipes&cxx.PipeMTE3 != 0
}

// readPrecedence holds, per function, what precedes each scalar read of
// the file (cxx.Summaries.PrecedingAt): one walk of the function answers
// for all its reads. The reads are asked in the order of the file's
// accesses, so each function's answers are given in order and dropped
// once given: a map of every read's answer was most of what EXT001 held
// on a function of thousands of reads.
type readPrecedence struct {
	sum     *cxx.Summaries
	reads   map[*grammar.Node][]*cxx.Access
	answers map[*grammar.Node]*fnAnswers
	// loops answers classifyRead's loop questions.
	loops *loopAncestry
	// callers indexes the calls by callee name; dma memoizes loopDMA.
	callers callersFlushMemo
	dma     map[fnOrigin]loopWrite
}

type fnOrigin struct {
	fn    *grammar.Node
	o     cxx.Origin
	cores grammar.Cores
}

// loopWrite is loopDMA's answer: the write (nil for none) and its
// function.
type loopWrite struct {
	e   *cxx.Effect
	def cxx.FuncDef
}

// fnAnswers are a function's reads and their answers from next on.
type fnAnswers struct {
	reads   []*cxx.Access
	answers []cxx.Preceding
	next    int
}

func newReadPrecedence(sum *cxx.Summaries, accs []cxx.Access) *readPrecedence {
	p := &readPrecedence{sum: sum, reads: map[*grammar.Node][]*cxx.Access{}, answers: map[*grammar.Node]*fnAnswers{}, loops: newLoopAncestry()}
	for i := range accs {
		if a := &accs[i]; a.Kind == cxx.Read && a.Func() != nil {
			p.reads[a.Func()] = append(p.reads[a.Func()], a)
		}
	}
	return p
}

// of returns what precedes read a of fn.
func (p *readPrecedence) of(fn *grammar.Node, a *cxx.Access) cxx.Preceding {
	fa := p.answers[fn]
	if fa == nil {
		if reads, ok := p.reads[fn]; ok {
			nodes := make([]*grammar.Node, len(reads))
			for i, r := range reads {
				nodes[i] = r.Node
			}
			fa = &fnAnswers{reads: reads, answers: p.sum.PrecedingAt(fn, nodes)}
			p.answers[fn] = fa
			delete(p.reads, fn)
		}
	}
	if fa != nil {
		// The reads skipped on the way (not asked: no cores, runtime
		// code) are not asked later.
		for k := fa.next; k < len(fa.reads); k++ {
			if fa.reads[k] == a {
				r := fa.answers[k]
				clear(fa.answers[fa.next : k+1])
				if fa.next = k + 1; fa.next == len(fa.reads) {
					delete(p.answers, fn)
				}
				return r
			}
		}
	}
	// Not in order: what precedes it alone.
	return p.sum.PrecedingAt(fn, []*grammar.Node{a.Node})[0]
}

// loopAncestry answers the loop questions asked per read, memoized per
// function along the read's ancestors past a few levels (shallowUpward): walked per read,
// they cost the read's depth, thousands in an else-if chain.
type loopAncestry struct {
	byFn map[*grammar.Node]*fnLoops
}

type fnLoops struct {
	outer, poll *shallowUpward[*grammar.Node]
	all         *shallowUpward[*loopList]
}

// loopList lists loops, innermost first; lists of nested nodes share
// their tails.
type loopList struct {
	loop *grammar.Node
	next *loopList
}

func newLoopAncestry() *loopAncestry { return &loopAncestry{byFn: map[*grammar.Node]*fnLoops{}} }

func (la *loopAncestry) of(fn *grammar.Node) *fnLoops {
	if l := la.byFn[fn]; l != nil {
		return l
	}
	l := &fnLoops{
		outer: newShallowUpward(fn, func(p, _ *grammar.Node, above *grammar.Node) *grammar.Node {
			if above == nil && isLoop(p) {
				return p
			}
			return above
		}),
		poll: newShallowUpward(fn, func(p, c *grammar.Node, above *grammar.Node) *grammar.Node {
			switch p.Kind() {
			case "while_statement", "do_statement", "for_statement":
				if c.Field() == "condition" {
					return p
				}
				return nil
			case "if_statement":
				if c.Field() != "condition" {
					return above
				}
				if exits(p.ChildByField("consequence")) {
					if l := p.Ancestor("while_statement", "do_statement", "for_statement"); l != nil && l.Tree() == p.Tree() && fn.Contains(l) {
						return l
					}
				}
				return nil
			case "lambda_expression", "function_definition":
				return nil
			}
			return above
		}),
		all: newShallowUpward(fn, func(p, c *grammar.Node, above *loopList) *loopList {
			if isLoop(p) && c.Field() != "initializer" {
				return &loopList{p, above}
			}
			return above
		}),
	}
	la.byFn[fn] = l
	return l
}

// helperPollLoop finds the polling loop a read serves from a caller: the
// read is what its function returns (`return st->epoch;`, through casts),
// and a call of that function is the tested value of a loop's condition
// (`while (PeekEpoch(st) != epoch) {}`) that moves none of the call's
// arguments and calls no `dcci`: the loop waits for the word to change.
func helperPollLoop(pass *analysis.Pass, fn *grammar.Node, a *cxx.Access) (*grammar.File, *grammar.Node, *grammar.Node) {
	p := a.Node.Parent()
	for p != nil && (p.Kind() == "parenthesized_expression" || p.Kind() == "cast_expression") {
		p = p.Parent()
	}
	name := cxx.FunctionName(fn)
	if p == nil || p.Kind() != "return_statement" || name == "" {
		return nil, nil, nil
	}
	funcs := pass.Reach().FuncIndex()
	for _, f := range pass.Reach().Files {
		for _, n := range pass.Reach().Calls(f).Named(name) {
			c, ok := cxx.AsCall(n)
			if !ok || !slices.ContainsFunc(funcs.Callees(c), func(d cxx.FuncDef) bool { return d.Node == fn }) || !testedValue(n) {
				continue
			}
			loop := n.Parent()
			for loop != nil && !isLoop(loop) && loop.Kind() != "function_definition" {
				loop = loop.Parent()
			}
			if loop == nil || !isLoop(loop) || loop.ChildByField("condition") == nil || !loop.ChildByField("condition").Contains(n) {
				continue
			}
			moved := map[string]bool{}
			for _, arg := range c.Args {
				if r := cxx.Root(arg); r != "" {
					moved[r] = true
				}
			}
			if unit.AssignsAny(loop, moved) || strings.Contains(loop.Text(), "dcci") {
				continue
			}
			return f, loop, n
		}
	}
	return nil, nil, nil
}

// takenWhole reports whether read n is the whole value of a declaration
// or of a plain `=` (through parentheses and casts).
func takenWhole(n *grammar.Node) bool {
	p := n.Parent()
	for p != nil && (p.Kind() == "parenthesized_expression" || p.Kind() == "cast_expression") {
		p = p.Parent()
	}
	return p != nil && (p.Kind() == "init_declarator" || p.Kind() == "assignment_expression" && p.ChildByField("operator") != nil && p.ChildByField("operator").Text() == "=")
}

// scansAddress reports whether the loop changes a name the read's address
// is computed from (`while (p >= g.GetValue(base + i + 1)) i++;`), or
// computes the pointer afresh from one (`e = &table[i]` declared in the
// body, then `e->key`): it walks a table, reading a new line each time,
// and does not wait for one word to change.
func scansAddress(loop *grammar.Node, a *cxx.Access) bool {
	return varies(loop, a.Node, nil, a.Root(), 0)
}

// testedValue reports whether the read's value is what the test holding
// it checks (`*sig != v`, `(got = *sig) < seq`, `!*flag`), not an
// argument handed to a call there.
func testedValue(n *grammar.Node) bool {
	for c, p := n, n.Parent(); p != nil; c, p = p, p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression", "cast_expression", "condition_clause":
		case "assignment_expression":
			if c.Field() != "right" {
				return false
			}
		case "unary_expression":
			if operator := p.ChildByField("operator"); operator == nil || operator.Text() != "!" {
				return false
			}
		case "binary_expression":
			if !comparison(p) {
				switch p.ChildByField("operator").Text() {
				case "&&", "||":
					return true
				}
				return false
			}
			return true
		default:
			return isLoop(p) || p.Kind() == "if_statement"
		}
	}
	return false
}

// aroundCounted widens a poll loop that ends by its own count (`for (k =
// 0; k < 32; ++k) if (*w == v) return;`) to the loop around it, which
// repeats it: a dcci there fetches the line anew every few reads.
func (la *loopAncestry) aroundCounted(l, read, fn *grammar.Node) *grammar.Node {
	for _, outer := range la.enclosingLoops(read, fn) {
		c := l.ChildByField("condition")
		if l.Kind() != "for_statement" || c == nil || !relational(cxx.Unparen(c)) || !varies(l, c, nil, "", 0) {
			break
		}
		if outer != l && outer.Contains(l) {
			l = outer
		}
	}
	return l
}

// comparedWithVarying reports whether the read is compared with a value
// the loop changes on every pass (`for (i = 0; i < hdr->count; ++i)`,
// `while (i < t->n)`, `if (e->rank != desc->pe) return` with e the pass's
// entry) or, as an ordering bound, with a call's result
// (`GetSystemCycle() < *deadline`): the loop ends when that value gets
// there, or checks each entry against the read, whatever the line holds;
// it does not wait for the word to change (`spin < kMax && *ready == 0`
// does).
func comparedWithVarying(loop *grammar.Node, a *cxx.Access) bool {
	cmp := a.Node.Parent()
	for cmp != nil && cmp != loop && !comparison(cmp) {
		cmp = cmp.Parent()
	}
	if cmp == nil || cmp == loop {
		return false
	}
	if boundOf(loop, cmp, a.Node) {
		return true
	}
	// The same word as the loop's deadline elsewhere in its condition
	// (`while (*t != 0 && GetSystemCycle() < *t)`): the guard does not
	// make it a poll.
	found := false
	if c := loop.ChildByField("condition"); c != nil && c.Contains(a.Node) {
		c.Walk(func(n *grammar.Node) bool {
			if found || n == cmp || !comparison(n) {
				return !found
			}
			for _, side := range []string{"left", "right"} {
				if x := cxx.Unparen(n.ChildByField(side)); x != nil && x.Text() == a.Node.Text() && boundOf(loop, n, x) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// boundOf reports whether comparison cmp checks read against a value the
// loop changes or, as an ordering bound, against a call's result.
func boundOf(loop, cmp, read *grammar.Node) bool {
	if varies(loop, cmp, read, "", 0) {
		return true
	}
	for _, side := range []string{"left", "right"} {
		if n := cmp.ChildByField(side); n != nil && !n.Contains(read) && relational(cmp) && cxx.Unparen(n).Kind() == "call_expression" {
			return true
		}
	}
	return false
}

// varies reports whether the value of n can differ between passes of the
// loop: it names a variable the loop assigns or steps, or a local declared
// in the loop's body from such a value (its initializer, a few levels
// deep), leaving out the names in except. A read's pointer (skip) counts
// only when declared in the body: assigned, it is the same word polled
// through a new name.
func varies(loop, n, except *grammar.Node, skip string, depth int) bool {
	names, from := map[string]bool{}, map[string]bool{}
	n.Walk(func(c *grammar.Node) bool {
		if c == except {
			return false
		}
		if c.Kind() == "assignment_expression" && except != nil && c.Contains(except) {
			// `(got = *sig) < seq`: got holds the read, not another value.
			if l := c.ChildByField("left"); l != nil {
				from[l.Text()] = true
			}
		}
		if c.Kind() == "identifier" && c.Text() != skip {
			names[c.Text()] = true
		}
		return true
	})
	for k := range from {
		delete(names, k)
	}
	if unit.AssignsAny(loop, names) {
		return true
	}
	if skip != "" {
		names[skip] = true
	}
	if len(names) == 0 || depth >= 3 {
		return false
	}
	for _, d := range loop.Tree().OfKind("init_declarator") {
		if !loop.Contains(d) {
			continue
		}
		name, val := d.ChildByField("declarator"), d.ChildByField("value")
		for name != nil && name.Kind() == "pointer_declarator" {
			name = name.ChildByField("declarator")
		}
		if name != nil && val != nil && names[name.Text()] && varies(loop, val, nil, "", depth+1) {
			return true
		}
	}
	return false
}

// comparison reports whether n is an ordering or equality comparison.
func comparison(n *grammar.Node) bool {
	if n.Kind() != "binary_expression" {
		return false
	}
	switch n.ChildByField("operator").Text() {
	case "==", "!=":
		return true
	}
	return relational(n)
}

// relational reports whether n is an ordering comparison.
func relational(n *grammar.Node) bool {
	if n.Kind() != "binary_expression" {
		return false
	}
	switch op := n.ChildByField("operator"); op.Text() {
	case "<", "<=", ">", ">=":
		return true
	}
	return false
}

// enclosingLoop returns the outermost loop of fn around n, or nil.
func (la *loopAncestry) enclosingLoop(n, fn *grammar.Node) *grammar.Node {
	return la.of(fn).outer.Of(n)
}

// pollLoop returns the loop a read polls in: the read is in a while/do/for
// condition, or in the condition of an `if` that leaves the loop, or its
// value is taken into a local the condition of the innermost loop around
// it tests (`do { seen = *flag; } while (seen != v);`).
func (la *loopAncestry) pollLoop(n, fn *grammar.Node, a *cxx.Access) *grammar.Node {
	if l := la.of(fn).poll.Of(n); l != nil {
		return l
	}
	// Only the word itself, taken whole: `s -= *p` accumulates, and a
	// pointer the loop moves (`p += 16`) reads a new word each pass. The
	// cheap tests first: most reads are no loop's tested local.
	if !takenWhole(n) {
		return nil
	}
	name := assignedName(a)
	l := la.of(fn).all.Of(n)
	if name == "" || l == nil {
		return nil
	}
	tested := false
	l.loop.ChildByField("condition").Walk(func(x *grammar.Node) bool {
		tested = tested || x.Kind() == "identifier" && x.Text() == name
		return !tested
	})
	if !tested || !local(name, a) || unit.AssignsAny(l.loop, map[string]bool{a.Root(): true}) {
		return nil
	}
	return l.loop
}

// enclosingLoops lists the loops of fn that repeat n, innermost first (a
// for loop's initializer runs once: not repeated).
func (la *loopAncestry) enclosingLoops(n, fn *grammar.Node) []*grammar.Node {
	var out []*grammar.Node
	for l := la.of(fn).all.Of(n); l != nil; l = l.next {
		out = append(out, l.loop)
	}
	return out
}

// isLoop reports whether n is a loop statement.
func isLoop(n *grammar.Node) bool {
	switch n.Kind() {
	case "for_statement", "while_statement", "do_statement", "for_range_loop":
		return true
	}
	return false
}

// exits reports whether a statement is (or is a block ending in) break or
// return.
func exits(s *grammar.Node) bool {
	for s != nil && s.Kind() == "compound_statement" {
		c := s.NamedChildren()
		if len(c) == 0 {
			return false
		}
		s = c[len(c)-1]
	}
	return s != nil && (s.Kind() == "break_statement" || s.Kind() == "return_statement")
}

// unseenMacroAround returns the call whose arguments hold n when its
// name reads as a macro's (capitals, digits, `_`) and no file of the unit
// defines it while an #include did not resolve: if it expands without
// its arguments (a debug print switched off), n is never evaluated.
func unseenMacroAround(pass *analysis.Pass, n *grammar.Node) *grammar.Node {
	if len(pass.Closure().UnresolvedIncludes()) == 0 {
		return nil
	}
	for p := n.Parent(); p != nil && p.Kind() != "function_definition"; p = p.Parent() {
		call := p.Parent()
		if p.Kind() != "argument_list" || call == nil || call.Kind() != "call_expression" {
			continue
		}
		fn := call.ChildByField("function")
		if fn != nil && fn.Kind() == "identifier" && strings.ToUpper(fn.Text()) == fn.Text() &&
			len(pass.Reach().Macros().ByName[fn.Text()]) == 0 && len(pass.Reach().FuncIndex().Lookup(fn.Text())) == 0 {
			return call
		}
	}
	return nil
}

// touchFile is the file an access the summaries found is in.
func touchFile(pass *analysis.Pass, t cxx.Touch) *grammar.File {
	if t.SiteFile != nil {
		return t.SiteFile
	}
	return pass.File
}

func cachedAt(pass *analysis.Pass, t cxx.Touch) *analysis.Related {
	r := analysis.RelatedAt(touchFile(pass, t), t.Site, "this access can have cached the line")
	return &r
}

// touchLine renders where an access that can have cached a line is: its
// line, or the helper call it happens in, or the caller it is in.
func touchLine(pass *analysis.Pass, wait cxx.Effect, t cxx.Touch) string {
	if caller := cxx.EnclosingFunction(t.At); t.At.Tree() != wait.At.Tree() || caller != cxx.EnclosingFunction(wait.At) {
		f := touchFile(pass, t)
		l, _ := f.Lines.Position(t.Site.Start)
		return fmt.Sprintf(" (%s:%d, in `%s` before the call)", filepath.Base(f.Path), l+1, cxx.FunctionName(caller))
	}
	return effectLine(pass, cxx.Effect{At: t.At, Site: t.Site, SiteFile: t.SiteFile})
}

func relatedAtEffect(pass *analysis.Pass, e cxx.Effect) analysis.Related {
	f := e.SiteFile
	if f == nil {
		f = pass.File
	}
	return analysis.RelatedAt(f, e.Site, "`"+shortText(e.Site)+"`")
}

// effectLine renders where an effect happens: its line, or the helper call
// it happens in and the helper's file:line.
func effectLine(pass *analysis.Pass, e cxx.Effect) string {
	if e.At == e.Site {
		return lineRef(pass, cxx.Hop{File: pass.File, Call: e.At})
	}
	line, _ := pass.File.Lines.Position(e.At.Start)
	where := fmt.Sprintf(" (in `%s`, line %d", shortText(e.At), line+1)
	if e.SiteFile != nil {
		l, _ := e.SiteFile.Lines.Position(e.Site.Start)
		where += fmt.Sprintf(", at %s:%d", filepath.Base(e.SiteFile.Path), l+1)
	}
	return where + ")"
}

// unseenVia is unseenCall that also looks into the helpers called there,
// a few calls deep: a polling loop's `ready_poll(p, n)` whose helper calls
// `dcci_line(p)` from an #include that did not resolve hides the
// invalidation as a direct call would. memo keeps each helper's answer
// (its whole body, on cores) for the pass.
func unseenVia(pass *analysis.Pass, memo map[unseenKey]cxx.Hop, f *grammar.File, fn *grammar.Node, cores grammar.Cores, from, to uint32, before *grammar.Node) cxx.Hop {
	funcs := pass.Reach().FuncIndex()
	if n := unseenCall(pass, funcs, f, fn, cores, from, to, before); n != nil {
		return cxx.Hop{File: f, Call: n}
	}
	if len(pass.Closure().UnresolvedIncludes()) == 0 {
		return cxx.Hop{}
	}
	var inside func(d cxx.FuncDef, depth int) cxx.Hop
	inside = func(d cxx.FuncDef, depth int) cxx.Hop {
		k := unseenKey{d.Node, cores}
		if h, ok := memo[k]; ok {
			return h
		}
		memo[k] = cxx.Hop{} // a recursive call finds nothing more
		h := cxx.Hop{}
		if n := unseenCall(pass, funcs, d.File, d.Node, cores, d.Node.Start, d.Node.End, nil); n != nil {
			h = cxx.Hop{File: d.File, Call: n}
		} else if depth < 3 {
			h = calledUnseen(funcs, funcs.OwnCalls(d.Node), d.Node.Start, d.Node.End, nil, func(e cxx.FuncDef) cxx.Hop { return inside(e, depth+1) })
		}
		memo[k] = h
		return h
	}
	return calledUnseen(funcs, funcs.OwnCalls(fn), from, to, before, func(d cxx.FuncDef) cxx.Hop { return inside(d, 1) })
}

// unseenKey is a helper and the cores its body is read for.
type unseenKey struct {
	fn    *grammar.Node
	cores grammar.Cores
}

// calledUnseen returns the first answer of in for a definition called by
// calls in [from, to) (able to run before node before, when given).
func calledUnseen(funcs *cxx.Funcs, calls []*grammar.Node, from, to uint32, before *grammar.Node, in func(cxx.FuncDef) cxx.Hop) cxx.Hop {
	for _, n := range calls {
		if n.Start < from || n.Start >= to || before != nil && !cxx.Precedes(n, before) {
			continue
		}
		c, ok := cxx.AsCall(n)
		if !ok {
			continue
		}
		for _, d := range funcs.Callees(c) {
			if h := in(d); h.Call != nil {
				return h
			}
		}
	}
	return cxx.Hop{}
}

// storedBetween reports whether this core stores, by scalar, the very
// element read a loads between offset from and the read, on every path
// to the read: a store to the same address expression (`g(1) = x;` then
// `g(1)`, `p[i] = v;` then `p[i]`, `g.SetValue(i, v)` then
// `g.GetValue(i)`) in a block that holds the read, with no name of the
// address assigned and no label (a goto's target) between them. The
// store sits in this core's scalar cache (stores stay there until a
// `dcci` writes them out), so the read returns it whatever the DMA write
// before it did to the line; a store to another element of the line
// does not make this one current.
func storedBetween(fn *grammar.Node, from uint32, a *cxx.Access) bool {
	key, names := elementKey(a.Node)
	body := fn.ChildByField("body")
	if key == "" || body == nil || from >= a.Node.Start {
		return false
	}
	var store *grammar.Node
	body.Walk(func(n *grammar.Node) bool {
		if n.End <= from || n.Start >= a.Node.Start {
			return n.Start < a.Node.Start && n.End > from
		}
		if n.Start < from {
			return true
		}
		switch n.Kind() {
		case "assignment_expression":
			if l := n.ChildByField("left"); l != nil && n.End <= a.Node.Start {
				if k, _ := elementKey(l); k == key {
					store = n
				}
			}
		case "call_expression":
			if c, ok := cxx.AsCall(n); ok && c.Name == "SetValue" && c.Receiver != nil && len(c.Args) == 2 && n.End <= a.Node.Start &&
				blank(c.Receiver.Text())+"["+blank(c.Args[0].Text())+"]" == key {
				store = n
			}
		}
		return true
	})
	if store == nil {
		return false
	}
	// Every path to the read runs the store: its statement's block holds
	// the read, and nothing jumps in between.
	stmt := store
	for stmt.Parent() != nil && stmt.Parent().Kind() != "compound_statement" {
		stmt = stmt.Parent()
		if k := stmt.Kind(); k == "conditional_expression" || k == "binary_expression" && (strings.Contains(stmt.Text(), "&&") || strings.Contains(stmt.Text(), "||")) {
			return false
		}
	}
	if stmt.Kind() != "expression_statement" || stmt.Parent() == nil || !stmt.Parent().Contains(a.Node) {
		return false
	}
	changed := false
	body.Walk(func(n *grammar.Node) bool {
		if changed || n.End <= store.End || n.Start >= a.Node.Start {
			return !changed && n.Start < a.Node.Start && n.End > store.End
		}
		switch n.Kind() {
		case "labeled_statement":
			changed = true
		case "assignment_expression", "update_expression":
			target := n.ChildByField("left")
			if target == nil {
				target = n.ChildByField("argument")
			}
			if target != nil && names[cxx.Unparen(target).Text()] {
				changed = true
			}
		}
		return !changed
	})
	return !changed
}

// elementKey is the element an lvalue or GlobalTensor access names, its
// blanks removed (`g.GetValue(i)`, `g(i)` and `g[i]` alike as `g[i]`),
// with the names its address reads; "" for a form it does not know.
func elementKey(n *grammar.Node) (string, map[string]bool) {
	n = cxx.Unparen(n)
	if n == nil {
		return "", nil
	}
	key := ""
	switch n.Kind() {
	case "subscript_expression", "pointer_expression", "field_expression", "identifier":
		key = blank(n.Text())
	case "call_expression":
		c, ok := cxx.AsCall(n)
		switch {
		case !ok:
		case c.Name == "GetValue" && c.Receiver != nil && len(c.Args) == 1:
			key = blank(c.Receiver.Text()) + "[" + blank(c.Args[0].Text()) + "]"
		case c.Receiver == nil && len(c.Args) == 1 && len(c.TArgs) == 0:
			key = blank(c.Name) + "[" + blank(c.Args[0].Text()) + "]"
		}
	}
	if key == "" {
		return "", nil
	}
	names := map[string]bool{}
	n.Walk(func(m *grammar.Node) bool {
		if m.Kind() == "identifier" {
			names[m.Text()] = true
		}
		return true
	})
	return key, names
}

// blank is s without white space.
func blank(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// loopRestores reports whether a loop between the DMA write dma and read
// a stores by scalar every element the write copied, the read's among
// them: the write `DataCopyPad(g[C], ub, p)` (p a const
// DataCopyExtParams of one block, `{1, n * sizeof(T), …}`) or
// `DataCopy(g[C], ub, n)` covers g[C, C+n); the loop `for (j = C; j < B;
// ++j)`, in a block holding the read and with no jump out of a pass,
// stores `g(j)` (or `g[j]`, `g.SetValue(j, …)`) at the top of its body,
// and n is B - C, through const locals. The read is of g(C): when the
// write copied anything (n >= 1) the loop ran and its first pass stored
// that element, whose store the read then returns; when it copied
// nothing there is no copy to race.
func loopRestores(fn *grammar.Node, dma *grammar.Node, a *cxx.Access) bool {
	key, _ := elementKey(a.Node)
	call, ok := cxx.AsCall(dma)
	body := fn.ChildByField("body")
	if key == "" || !ok || body == nil || len(call.Args) != 3 || call.Name != "DataCopyPad" && call.Name != "DataCopy" {
		return false
	}
	dst := cxx.Unparen(call.Args[0])
	if dst == nil || dst.Kind() != "subscript_expression" {
		return false
	}
	g := blank(dst.ChildByField("argument").Text())
	start := ""
	if idx := dst.ChildByField("indices"); idx != nil {
		start = strings.Trim(blank(idx.Text()), "[]")
	} else if idx := dst.ChildByField("index"); idx != nil {
		start = blank(idx.Text())
	}
	if start == "" || key != g+"["+start+"]" {
		return false
	}
	count := ""
	if call.Name == "DataCopy" {
		count = blank(call.Args[2].Text())
	} else {
		p := cxx.Unparen(call.Args[2])
		if p == nil || p.Kind() != "identifier" {
			return false
		}
		init, typ := constDecl(fn, p.Text(), dma)
		if init == nil || init.Kind() != "initializer_list" || typ != "DataCopyExtParams" {
			return false
		}
		fields := init.NamedChildren()
		if len(fields) < 2 || blank(fields[0].Text()) != "1" {
			return false
		}
		elem := globalTensorElem(fn, g)
		n, size, ok := strings.Cut(blank(fields[1].Text()), "*")
		if !ok || elem == "" || !isSizeof(fn, size, elem) {
			return false
		}
		count = n
	}
	// n through const locals: `dNum = totalRowNum - 1`.
	for range 3 {
		if init, _ := constDecl(fn, count, dma); init != nil {
			count = blank(init.Text())
		}
	}
	found := false
	body.Walk(func(n *grammar.Node) bool {
		if found || n.End <= dma.End || n.Start >= a.Node.Start {
			return !found && n.Start < a.Node.Start && n.End > dma.End
		}
		if n.Kind() != "for_statement" || n.End > a.Node.Start || n.Parent() == nil || n.Parent().Kind() != "compound_statement" || !n.Parent().Contains(a.Node) {
			return true
		}
		found = loopStoresFrom(n, g, start, count)
		return false
	})
	return found
}

// loopStoresFrom reports whether for loop l is `for (j = C; j < B; ++j)`
// with B - C written as count, storing g(j) at the top of its body every
// pass.
func loopStoresFrom(l *grammar.Node, g, start, count string) bool {
	init, cond, step, body := l.ChildByField("initializer"), l.ChildByField("condition"), l.ChildByField("update"), l.ChildByField("body")
	if init == nil || cond == nil || step == nil || body == nil || body.Kind() != "compound_statement" {
		return false
	}
	j, c, ok := strings.Cut(strings.TrimSuffix(blank(init.Text()), ";"), "=")
	if k := strings.LastIndexAny(j, " \t"); k >= 0 {
		j = j[k+1:]
	}
	if !ok || c != start {
		return false
	}
	if init.Kind() == "declaration" {
		j = blank(init.ChildByField("declarator").ChildByField("declarator").Text())
	}
	bound, isLess := strings.CutPrefix(blank(cond.Text()), j+"<")
	if st := blank(step.Text()); !isLess || st != "++"+j && st != j+"++" || count != bound+"-"+start {
		return false
	}
	stored := false
	for _, s := range body.NamedChildren() {
		if s.Kind() == "expression_statement" && !stored {
			e := cxx.Unparen(s.NamedChildren()[0])
			if e != nil && e.Kind() == "assignment_expression" {
				if k, _ := elementKey(e.ChildByField("left")); k == g+"["+j+"]" && e.ChildByField("operator").Text() == "=" {
					stored = true
				}
			}
		}
	}
	jumps := false
	body.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "break_statement", "continue_statement", "return_statement", "goto_statement":
			jumps = true
		case "assignment_expression", "update_expression":
			t := n.ChildByField("left")
			if t == nil {
				t = n.ChildByField("argument")
			}
			jumps = jumps || t != nil && blank(t.Text()) == j
		}
		return !jumps
	})
	return stored && !jumps
}

// constDecl returns the initializer and type of the last const (or
// constexpr) local name declared before at in a block of fn holding at.
func constDecl(fn *grammar.Node, name string, at *grammar.Node) (*grammar.Node, string) {
	var init *grammar.Node
	typ := ""
	fn.Walk(func(n *grammar.Node) bool {
		if n.Start >= at.Start {
			return false
		}
		if n.Kind() != "init_declarator" || n.ChildByField("declarator") == nil || n.ChildByField("declarator").Text() != name {
			return true
		}
		d := n.Parent()
		if d == nil || d.Kind() != "declaration" || d.Parent() == nil || !d.Parent().Contains(at) {
			return true
		}
		isConst := false
		for _, k := range d.NamedChildren() {
			if k.Kind() == "type_qualifier" && (k.Text() == "const" || k.Text() == "constexpr") {
				isConst = true
			}
		}
		if isConst {
			init = n.ChildByField("value")
			if t := d.ChildByField("type"); t != nil {
				typ = blank(t.Text())
			}
		}
		return true
	})
	return init, typ
}

// globalTensorElem is the element type of GlobalTensor g, a parameter or
// local of fn (`GlobalTensor<float> &g`), "" when not known.
func globalTensorElem(fn *grammar.Node, g string) string {
	elem := ""
	for _, p := range cxx.Params(fn) {
		if p.Name == g {
			elem = p.TypeText
		}
	}
	t := blank(elem)
	t = strings.TrimPrefix(t, "AscendC::")
	if rest, ok := strings.CutPrefix(t, "GlobalTensor<"); ok {
		if e, ok := strings.CutSuffix(strings.TrimRight(rest, "&"), ">"); ok {
			return e
		}
	}
	return ""
}

// isSizeof reports whether text is `sizeof(elem)` or a constant of the
// file declared as that.
func isSizeof(fn *grammar.Node, text, elem string) bool {
	if text == "sizeof("+elem+")" {
		return true
	}
	root := fn
	for root.Parent() != nil {
		root = root.Parent()
	}
	ok := false
	root.Walk(func(n *grammar.Node) bool {
		if n.Kind() == "function_definition" {
			return false
		}
		if n.Kind() == "init_declarator" && n.ChildByField("declarator") != nil && n.ChildByField("declarator").Text() == text {
			if v := n.ChildByField("value"); v != nil && blank(v.Text()) == "sizeof("+elem+")" {
				ok = true
			}
		}
		return !ok
	})
	return ok
}

// invalidatesRootIn reports whether loop l calls a cache invalidation
// (`dcci`, `DataCacheCleanAndInvalid`, a project helper named like one)
// on the pointer or tensor named root: the loop refreshes the line a read
// through root polls, where the memory's origin is not known (a pointer a
// method handed back) and the effect index cannot match them.
func invalidatesRootIn(l *grammar.Node, root string) bool {
	if root == "" {
		return false
	}
	found := false
	l.Walk(func(n *grammar.Node) bool {
		if found || n.Kind() != "call_expression" {
			return !found
		}
		c, ok := cxx.AsCall(n)
		if !ok || !strings.Contains(strings.ToLower(c.Name), "dcci") && !strings.Contains(c.Name, "DataCacheCleanAndInvalid") {
			return true
		}
		for _, arg := range c.Args {
			if cxx.Root(cxx.Uncast(arg)) == root {
				found = true
			}
		}
		return !found
	})
	return found
}
