package cxx

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A ready flag another core or rank waits on must not become visible
// before the data it announces. A DMA (MTE3 from UB, FIX from L0C) runs
// asynchronously to the scalar unit that issued it, and two DMAs of one
// pipe overlap unless a barrier separates them (PipeBarrier: "instructions
// of one pipe with a dependency need this barrier"). So a flag word
// published by DMA right after a DMA write of the data can reach the
// waiter first. What orders them: PipeBarrier<PIPE_MTE3>/<PIPE_ALL>
// (pipe_barrier), a wait on an event whose source is the DMA's pipe
// (WaitFlag<MTE3_S>), a barrier: StoreDrain. A cross-core set issued on
// a DMA pipe leaves behind that pipe's work, and the pipe says what it
// announces (a set on PIPE_MTE2 after the output's copy frees the input
// buffer, not the output): it is not judged. One issued on the scalar
// pipe (`CrossCoreSetFlag<2, PIPE_S>`) leaves at once, ahead of every
// DMA in flight: it is a publish racing them.

// EarlyPublish is one flag published while a data DMA before it, in the
// same function, may still be in flight.
type EarlyPublish struct {
	File *grammar.File
	// At is the publish, or the call that reaches one before waiting.
	At *grammar.Node
	// Publish is the publishing operation itself (At, or inside a callee
	// in PublishFile).
	Publish     *grammar.Node
	PublishFile *grammar.File
	// DMA is the data write (or the call that leaves one in flight).
	DMA *grammar.Node
}

// pubState is what may be in flight at a point of a function: pipes with
// a DMA from before the function (entry) or from its own body (gen, its
// latest issue at genAt).
type pubState struct {
	entry, gen uint8
	genAt      *grammar.Node
	dead       bool
}

func (a pubState) join(b pubState) pubState {
	if a.dead {
		return b
	}
	if b.dead {
		return a
	}
	if a.genAt == nil {
		a.genAt = b.genAt
	}
	a.entry |= b.entry
	a.gen |= b.gen
	return a
}

// pubSummary is a function seen from its callers: the entry pipes a path
// may leave undrained (pass), the pipes it may leave a DMA in flight on
// (gen), and the early publishes inside it. A function whose first
// operation on GM or on a flag is, on every path, a publish (a `Record`
// helper: set the word, copy it out) publishes for its caller: pub (in
// pubFile) is that publish, conflict the pipes it races.
type pubSummary struct {
	pass, gen, conflict uint8
	pub                 *grammar.Node
	pubFile             *grammar.File
	found               []EarlyPublish
}

// PublishOrder finds early publishes; it memoizes per function.
type PublishOrder struct {
	s  *Summaries
	ff FileFacts
	// The run under way (under s.mu): its context, steps, and whether it
	// stopped short.
	ctx     context.Context
	steps   int
	aborted bool
	// polls memoizes, per file, its poll loops and the GM words each
	// copies in.
	polls map[*grammar.File]map[*grammar.Node][]string
	memo  map[*grammar.Node]*pubSummary
}

// NewPublishOrder returns the analysis over a unit's summaries (ff: the
// unit's file facts).
func NewPublishOrder(s *Summaries, ff FileFacts) *PublishOrder {
	return &PublishOrder{s: s, ff: factsOr(ff), memo: map[*grammar.Node]*pubSummary{}, polls: map[*grammar.File]map[*grammar.Node][]string{}}
}

// maxPollBytes bounds the loops read as polls (a poll is a few
// statements).
const maxPollBytes = 8 << 10

// pollLoops returns the poll loops of file f (see pollsDMA): the
// innermost loop around each of its DMA reads is tried, so a file is read
// about once however deep its loops nest. A file that has one polls a GM
// word: a flag protocol's set and wait are written side by side, so a
// word the scalar unit fills and copies out of a file that polls none is
// data.
func (p *PublishOrder) pollLoops(f *grammar.File) map[*grammar.Node][]string {
	if m, ok := p.polls[f]; ok {
		return m
	}
	m := pollLoopsIn(p.ff.Calls(f), p.spend)
	p.polls[f] = m
	return m
}

// pollLoopsIn is pollLoops of the file of calls, a step of spend taken
// per loop tried (stopping short when it says so).
func pollLoopsIn(calls *CallIndex, spend func() bool) map[*grammar.Node][]string {
	m := map[*grammar.Node][]string{}
	tried := map[*grammar.Node]bool{}
	for _, n := range calls.Named("DataCopy", "DataCopyPad") {
		loop := n.Ancestor("while_statement", "do_statement", "for_statement")
		// Reading a loop of pages for every copy inside it would cost its
		// size each.
		if loop == nil || tried[loop] || loop.End-loop.Start > maxPollBytes || spend() {
			continue
		}
		tried[loop] = true
		if words := polledWords(loop); len(words) > 0 {
			m[loop] = words
		}
	}
	return m
}

// PollsGM reports whether the file of calls has a poll loop (pollLoops).
// Every early publish is a flag copied out of a file that has one: a unit
// none of whose files does has none.
func PollsGM(calls *CallIndex) bool {
	return len(pollLoopsIn(calls, func() bool { return false })) > 0
}

// EarlyPublishes returns the early publishes inside function fn. A run
// cancelled or past the summaries' steps returns none, and keeps nothing
// it computed.
func (p *PublishOrder) EarlyPublishes(ctx context.Context, fn *grammar.Node) []EarlyPublish {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	p.ctx, p.aborted = ctx, false
	out := p.summary(fn, 0).found
	if p.aborted {
		clear(p.memo)
		clear(p.polls)
		return nil
	}
	return out
}

type pubWalk struct {
	p      *PublishOrder
	f      *grammar.File
	fn     *grammar.Node // the function walked
	sum    *pubSummary
	exit   pubState
	scalar map[string]bool // UB tensors the function sets by scalar
	polled map[string]bool // GM words the function polls or reads by DMA
	seen   map[*grammar.Node]bool
	depth  int
	// drained is the pipes some path walked so far waited for.
	drained uint8
}

// maxPublishDepth bounds the callees one summary follows inside each
// other (a deeper one is taken as doing nothing).
const maxPublishDepth = 48

// spend takes a step of the summaries' meter and looks at the context
// now and then.
func (p *PublishOrder) spend() bool {
	if p.aborted {
		return true
	}
	p.steps++
	if p.s.spend(1) || (p.steps%256 == 0 && p.ctx != nil && p.ctx.Err() != nil) {
		p.aborted = true
	}
	return p.aborted
}

func (p *PublishOrder) summary(fn *grammar.Node, depth int) *pubSummary {
	if s, ok := p.memo[fn]; ok {
		return s
	}
	if depth > maxPublishDepth || p.aborted {
		return &pubSummary{pass: StorePipes}
	}
	// A recursive call is taken as doing nothing.
	p.memo[fn] = &pubSummary{pass: StorePipes}
	f := p.s.FileOf(fn)
	body := fn.ChildByField("body")
	sum := &pubSummary{}
	if f == nil || body == nil {
		sum.pass = StorePipes
		p.memo[fn] = sum
		return sum
	}
	w := &pubWalk{p: p, f: f, fn: fn, sum: sum, exit: pubState{dead: true}, seen: map[*grammar.Node]bool{}, depth: depth}
	for _, n := range p.s.funcs.OwnCalls(fn) {
		c, ok := AsCall(n)
		if !ok {
			continue
		}
		if c.Name == "SetValue" && c.Receiver != nil && !strings.Contains(n.Text(), "GetValue") {
			if w.scalar == nil {
				w.scalar = map[string]bool{}
			}
			w.scalar[Root(c.Receiver)] = true
		}

	}
	// A word it reads and tests without a loop (a check its caller
	// comes back to) is one it waits on too.
	if read, srcs := readBack(body); len(srcs) > 0 {
		ds := body.Descendants()
		for i := range ds {
			if ds[i].Kind() == "if_statement" && namesAny(ds[i].ChildByField("condition"), read) {
				for _, g := range srcs {
					if w.polled == nil {
						w.polled = map[string]bool{}
					}
					w.polled[g] = true
				}
				break
			}
		}
	}
	for loop, words := range p.pollLoops(f) {
		if body.Contains(loop) {
			for _, g := range words {
				if w.polled == nil {
					w.polled = map[string]bool{}
				}
				w.polled[g] = true
			}
		}
	}
	end := w.stmt(body, pubState{entry: StorePipes})
	out := w.exit.join(end)
	if !out.dead {
		sum.pass, sum.gen = out.entry, out.gen
	}
	sum.pub, sum.pubFile, sum.conflict = w.leadingPublish(body)
	p.memo[fn] = sum
	return sum
}

// leadingPublish returns the publish of a flag helper: a function whose
// every operation on GM or on a flag is a publish (`Record(tag)`: set the
// word by scalar, copy it out), the first of them. Scalar work on UB
// (`flag.SetValue(0, v)`) and event handoffs between other pipes are no
// such operation.
func (w *pubWalk) leadingPublish(body *grammar.Node) (pub *grammar.Node, pf *grammar.File, conflict uint8) {
	for _, n := range ExprCalls(body) {
		if w.p.s.coresIn(w.f, n) == grammar.None {
			continue
		}
		p, f, c, acts := w.acts(n)
		if !acts {
			continue
		}
		if p == nil {
			return nil, nil, 0
		}
		if pub == nil {
			pub, pf, conflict = p, f, c
		}
	}
	return pub, pf, conflict
}

// acts reports whether call n does anything on GM or on a flag, and the
// publish it is when it is one.
func (w *pubWalk) acts(n *grammar.Node) (pub *grammar.Node, pf *grammar.File, conflict uint8, acts bool) {
	c, ok := AsCall(n)
	if !ok {
		return nil, nil, 0, false
	}
	c, _ = w.p.s.funcs.Forward(c)
	if fc, ok := AsFlagCall(n, w.p.s.res); ok {
		if fc.Kind == FlagSet && w.scalarSet(c, true) {
			return n, w.f, StorePipes, true
		}
		return nil, nil, 0, true
	}
	if d, k := StoreDrain(c, w.p.s.funcs); k != NotAWait {
		return nil, nil, 0, d != 0
	}
	if dmaWriters[c.Name] || dmaReaders[c.Name] {
		if w.flagCopy(c) {
			return n, w.f, StorePipes, true
		}
		return nil, nil, 0, true
	}
	if d, ok := w.callee(c); ok {
		sum := w.p.summary(d.Node, w.depth+1)
		if sum.pub != nil {
			return sum.pub, sum.pubFile, sum.conflict, true
		}
		return nil, nil, 0, sum.pass != StorePipes || sum.gen != 0 || w.p.s.effectsOf(d.Node).Len() > 0
	}
	return nil, nil, 0, false
}

// callee is the definition a call runs: the first taking its arguments,
// else the first with more parameters (default arguments are written on
// the declaration in the class, not on the definition outside it).
func (w *pubWalk) callee(c Call) (FuncDef, bool) {
	var more []FuncDef
	for _, d := range w.p.s.funcs.Callees(c) {
		if w.p.s.coresOf(d.Node) == grammar.None || d.Body() == nil {
			continue
		}
		if Takes(d.Node, len(c.Args)) {
			return d, true
		}
		if len(Params(d.Node)) > len(c.Args) {
			more = append(more, d)
		}
	}
	if len(more) > 0 {
		return more[0], true
	}
	return FuncDef{}, false
}

// gmDest reports whether a DMA writes GM: its destination is GM memory
// the unit knows and not a LocalTensor.
func (w *pubWalk) gmDest(c Call) bool {
	if c.Receiver != nil || len(c.Args) < 2 {
		return false
	}
	dst := c.Args[0]
	if ts := w.p.s.funcs.TypesOf(Root(dst)); len(ts) > 0 && !slices.ContainsFunc(ts, func(t string) bool { return !strings.Contains(t, "LocalTensor") }) {
		return false
	}
	o := w.p.s.originOf(dst)
	if !o.Known() {
		o = w.p.s.tensorViewOrigin(dst)
	}
	return o.Known()
}

// flagCopy reports a DMA to GM of a UB word the function set by scalar
// (not to a value read from UB: that moves data), of a size written as
// constants, in a file that polls GM words read by DMA. A run-time size
// (`{1, n * sizeof(int32_t), 0, 0, 0}`) copies a table of counts, data.
func (w *pubWalk) flagCopy(c Call) bool {
	return dmaWriters[c.Name] && len(w.p.pollLoops(w.f)) > 0 && len(c.Args) > 2 && w.gmDest(c) && w.scalar[Root(c.Args[1])] && w.constSize(c.Args[2])
}

// constSize reports a DMA size written as constants: `8`, `kPad`, or a
// parameter struct initialised with them (`DataCopyParams p{1, sizeof(int32_t), 0, 0}`).
func (w *pubWalk) constSize(a *grammar.Node) bool {
	a = Unparen(a)
	if a.Kind() == "identifier" {
		if d := w.p.s.lookup(a); d != nil && d.Kind() == "init_declarator" {
			for _, ch := range d.NamedChildren() {
				if ch.Kind() == "initializer_list" || ch.Kind() == "argument_list" {
					return w.constant(ch)
				}
			}
			if v := d.ChildByField("value"); v != nil {
				return w.constant(v)
			}
		}
	}
	return w.constant(a)
}

func (w *pubWalk) constant(e *grammar.Node) bool {
	e = Unparen(e)
	switch e.Kind() {
	case "sizeof_expression", "number_literal":
		return true
	case "binary_expression":
		return w.constant(e.ChildByField("left")) && w.constant(e.ChildByField("right"))
	case "initializer_list", "argument_list":
		return !slices.ContainsFunc(e.NamedChildren(), func(x *grammar.Node) bool { return !w.constant(x) })
	}
	_, ok := evalOne(w.p.s.res, e)
	return ok
}

func (w *pubWalk) stmt(n *grammar.Node, st pubState) pubState {
	if n == nil || st.dead || w.p.spend() || w.p.s.coresIn(w.f, n) == grammar.None {
		return st
	}
	switch n.Kind() {
	case "comment", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include",
		"function_definition", "class_specifier", "struct_specifier", "lambda_expression",
		"break_statement", "continue_statement":
		return st
	case "compound_statement", "else_clause", "labeled_statement", "try_statement", "catch_clause", "preproc_else":
		return w.seq(n.NamedChildren(), st)
	case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef":
		body, alt := preprocParts(n)
		o := w.seq(body, st)
		if alt == nil {
			return o.join(st)
		}
		return o.join(w.stmt(alt, st))
	case "if_statement":
		s := w.expr(n.ChildByField("condition"), st)
		o := w.stmt(n.ChildByField("consequence"), s)
		if alt := n.ChildByField("alternative"); alt != nil {
			return o.join(w.stmt(alt, s))
		}
		return o.join(s)
	case "for_statement", "while_statement", "for_range_loop", "do_statement":
		outer := w.drained
		w.drained = 0
		out := w.loop(n, st)
		w.drained |= outer
		return out
	case "switch_statement":
		s := w.expr(n.ChildByField("condition"), st)
		out := s
		if body := n.ChildByField("body"); body != nil {
			for _, c := range body.NamedChildren() {
				var stmts []*grammar.Node
				for _, x := range c.NamedChildren() {
					if x != c.ChildByField("value") {
						stmts = append(stmts, x)
					}
				}
				out = out.join(w.seq(stmts, s))
			}
		}
		return out
	case "return_statement":
		w.exit = w.exit.join(w.expr(n, st))
		return pubState{dead: true}
	}
	return w.expr(n, st)
}

// loop walks a loop body once: a copy one iteration leaves in flight is
// not followed into the next iteration's publish (a per-item status
// published at the top of each iteration announces the item, not the last
// item's output).
func (w *pubWalk) loop(n *grammar.Node, st pubState) pubState {
	s := w.expr(n.ChildByField("initializer"), st)
	s = w.expr(n.ChildByField("right"), s)
	out := w.stmt(n.ChildByField("body"), w.expr(n.ChildByField("condition"), s))
	out = w.expr(n.ChildByField("update"), out)
	if n.Kind() != "do_statement" {
		out = out.join(s)
	}
	if _, ok := w.p.pollLoops(w.f)[n]; ok {
		// A wait on a flag word: see the flag wait in call.
		return pubState{}
	}
	// A loop that waits for a pipe on some path is taken to have waited
	// before it is left (`if (done) { SyncFunc<MTE3_S>(); Record(...); }`
	// on its last round): which round is last is the run's to know.
	out.entry &^= w.drained
	out.gen &^= w.drained
	return out
}

func (w *pubWalk) seq(nodes []*grammar.Node, st pubState) pubState {
	for _, n := range nodes {
		st = w.stmt(n, st)
	}
	return st
}

func (w *pubWalk) expr(n *grammar.Node, st pubState) pubState {
	for _, c := range ExprCalls(n) {
		if st.dead {
			break
		}
		st = w.call(c, st)
	}
	return st
}

// call applies one call to the state.
func (w *pubWalk) call(n *grammar.Node, st pubState) pubState {
	c, ok := AsCall(n)
	if !ok || w.p.s.coresIn(w.f, n) == grammar.None {
		return st
	}
	c, _ = w.p.s.funcs.Forward(c)
	if fc, ok := AsFlagCall(n, w.p.s.res); ok {
		if fc.Kind == FlagWait {
			// What was in flight before a wait on another core is not
			// what a publish after it announces.
			return pubState{}
		}
		if fc.Kind == FlagSet && w.scalarSet(c, false) {
			return w.publish(n, n, w.f, StorePipes, st)
		}
		return st
	}
	if drained, k := StoreDrain(c, w.p.s.funcs); k != NotAWait {
		w.drained |= drained
		st.entry &^= drained
		st.gen &^= drained
		return st
	}
	if dmaWriters[c.Name] && w.gmDest(c) {
		if w.flagCopy(c) {
			return w.publish(n, n, w.f, StorePipes, st)
		}
		if w.polled[Root(c.Args[0])] {
			// Resetting (updating) the word it waited on or read: no data
			// another core waits for.
			return st
		}
		st.gen |= dmaPipeOf(c.Name)
		st.genAt = n
		return st
	}
	if d, ok := w.callee(c); ok {
		sum := w.p.summary(d.Node, w.depth+1)
		if sum.pub != nil && w.publishesHere(sum.pub, d.Node, c) {
			st = w.publish(n, sum.pub, sum.pubFile, sum.conflict, st)
		}
		w.drained |= StorePipes &^ sum.pass
		st.entry &= sum.pass
		st.gen &= sum.pass
		if sum.gen != 0 {
			st.gen |= sum.gen
			st.genAt = n
		}
		return st
	}
	return st
}

// publish notes a publish at n (its operation pub in pf) that a DMA of
// the function still in flight on a pipe of conflict races; the publish
// is the one reported for that DMA.
func (w *pubWalk) publish(n, pub *grammar.Node, pf *grammar.File, conflict uint8, st pubState) pubState {
	if st.gen&conflict == 0 || st.genAt == nil {
		return st
	}
	if !w.seen[n] {
		w.seen[n] = true
		w.sum.found = append(w.sum.found, EarlyPublish{File: w.f, At: n, Publish: pub, PublishFile: pf, DMA: st.genAt})
	}
	st.gen &^= conflict
	return st
}

// ReadsAfterWait reports what the core waiting at wait (a cross-core
// wait, or the call of a helper making one) does first with DMA after it,
// in its function or a helper it calls there: read GM (`DataCopy(l1,
// ring[slot], ...)`: the flag announced data) or write it (the flag freed
// a buffer to fill). known is false when no such DMA comes before another
// flag call.
func (p *PublishOrder) ReadsAfterWait(wait *grammar.Node) (reads, known bool) {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	fn := EnclosingFunction(wait)
	if fn == nil {
		return false, false
	}
	switch p.firstDMA(fn, wait.End, 0) {
	case dmaFirstRead:
		return true, true
	case dmaFirstWrite:
		return false, true
	}
	return false, false
}

// What firstDMA finds first.
const (
	dmaNone = iota
	dmaFirstRead
	dmaFirstWrite
	dmaStop // a flag call, or a DMA whose memory is unknown
)

// firstDMA finds the first DMA fn makes from offset from on (see
// ReadsAfterWait), following the calls it makes down to two levels.
func (p *PublishOrder) firstDMA(fn *grammar.Node, from uint32, depth int) int {
	w := &pubWalk{p: p}
	calls := p.s.funcs.OwnCalls(fn)
	for _, n := range calls[sort.Search(len(calls), func(i int) bool { return calls[i].Start >= from }):] {
		if p.spend() {
			return dmaStop
		}
		c, ok := AsCall(n)
		if !ok {
			continue
		}
		if _, flag := AsFlagCall(n, p.s.res); flag {
			return dmaStop
		}
		if (dmaReaders[c.Name] || dmaWriters[c.Name]) && c.Receiver == nil && len(c.Args) >= 2 {
			if w.gmDest(c) {
				return dmaFirstWrite
			}
			o := p.s.originOf(c.Args[1])
			if !o.Known() {
				o = p.s.tensorViewOrigin(c.Args[1])
			}
			if o.Known() {
				return dmaFirstRead
			}
			return dmaStop
		}
		if d, ok := w.callee(c); ok && depth < 2 {
			if r := p.firstDMA(d.Node, d.Node.Start, depth+1); r != dmaNone {
				return r
			}
		}
	}
	return dmaNone
}

// scalarSet reports whether cross-core set c is issued on the scalar
// pipe (`CrossCoreSetFlag<2, PIPE_S>(id)`); with param, also when its
// pipe is a template parameter of the function walked, which each call
// of that function decides (publishesHere).
func (w *pubWalk) scalarSet(c Call, param bool) bool {
	pipe := SetPipe(c)
	if pipe == nil {
		return false
	}
	if scalarPipe(pipe) {
		return true
	}
	if !param || w.fn == nil || !isName(pipe.Text()) {
		return false
	}
	pos, _ := TemplateParam(w.fn, pipe.Text())
	return pos >= 0
}

// isName reports whether t is a bare identifier (a template argument
// naming a parameter parses as a type).
func isName(t string) bool {
	if t == "" || t[0] >= '0' && t[0] <= '9' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isIdentByte(t[i]) {
			return false
		}
	}
	return true
}

// publishesHere reports whether a call c of fn, whose leading publish is
// pub, publishes: a cross-core set whose pipe is fn's template parameter
// publishes where the call leaves it on the scalar pipe (`Post(id)` of
// `template <pipe_t P = PIPE_S> void Post(uint16_t id)`), not where it
// names a DMA pipe (`Post<PIPE_MTE3>(id)`).
func (w *pubWalk) publishesHere(pub, fn *grammar.Node, c Call) bool {
	pc, ok := AsCall(pub)
	if !ok {
		return true
	}
	pipe := SetPipe(pc)
	if pipe == nil || !isName(pipe.Text()) || EnclosingFunction(pub) != fn {
		return true
	}
	pos, def := TemplateParam(fn, pipe.Text())
	if pos < 0 {
		return true
	}
	if pos < len(c.TArgs) {
		return scalarPipe(c.TArgs[pos])
	}
	return def != nil && scalarPipe(def)
}

// SetPipe is the pipe expression a cross-core set is issued on
// (`CrossCoreSetFlag<mode, pipe>`, `NotifyEvent<pipe>`,
// `ffts_cross_core_sync(pipe, cfg)`), nil for another call.
func SetPipe(c Call) *grammar.Node {
	if c.Receiver != nil {
		return nil
	}
	switch c.Name {
	case "CrossCoreSetFlag":
		if len(c.TArgs) > 1 {
			return c.TArgs[1]
		}
	case "NotifyEvent":
		if len(c.TArgs) > 0 {
			return c.TArgs[0]
		}
	case "ffts_cross_core_sync":
		if len(c.Args) == 2 {
			return c.Args[0]
		}
	}
	return nil
}

// scalarPipe reports whether pipe names the scalar pipe.
func scalarPipe(pipe *grammar.Node) bool {
	t := strings.TrimSpace(pipe.Text())
	return t == "PIPE_S" || t == "pipe_t::PIPE_S"
}

// dmaPipeOf is the pipe a GM-writing DMA call runs on.
func dmaPipeOf(name string) uint8 {
	switch name {
	case "Fixpipe", "copy_matrix_cc_to_gm":
		return PipeFIX
	}
	return PipeMTE3
}

// polledWords returns the GM tensors a loop copies in when it waits on a
// GM word by DMA:
// one that leaves only on a value read back from it (`while (true) {
// DataCopy(ub, flagGm, 8); ...; if (ub.GetValue(0) == v) break; }`, or
// its test reads it), not a counted search over copied chunks.
func polledWords(loop *grammar.Node) []string {
	body := loop.ChildByField("body")
	if body == nil {
		return nil
	}
	read, srcs := readBack(body)
	if len(srcs) == 0 {
		return nil
	}
	mentions := func(e *grammar.Node) bool { return namesAny(e, read) }
	ds := body.Descendants()
	if mentions(loop.ChildByField("condition")) {
		return srcs
	}
	if !infinite(loop) {
		return nil
	}
	for i := range ds {
		n := &ds[i]
		if n.Kind() != "if_statement" || !mentions(n.ChildByField("condition")) {
			continue
		}
		cons := n.ChildByField("consequence")
		if cons == nil {
			continue
		}
		cd := cons.Descendants()
		for j := range cd {
			if cd[j].Kind() == "break_statement" || cd[j].Kind() == "return_statement" {
				return srcs
			}
		}
	}
	return nil
}

// readBack returns the GM tensors scope copies into UB by DMA (srcs) and
// the names holding what it read back (read): the UB tensors, the locals
// assigned from them (`v = ub.GetValue(0)`, `v = ub(0)`) and the
// destinations of operations on them (`Sum(total, ub, p)`).
func readBack(scope *grammar.Node) (read map[string]bool, srcs []string) {
	read = map[string]bool{}
	for _, n := range ExprCalls(scope) {
		if c, ok := AsCall(n); ok && dmaReaders[c.Name] && c.Receiver == nil && len(c.Args) > 1 {
			read[Root(c.Args[0])] = true
			srcs = append(srcs, Root(c.Args[1]))
		}
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	ds := scope.Descendants()
	for i := range ds {
		n := &ds[i]
		switch n.Kind() {
		case "assignment_expression":
			if l := n.ChildByField("left"); l != nil && l.Kind() == "identifier" && namesAny(n.ChildByField("right"), read) {
				read[l.Text()] = true
			}
		case "init_declarator":
			if l := n.ChildByField("declarator"); l != nil && l.Kind() == "identifier" && namesAny(n.ChildByField("value"), read) {
				read[l.Text()] = true
			}
		case "call_expression":
			if c, ok := AsCall(n); ok && c.Receiver == nil && len(c.Args) > 1 && !dmaWriters[c.Name] &&
				slices.ContainsFunc(c.Args[1:], func(a *grammar.Node) bool { return namesAny(a, read) }) {
				read[Root(c.Args[0])] = true
			}
		}
	}
	return read, srcs
}
