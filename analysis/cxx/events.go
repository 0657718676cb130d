package cxx

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Intra-core events: `SetFlag<HardEvent::MTE2_V>(id)` / `WaitFlag<...>(id)`
// and the raw `set_flag(PIPE_MTE2, PIPE_V, id)` / `wait_flag(...)`. A set
// must be consumed by a wait of the same pipe pair and id before the next
// set of that event and before the task returns; a wait needs a set before
// it. This file decodes the calls, summarises each function as a transfer
// function over the pending state of every event, and follows an entry
// through its helpers, reporting only what holds on every path that reaches
// a point.

// EventOp is one decoded set or wait.
type EventOp struct {
	Node *grammar.Node // the call_expression
	Set  bool
	// Pair is the pipe pair as the HardEvent spells it ("MTE2_V"); empty
	// when it is not written as a constant (a template parameter).
	Pair string
	// IDs are the possible event ids; empty when unknown.
	IDs    []int64
	IDNode *grammar.Node
}

// eventIDOf reads `EVENT_IDn`, maybe qualified (`AscendC::EVENT_ID3`):
// what the regexp ^(?:[A-Za-z_]\w*::)*EVENT_ID(\d+)$ matches, read by hand
// as every event call of a unit's files is read.
func eventIDOf(s string) (int64, bool) {
	for {
		i := 0
		for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
			i++
		}
		if i == 0 || !strings.HasPrefix(s[i:], "::") {
			break
		}
		s = s[i+2:]
	}
	d, ok := strings.CutPrefix(s, "EVENT_ID")
	if !ok || d == "" {
		return 0, false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	v, _ := strconv.ParseInt(d, 10, 64)
	return v, true
}

// eventBindings are the event_t enumerators, defined by the toolchain's
// headers rather than the workspace.
var eventBindings = func() map[string][]int64 {
	m := map[string][]int64{}
	for i := int64(0); i < 8; i++ {
		m["EVENT_ID"+strconv.FormatInt(i, 10)] = []int64{i}
	}
	return m
}()

// AsEventOp decodes an intra-core event call; ok is false for other nodes.
func AsEventOp(n *grammar.Node, r *Resolver) (EventOp, bool) {
	op, ok := decodeEventOp(n)
	if ok {
		op.IDs = eventIDs(r, op.IDNode)
	}
	return op, ok
}

// decodeEventOp is AsEventOp without the ids.
func decodeEventOp(n *grammar.Node) (EventOp, bool) {
	return decodeEventOpText(n, (*grammar.Node).Text)
}

// decodeEventOpText decodes an event call whose pipe pair is read from the
// texts text gives (a macro body's, its parameters replaced by a use's
// arguments).
func decodeEventOpText(n *grammar.Node, text func(*grammar.Node) string) (EventOp, bool) {
	c, ok := AsCall(n)
	if !ok {
		return EventOp{}, false
	}
	return decodeEventCall(c, text)
}

// decodeEventCall decodes an event call taken apart (a forwarded one's
// callee and arguments are the expansion's: Funcs.Forward).
func decodeEventCall(c Call, text func(*grammar.Node) string) (EventOp, bool) {
	if c.Receiver != nil {
		return EventOp{}, false
	}
	op := EventOp{Node: c.Node}
	switch c.Name {
	case "SetFlag", "WaitFlag":
		if !c.InNamespace("AscendC") || len(c.TArgs) != 1 || len(c.Args) != 1 {
			return EventOp{}, false
		}
		op.Set = c.Name == "SetFlag"
		t := strings.Join(strings.Fields(text(c.TArgs[0])), "")
		if i := strings.LastIndex(t, "HardEvent::"); i >= 0 && isPairName(t[i+len("HardEvent::"):]) {
			op.Pair = t[i+len("HardEvent::"):]
		}
		op.IDNode = c.Args[0]
	case "set_flag", "wait_flag":
		if !c.InNamespace() || len(c.Args) != 3 {
			return EventOp{}, false
		}
		op.Set = c.Name == "set_flag"
		a, b := pipeName(text(c.Args[0])), pipeName(text(c.Args[1]))
		if a != "" && b != "" {
			op.Pair = a + "_" + b
		}
		op.IDNode = c.Args[2]
	default:
		return EventOp{}, false
	}
	return op, true
}

func isPairName(s string) bool {
	if s == "" || !strings.Contains(s, "_") {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// pipeName is "MTE2" for `PIPE_MTE2` (or `pipe_t::PIPE_MTE2`).
func pipeName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if !strings.HasPrefix(s, "PIPE_") || !isPairName(s) {
		return ""
	}
	return s[len("PIPE_"):]
}

func eventIDs(r *Resolver, n *grammar.Node) []int64 {
	if ids, ok := literalEventIDs(n); ok {
		return ids
	}
	n = Unparen(n)
	if r == nil {
		r = NewResolver()
	}
	return r.Bind(eventBindings).EvalAll(n)
}

// literalEventIDs are the ids of an id written as a constant the
// toolchain defines (`EVENT_ID3`): known without a resolver.
func literalEventIDs(n *grammar.Node) ([]int64, bool) {
	n = Unparen(n)
	if n == nil {
		return nil, true
	}
	if v, ok := eventIDOf(strings.TrimSpace(n.Text())); ok {
		return []int64{v}, true
	}
	return nil, false
}

// EventKey is one event: a pipe pair and an id.
type EventKey struct {
	Pair string
	ID   int64
}

func (k EventKey) String() string { return k.Pair + " id " + strconv.FormatInt(k.ID, 10) }

// EventProblem says what is wrong with an event.
type EventProblem int

const (
	// EventLeaked: a set still pending when the entry returns.
	EventLeaked EventProblem = iota + 1
	// EventSetAgain: a set while an earlier set of the event is pending.
	EventSetAgain
	// EventWaitUnset: a wait with no set before it.
	EventWaitUnset
)

// EventFinding is one unpaired event on one core, true on every path that
// reaches the reported point.
type EventFinding struct {
	Problem EventProblem
	Key     EventKey
	Core    grammar.Cores
	// Site is the node in the entry's body the problem is reported on: the
	// set or wait itself, or the call of the helper that performs it.
	Site *grammar.Node
	// Op is the set or wait (in OpFile), Site when the entry performs it.
	Op     *grammar.Node
	OpFile *grammar.File
	// Exits are the entry's return statements (or its body, for falling
	// off the end) that leave the set pending (EventLeaked).
	Exits []*grammar.Node
	// Prev is the pending set a set repeats (EventSetAgain), in PrevFile;
	// PrevSite is the node of the entry's body that leads to it.
	Prev     *grammar.Node
	PrevFile *grammar.File
	PrevSite *grammar.Node
}

// UnpairedEvents follows each entry (function definitions of files[0]) on
// each core of cores, through the functions of files it calls, and returns
// the events that are unpaired on every path reaching the reported point.
// Events also touched by code no entry reaches (a constructor, an object's
// operator() the calls do not resolve to, a lambda) are not judged, nor
// events whose ids are not constant. Pure: its result depends only on the
// files and arguments. funcs is FuncsOf(ff, files...) when the caller has
// it (nil: built here).
func UnpairedEvents(ctx context.Context, ff FileFacts, files []*grammar.File, funcs *Funcs, r *Resolver, entries []*grammar.Node, cores grammar.Cores) []EventFinding {
	if len(files) == 0 || len(entries) == 0 {
		return nil
	}
	ff = factsOr(ff)
	var out []EventFinding
	sh := &eventFiles{funcs: funcs}
	for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
		if cores&core == 0 {
			continue
		}
		a := newEventAnalysis(ctx, ff, files, r, core, sh)
		if a == nil {
			continue
		}
		for _, fn := range entries {
			if files[0].CoresOf(fn)&core == 0 {
				continue
			}
			a.runEntry(files[0], fn)
		}
		if a.aborted {
			continue
		}
		tainted := a.tainted()
		for _, f := range a.findings {
			if !tainted[f.Key.Pair] && !tainted[""] {
				out = append(out, f)
			}
		}
	}
	return mergeCores(out)
}

// mergeCores folds the same finding on both cores into one.
func mergeCores(in []EventFinding) []EventFinding {
	type k struct {
		p    EventProblem
		key  EventKey
		site *grammar.Node
		op   *grammar.Node
	}
	idx := map[k]int{}
	var out []EventFinding
	for _, f := range in {
		key := k{f.Problem, f.Key, f.Site, f.Op}
		if i, ok := idx[key]; ok {
			out[i].Core |= f.Core
			continue
		}
		idx[key] = len(out)
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Site.Start < out[j].Site.Start })
	return out
}

// State bits of one event: no set pending, a set pending.
const (
	evClean   uint8 = 1
	evPending uint8 = 2
)

// tf is a transfer function: for event k, tf[2k] is the state set after
// the code from a clean start and tf[2k+1] from a pending start. nil is
// "does not complete" (no path).
type tf []uint8

// outcome is the effect of a statement: falling through, returning,
// breaking out, continuing a loop.
type outcome struct {
	n, ret, brk, cont tf
}

type eventAnalysis struct {
	ctx      context.Context
	ff       FileFacts
	files    []*grammar.File
	r        *Resolver
	funcs    *Funcs
	core     grammar.Cores
	keys     map[EventKey]int
	list     []EventKey
	ops      map[*grammar.Node]*EventOp // decoded ops; nil entry: not an op
	stmts    map[*grammar.Node]*outcome
	ident    tf // id's (never changed)
	sums     map[*grammar.Node]tf
	busy     map[*grammar.Node]bool
	visited  map[*grammar.Node]bool // ops the walks reached
	walked   map[walkKey]bool       // (callee, state) pairs walked
	walkBusy map[*grammar.Node]bool
	objects  map[string]bool // objects constructed with arguments in bodies
	// expanded are the uses of straight-line event macros: each stands
	// for the body's sets and waits, the parameters bound.
	expanded map[*grammar.Node]macroOps
	budget   int
	aborted  bool
	findings []EventFinding
	seen     map[[3]any]bool
	// walk state
	last map[int]origin // the last set of each event the walk passed
	// acts are the bodies the walk is in, in this attempt of settleWalk,
	// outermost first; replaying is set while the outermost one, unwound
	// before, is walked again up to the call it was in (cursor is where
	// in its log), and childOut is what that call's callee left.
	acts      []*walkAct
	replaying bool
	cursor    int
	childOut  []uint8
	// sumDepth counts the summaries being computed inside each other in
	// this attempt of settleSummary, sumPath lists them.
	sumDepth int
	sumPath  []FuncDef
}

type origin struct {
	site, op *grammar.Node
	file     *grammar.File
}

// evBudget bounds the statements the walks visit through helpers (each
// context once); past it the analysis gives up rather than guess.
const evBudget = 200000

// eventFiles is what the analyses of the cores share about the files: the
// decoded event ops, and (built on first need) the function index and the
// objects the bodies construct.
type eventFiles struct {
	ops     map[*grammar.Node]*EventOp
	funcs   *Funcs
	objects map[string]bool
	// bodies are the macro shadows' bodies making event calls.
	bodies MacroBodies
}

func newEventAnalysis(ctx context.Context, ff FileFacts, files []*grammar.File, r *Resolver, core grammar.Cores, sh *eventFiles) *eventAnalysis {
	if sh.ops == nil {
		n := 0
		for _, f := range files {
			n += len(ff.Calls(f).eventOps())
		}
		sh.ops = make(map[*grammar.Node]*EventOp, n)
		for _, f := range files {
			for _, fo := range ff.Calls(f).eventOps() {
				op := &EventOp{}
				*op = fo.op
				if !fo.literal {
					op.IDs = eventIDs(r, op.IDNode)
				}
				sh.ops[op.Node] = op
			}
		}
	}
	a := &eventAnalysis{ctx: ctx, ff: ff, files: files, r: r, core: core, keys: map[EventKey]int{},
		ops: sh.ops, stmts: map[*grammar.Node]*outcome{}, sums: map[*grammar.Node]tf{},
		busy: map[*grammar.Node]bool{}, visited: map[*grammar.Node]bool{}, walked: map[walkKey]bool{}, walkBusy: map[*grammar.Node]bool{},
		budget: evBudget, seen: map[[3]any]bool{}, last: map[int]origin{}}
	addKeys := func(op *EventOp) {
		if op.Pair == "" {
			return
		}
		for _, id := range op.IDs {
			k := EventKey{op.Pair, id}
			if _, ok := a.keys[k]; !ok {
				a.keys[k] = len(a.list)
				a.list = append(a.list, k)
			}
		}
	}
	for _, f := range files {
		// The decoded ops are the calls of eventOpNames an op is made of.
		for _, fo := range ff.Calls(f).eventOps() {
			if op := a.op(fo.op.Node); op != nil && fo.cores&core != 0 {
				addKeys(op)
			}
		}
	}
	var shadows []*grammar.File
	for _, f := range files {
		if f.MacroOf != nil {
			shadows = append(shadows, f)
		}
	}
	a.expanded = map[*grammar.Node]macroOps{}
	if len(shadows) > 0 && sh.bodies == nil {
		sh.bodies = FindMacroBodies(ff, shadows, eventOpNames...)
	}
	if len(sh.bodies) > 0 {
		for _, f := range files {
			if f.MacroOf != nil {
				continue
			}
			for _, u := range sh.bodies.UsesIn(ff, f) {
				if ops, ok := expandEventMacro(u, r); ok {
					a.expanded[u.Node] = macroOps{ops: ops, inner: u.Inner}
					if f.CoresOf(u.Node)&core != 0 {
						for _, op := range ops {
							addKeys(op)
						}
					}
				}
			}
		}
	}
	// A forwarding macro's use (`INTRINSIC(set_flag, PIPE_MTE2, PIPE_V,
	// EVENT_ID0)`) is the set or wait it expands to.
	if fw, ok := ff.(ForwardedCalls); ok {
		for _, f := range files {
			if f.MacroOf != nil {
				continue
			}
			for _, c := range fw.ForwardedUses(f, eventOpNames...) {
				op, ok := decodeEventCall(c, (*grammar.Node).Text)
				if !ok {
					continue
				}
				op.IDs = eventIDs(r, op.IDNode)
				a.expanded[c.Node] = macroOps{ops: []*EventOp{&op}}
				if f.CoresOf(c.Node)&core != 0 {
					addKeys(&op)
				}
			}
		}
	}
	if len(a.list) == 0 {
		return nil
	}
	if sh.funcs == nil {
		sh.funcs = FuncsOf(ff, files...)
	}
	if sh.objects == nil {
		sh.objects = map[string]bool{}
		for _, f := range files {
			for _, name := range ff.Funcs(f).objects {
				sh.objects[name] = true
			}
		}
	}
	a.funcs, a.objects = sh.funcs, sh.objects
	return a
}

// macroOps are the sets and waits a use of a straight-line event macro
// makes, in order (the use stands for each), and the calls of the body.
type macroOps struct {
	ops   []*EventOp
	inner []*grammar.Node
}

// expandEventMacro decodes the event calls of a macro's body at a use,
// the parameters bound to the use's arguments: `SET_EV(MTE2_V, EVENT_ID1)`
// of `#define SET_EV(evt, id) AscendC::SetFlag<AscendC::HardEvent::evt>(id)`.
// Only a body of statements in sequence whose every call is an event call
// (or inside one) is expanded; others are followed as functions.
func expandEventMacro(u MacroUse, r *Resolver) ([]*EventOp, bool) {
	body := u.Def.Body()
	if body == nil {
		return nil, false
	}
	straight := true
	body.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "compound_statement", "expression_statement", "parenthesized_expression":
		case "do_statement":
			straight = straight && onceLoop(n)
		case "call_expression":
			if _, ok := decodeEventOp(n); !ok {
				straight = false
			}
			return false
		default:
			if strings.HasSuffix(n.Kind(), "_statement") || n.Kind() == "lambda_expression" {
				straight = false
			}
		}
		return straight
	})
	if !straight {
		return nil, false
	}
	params := Params(u.Def.Node)
	vals := map[string][]int64{}
	args := map[string]*grammar.Node{}
	for i, p := range params {
		if p.Name == "" {
			continue
		}
		if i < len(u.Args) {
			vals[p.Name], args[p.Name] = eventIDs(r, u.Args[i]), u.Args[i]
		} else {
			vals[p.Name] = nil
		}
	}
	br := r.Bind(vals)
	text := func(n *grammar.Node) string { return substituted(n, args) }
	var out []*EventOp
	for _, in := range u.Inner {
		op, ok := decodeEventOpText(in, text)
		if !ok {
			return nil, false
		}
		op.Node = u.Node
		if a := u.ArgFor(op.IDNode); a != nil {
			op.IDs, op.IDNode = vals[Unparen(op.IDNode).Text()], a
		} else if unbound(op.IDNode, vals) {
			op.IDs = nil
		} else {
			op.IDs = eventIDs(br, op.IDNode)
		}
		out = append(out, &op)
	}
	return out, len(out) > 0
}

// substituted is n's text with the names args binds replaced by their
// arguments' texts.
func substituted(n *grammar.Node, args map[string]*grammar.Node) string {
	if len(args) == 0 {
		return n.Text()
	}
	var b strings.Builder
	at := n.Start
	src := n.Text()
	n.Walk(func(d *grammar.Node) bool {
		if d.FirstChild() != nil {
			return true
		}
		if a, ok := args[d.Text()]; ok && d.Start >= at {
			b.WriteString(src[at-n.Start : d.Start-n.Start])
			b.WriteString(a.Text())
			at = d.End
		}
		return false
	})
	b.WriteString(src[at-n.Start:])
	return b.String()
}

// eventOpNames are the calls AsEventOp decodes.
var eventOpNames = []string{"SetFlag", "WaitFlag", "set_flag", "wait_flag"}

// op is n decoded as an event op, nil for any other node: the ops of
// every file were decoded up front.
func (a *eventAnalysis) op(n *grammar.Node) *EventOp { return a.ops[n] }

// --- transfer functions ---

func (a *eventAnalysis) id() tf {
	if a.ident == nil {
		a.ident = a.newID()
	}
	return a.ident
}

// newID is a new identity, to be changed (transfer functions are not
// changed once made: id is one shared identity).
func (a *eventAnalysis) newID() tf {
	t := make(tf, 2*len(a.list))
	for i := range a.list {
		t[2*i], t[2*i+1] = evClean, evPending
	}
	return t
}

// then is t followed by u.
func then(t, u tf) tf {
	if t == nil || u == nil {
		return nil
	}
	// Followed by or following the identity (most statements): the other.
	if isIdentity(u) {
		return t
	}
	if isIdentity(t) {
		return u
	}
	out := make(tf, len(t))
	for i := 0; i < len(t); i += 2 {
		for j := 0; j < 2; j++ {
			var s uint8
			if t[i+j]&evClean != 0 {
				s |= u[i]
			}
			if t[i+j]&evPending != 0 {
				s |= u[i+1]
			}
			out[i+j] = s
		}
	}
	return out
}

// isIdentity reports whether t leaves every state as it is.
func isIdentity(t tf) bool {
	for i := 0; i+1 < len(t); i += 2 {
		if t[i] != evClean || t[i+1] != evPending {
			return false
		}
	}
	return true
}

func union(t, u tf) tf {
	if t == nil {
		return u
	}
	if u == nil {
		return t
	}
	out := make(tf, len(t))
	for i := range t {
		out[i] = t[i] | u[i]
	}
	return out
}

func equal(t, u tf) bool {
	if len(t) != len(u) || (t == nil) != (u == nil) {
		return false
	}
	for i := range t {
		if t[i] != u[i] {
			return false
		}
	}
	return true
}

// star is zero or more repetitions of t.
func (a *eventAnalysis) star(t tf) tf {
	acc := a.id()
	for i := 0; i < 8; i++ {
		next := union(acc, then(acc, t))
		if equal(next, acc) {
			break
		}
		acc = next
	}
	return acc
}

// apply runs a state (one mask per event) through t.
func apply(st []uint8, t tf) []uint8 {
	if st == nil || t == nil {
		return nil
	}
	out := make([]uint8, len(st))
	for k, m := range st {
		if m&evClean != 0 {
			out[k] |= t[2*k]
		}
		if m&evPending != 0 {
			out[k] |= t[2*k+1]
		}
	}
	return out
}

func unionState(s, t []uint8) []uint8 {
	if s == nil {
		return t
	}
	if t == nil {
		return s
	}
	out := make([]uint8, len(s))
	for i := range s {
		out[i] = s[i] | t[i]
	}
	return out
}

// opTF is the effect of one set or wait.
func (a *eventAnalysis) opTF(op *EventOp) tf {
	t := a.newID()
	exact := op.Pair != "" && len(op.IDs) == 1
	for k, key := range a.list {
		if op.Pair != "" && key.Pair != op.Pair {
			continue
		}
		if len(op.IDs) > 0 && !containsID(op.IDs, key.ID) {
			continue
		}
		switch {
		case exact && op.Set:
			t[2*k], t[2*k+1] = evPending, evPending
		case exact:
			t[2*k], t[2*k+1] = evClean, evClean
		case op.Set: // may set this event
			t[2*k] = evClean | evPending
		default: // may consume this event
			t[2*k+1] = evClean | evPending
		}
	}
	return t
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func (a *eventAnalysis) active(f *grammar.File, n *grammar.Node) bool {
	return f.CoresOf(n)&a.core != 0
}

// stmtTF is the outcome of a statement (memoized: each node once).
func (a *eventAnalysis) stmtTF(f *grammar.File, n *grammar.Node) *outcome {
	if o, ok := a.stmts[n]; ok {
		return o
	}
	o := a.computeStmt(f, n)
	a.stmts[n] = o
	return o
}

func (a *eventAnalysis) seq(f *grammar.File, nodes []*grammar.Node, start tf) *outcome {
	acc := &outcome{n: start}
	for i := 0; i < len(nodes); i++ {
		if acc.n == nil {
			break
		}
		o, last := a.correlatedIfs(f, nodes, i)
		if o == nil {
			o = a.stmtTF(f, nodes[i])
		} else {
			i = last
		}
		acc = compose(acc, o)
	}
	return acc
}

// compose is acc followed by o.
func compose(acc, o *outcome) *outcome {
	return &outcome{
		ret:  union(acc.ret, then(acc.n, o.ret)),
		brk:  union(acc.brk, then(acc.n, o.brk)),
		cont: union(acc.cont, then(acc.n, o.cont)),
		n:    then(acc.n, o.n),
	}
}

// maxCorrelated bounds the statements between two ifs on one condition.
const maxCorrelated = 8

// correlatedIfs returns, when nodes[i] is an if (with or without an else,
// no else-if) whose condition is a plain expression (no call) and a later
// if of the sequence tests the same text with nothing between writing a
// name the condition reads, the outcome of nodes[i] through that if, and
// its index: both take the same branch on every run (`if (t & 1) wait(1);
// ... if (t & 1) set(1);` in a ping-pong loop), so their branches pair up
// rather than join. nil when there is no such pair.
func (a *eventAnalysis) correlatedIfs(f *grammar.File, nodes []*grammar.Node, i int) (*outcome, int) {
	first, key, names := a.plainIf(f, nodes[i])
	if first == nil {
		return nil, 0
	}
	for j := i + 1; j < len(nodes) && j-i <= maxCorrelated; j++ {
		if writesName(nodes[j-1], names) {
			return nil, 0
		}
		second, k, _ := a.plainIf(f, nodes[j])
		if second == nil || k != key {
			continue
		}
		if a.sharedNameCalled(first, names, nodes[i:j]) {
			return nil, 0
		}
		branches := func(pick func(n *grammar.Node) *grammar.Node) *outcome {
			acc := &outcome{n: a.id()}
			for x := i; x <= j; x++ {
				var o *outcome
				switch x {
				case i, j:
					if b := pick(nodes[x]); b != nil {
						o = a.stmtTF(f, b)
					} else {
						o = &outcome{n: a.id()}
					}
				default:
					o = a.stmtTF(f, nodes[x])
				}
				acc = compose(acc, o)
				if acc.n == nil {
					break
				}
			}
			return acc
		}
		taken := branches(func(n *grammar.Node) *grammar.Node { return n.ChildByField("consequence") })
		skipped := branches(func(n *grammar.Node) *grammar.Node { return n.ChildByField("alternative") })
		return unionOutcome(taken, skipped), j
	}
	return nil, 0
}

// sharedNameCalled reports whether the test of if first reads a member or
// global (names not declared in its function) and one of the statements
// from first up to the next if on its test calls anything but an event
// operation: the call may change it (`if (phase_) ...; Advance(); if
// (phase_) ...`). A local changes only as written (writesName).
func (a *eventAnalysis) sharedNameCalled(first *grammar.Node, names map[string]bool, between []*grammar.Node) bool {
	fn := EnclosingFunction(first)
	params := Params(fn)
	shared := false
	for name := range names {
		if d, _ := LocalDecl(name, first, fn); d == nil && !slices.ContainsFunc(params, func(p Param) bool { return p.Name == name }) {
			shared = true
		}
	}
	return shared && slices.ContainsFunc(between, a.callsOtherThanEvents)
}

// callsOtherThanEvents reports whether n holds a call that is not an
// event operation (`set_flag`, `WaitFlag<...>`, ...).
func (a *eventAnalysis) callsOtherThanEvents(n *grammar.Node) bool {
	found := false
	n.Walk(func(c *grammar.Node) bool {
		if c.Kind() == "call_expression" && a.op(c) == nil {
			found = true
		}
		return !found
	})
	return found
}

// plainIf returns n when it is an if compiled on the core whose condition
// is a plain expression of names and constants (no call, not a core test,
// not constexpr) and whose else, if any, is not an else-if; with the
// condition's text without spaces and the names it reads.
func (a *eventAnalysis) plainIf(f *grammar.File, n *grammar.Node) (*grammar.Node, string, map[string]bool) {
	if n == nil || n.Kind() != "if_statement" || !a.active(f, n) || n.ChildOfKind("constexpr") != nil {
		return nil, "", nil
	}
	cond := n.ChildByField("condition")
	if cond == nil || ElseIf(n.ChildByField("alternative")) != nil {
		return nil, "", nil
	}
	if _, ok := grammar.CoreCondition(cond); ok {
		return nil, "", nil
	}
	names := map[string]bool{}
	plain := true
	cond.Walk(func(c *grammar.Node) bool {
		switch c.Kind() {
		case "call_expression", "assignment_expression", "update_expression", "lambda_expression":
			plain = false
		case "identifier", "field_identifier":
			names[c.Text()] = true
		}
		return plain
	})
	if !plain || len(names) == 0 {
		return nil, "", nil
	}
	return n, strings.Join(strings.Fields(cond.Text()), ""), names
}

// writesName reports whether n may change a variable named in names: an
// assignment or increment of it (or of a member of that name), its
// address taken, or a declaration of the name.
func writesName(n *grammar.Node, names map[string]bool) bool {
	found := false
	n.Walk(func(c *grammar.Node) bool {
		target := writtenTarget(c)
		switch c.Kind() {
		case "init_declarator":
			target = c.ChildByField("declarator")
		case "call_expression":
			// A name passed to a call may be bound to a reference.
			if args := c.ChildByField("arguments"); args != nil {
				for x := args.FirstChild(); x != nil; x = x.NextSibling() {
					if x.Kind() == "identifier" && names[x.Text()] {
						found = true
					}
				}
			}
		}
		if target != nil {
			target.Walk(func(t *grammar.Node) bool {
				if (t.Kind() == "identifier" || t.Kind() == "field_identifier") && names[t.Text()] {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

func (a *eventAnalysis) computeStmt(f *grammar.File, n *grammar.Node) *outcome {
	if n == nil || !a.active(f, n) {
		return &outcome{n: a.id()}
	}
	switch n.Kind() {
	case "comment", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include", "break_statement", "continue_statement":
		switch n.Kind() {
		case "break_statement":
			return &outcome{brk: a.id()}
		case "continue_statement":
			return &outcome{cont: a.id()}
		}
		return &outcome{n: a.id()}
	case "compound_statement", "else_clause", "labeled_statement", "try_statement", "catch_clause", "preproc_else":
		return a.seq(f, n.NamedChildren(), a.id())
	case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef":
		return a.preprocTF(f, n)
	case "if_statement":
		return a.ifChainTF(f, n)
	case "for_statement", "while_statement", "for_range_loop", "do_statement":
		return a.loopTF(f, n)
	case "switch_statement":
		return a.switchTF(f, n)
	case "return_statement":
		return &outcome{ret: a.exprTF(f, n)}
	case "function_definition", "class_specifier", "struct_specifier", "lambda_expression":
		return &outcome{n: a.id()}
	}
	return &outcome{n: a.exprTF(f, n)}
}

// preprocTF, loopTF and switchTF are computeStmt's statements with
// statements inside them, out of its frame: computeStmt recurses through
// every call of a call chain (a callee's summary is computed inside its
// caller's), and its frame holding all their locals made the stack of a
// chain of thousands of functions tens of MB.
func (a *eventAnalysis) preprocTF(f *grammar.File, n *grammar.Node) *outcome {
	body, alt := preprocParts(n)
	o := a.seq(f, body, a.id())
	switch a.preprocBranches(f, n, body, alt) {
	case takeBody:
		return o
	case takeAlt:
		if alt == nil {
			return &outcome{n: a.id()}
		}
		return a.stmtTF(f, alt)
	}
	if alt == nil {
		return unionOutcome(o, &outcome{n: a.id()})
	}
	return unionOutcome(o, a.stmtTF(f, alt))
}

func (a *eventAnalysis) loopTF(f *grammar.File, n *grammar.Node) *outcome {
	pre, step, condE, body := a.loopParts(f, n)
	head := then(pre, a.star(step))
	if n.Kind() == "do_statement" {
		head = then(pre, then(union(body.n, body.cont), a.star(step)))
		// The first pass runs before any test.
		first := then(pre, body.brk)
		firstRet := then(pre, body.ret)
		exit := union(first, union(then(then(head, condE), body.brk), then(head, condE)))
		if infinite(n) {
			exit = union(first, then(then(head, condE), body.brk))
		}
		return &outcome{n: exit, ret: union(firstRet, then(then(head, condE), body.ret))}
	}
	atTest := then(head, condE)
	exit := union(atTest, then(atTest, body.brk))
	if infinite(n) {
		exit = then(atTest, body.brk)
	} else if a.entered(n) {
		// The loop leaves by its test after at least one iteration.
		exit = union(then(then(pre, then(step, a.star(step))), condE), then(atTest, body.brk))
	}
	return &outcome{n: exit, ret: then(atTest, body.ret)}
}

// entered reports whether a counted loop runs its body at least once on
// the paths that matter: `for (i = a; i < n; ...)` over a bound that is
// not a constant at most its start (a task input, a tile count). When its
// trip count is zero the kernel has no work; a set its body leaves
// pending after the last iteration is pending at the return whenever it
// has some, which the zero-trip path would otherwise hide.
func (a *eventAnalysis) entered(n *grammar.Node) bool {
	return CountedLoopEntered(n, a.r)
}

// CountedLoopEntered reports whether a loop is counted (`for (T i = a; i
// < b; ...)`, `i <= b`, `i != b`, `b > i`, or a local `T i = a;` before a
// `while (i < b)` whose body alone moves it) and not shown to skip its
// body: a constant bound past a constant start, or a bound that is not
// constant (a task input). False for any other loop.
func CountedLoopEntered(n *grammar.Node, r *Resolver) bool {
	var v, start, cond *grammar.Node
	switch n.Kind() {
	case "for_statement":
		init := n.ChildByField("initializer")
		if init == nil {
			return false
		}
		cond = n.ChildByField("condition")
		switch init.Kind() {
		case "declaration":
			for c := init.FirstChild(); c != nil; c = c.NextSibling() {
				if c.Kind() == "init_declarator" && v == nil {
					v, start = c.ChildByField("declarator"), c.ChildByField("value")
				}
			}
		case "assignment_expression":
			v, start = init.ChildByField("left"), init.ChildByField("right")
		}
	case "while_statement":
		cond = n.ChildByField("condition")
		if cond != nil && cond.Kind() == "condition_clause" {
			if k := cond.NamedChildren(); len(k) == 1 {
				cond = k[0]
			}
		}
		v, start = whileCounter(n, cond)
	default:
		return false
	}
	cond = Unparen(cond)
	if v == nil || start == nil || v.Kind() != "identifier" || cond == nil || cond.Kind() != "binary_expression" {
		return false
	}
	l, rt := Unparen(cond.ChildByField("left")), Unparen(cond.ChildByField("right"))
	op := operatorText(cond)
	var bound *grammar.Node
	switch {
	case l != nil && l.Kind() == "identifier" && l.Text() == v.Text() && (op == "<" || op == "<=" || op == "!="):
		bound = rt
	case rt != nil && rt.Kind() == "identifier" && rt.Text() == v.Text() && (op == ">" || op == ">="):
		bound = l
	default:
		return false
	}
	if bound == nil {
		return false
	}
	b, bok := r.Eval(bound)
	if !bok {
		return true
	}
	s, sok := r.Eval(start)
	if !sok {
		return false
	}
	if op == "<=" || op == ">=" {
		return s <= b
	}
	return s < b
}

// whileCounter is the counter of `while (i < b)` and its start: a local
// compared in the test, declared with a value before the loop, that only
// the loop's body writes after its declaration.
func whileCounter(n, cond *grammar.Node) (v, start *grammar.Node) {
	cond = Unparen(cond)
	body, fn := n.ChildByField("body"), EnclosingFunction(n)
	if cond == nil || cond.Kind() != "binary_expression" || body == nil || fn == nil {
		return nil, nil
	}
	for _, side := range []*grammar.Node{Unparen(cond.ChildByField("left")), Unparen(cond.ChildByField("right"))} {
		if side == nil || side.Kind() != "identifier" {
			continue
		}
		decl, scope := LocalDecl(side.Text(), n, fn)
		if decl == nil || decl.Kind() != "init_declarator" || decl.ChildByField("value") == nil {
			continue
		}
		writes := 0
		for _, w := range WritesOf(scope, side.Text()) {
			if w.Start < decl.End {
				continue
			}
			if !body.Contains(w) {
				writes = -1
				break
			}
			writes++
		}
		if writes > 0 {
			return decl.ChildByField("declarator"), decl.ChildByField("value")
		}
	}
	return nil, nil
}

func (a *eventAnalysis) switchTF(f *grammar.File, n *grammar.Node) *outcome {
	e := a.exprTF(f, n.ChildByField("condition"))
	body := n.ChildByField("body")
	if body == nil {
		return &outcome{n: e}
	}
	// Every case label is reachable from the test.
	acc := &outcome{}
	hasDefault := false
	for _, c := range body.NamedChildren() {
		if c.Kind() == "case_statement" {
			if c.ChildByField("value") == nil {
				hasDefault = true
			}
			acc.n = union(acc.n, a.id())
			var stmts []*grammar.Node
			for _, s := range c.NamedChildren() {
				if s != c.ChildByField("value") {
					stmts = append(stmts, s)
				}
			}
			o := a.seq(f, stmts, acc.n)
			acc.ret = union(acc.ret, o.ret)
			acc.brk = union(acc.brk, o.brk)
			acc.cont = union(acc.cont, o.cont)
			acc.n = o.n
			continue
		}
		o := a.seq(f, []*grammar.Node{c}, acc.n)
		acc.ret, acc.brk, acc.cont, acc.n = union(acc.ret, o.ret), union(acc.brk, o.brk), union(acc.cont, o.cont), o.n
	}
	exit := union(acc.n, acc.brk)
	if !hasDefault {
		exit = union(exit, a.id())
	}
	return prefix(e, &outcome{n: exit, ret: acc.ret, cont: acc.cont})
}

const (
	takeEither = iota
	takeBody
	takeAlt
)

// preprocBranches decides a preprocessor conditional on a core guard: its
// statements compile for other cores than the conditional itself, so on
// this core exactly the active branch runs. Other conditionals may take
// either branch.
func (a *eventAnalysis) preprocBranches(f *grammar.File, n *grammar.Node, body []*grammar.Node, alt *grammar.Node) int {
	first := firstStmt(body)
	if first == nil || f.CoresOf(first) == f.CoresOf(n) {
		return takeEither
	}
	if a.active(f, first) {
		return takeBody
	}
	return takeAlt
}

func firstStmt(nodes []*grammar.Node) *grammar.Node {
	for _, b := range nodes {
		if b.Kind() != "comment" {
			return b
		}
	}
	return nil
}

// preprocParts splits a preprocessor conditional into its statements and
// its #else/#elif.
func preprocParts(n *grammar.Node) (body []*grammar.Node, alt *grammar.Node) {
	alt = n.ChildByField("alternative")
	cond, name := n.ChildByField("condition"), n.ChildByField("name")
	for _, c := range n.NamedChildren() {
		if c == alt || c == cond || c == name {
			continue
		}
		body = append(body, c)
	}
	return body, alt
}

// ifChainTF is the outcome of an if statement. The else-if statements
// chained to it are computed one after the other, in the order the
// recursion through their else clauses took (condition, consequence, then
// the next), and their outcomes folded back up, not one inside the other's
// call: a chain of thousands took a stack of tens of MB.
func (a *eventAnalysis) ifChainTF(f *grammar.File, n *grammar.Node) *outcome {
	type link struct {
		n, alt *grammar.Node
		e      tf
		cons   *outcome
	}
	var chain []link
	var last *outcome
	for last == nil {
		cond := n.ChildByField("condition")
		e := a.exprTF(f, cond)
		cons, alt := n.ChildByField("consequence"), n.ChildByField("alternative")
		if _, ok := grammar.CoreCondition(cond); ok {
			// A core test: on this core exactly one branch runs.
			var out *outcome
			for _, b := range []*grammar.Node{cons, alt} {
				if b != nil && a.active(f, b) {
					out = unionOutcome(out, a.stmtTF(f, b))
				}
			}
			if out == nil {
				last = &outcome{n: e}
			} else {
				last = prefix(e, out)
			}
			break
		}
		if n.ChildOfKind("constexpr") != nil {
			if v, ok := a.r.Eval(cond); ok {
				switch {
				case v != 0:
					last = prefix(e, a.stmtTF(f, cons))
				case alt != nil:
					last = prefix(e, a.stmtTF(f, alt))
				default:
					last = &outcome{n: e}
				}
				break
			}
		}
		out := a.stmtTF(f, cons)
		if next := a.elseIf(f, alt); next != nil {
			chain = append(chain, link{n, alt, e, out})
			n = next
			continue
		}
		if alt != nil {
			out = unionOutcome(out, a.stmtTF(f, alt))
		} else {
			out = unionOutcome(out, &outcome{n: a.id()})
		}
		last = prefix(e, out)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		l := chain[i]
		a.stmts[n] = last
		els := a.seq(f, []*grammar.Node{n}, a.id())
		a.stmts[l.alt] = els
		last = prefix(l.e, unionOutcome(l.cons, els))
		n = l.n
	}
	return last
}

// elseIf returns the if statement that is all of the else clause alt when
// stmtTF would compute it for alt (neither is known yet and both are
// compiled on the core), or nil.
func (a *eventAnalysis) elseIf(f *grammar.File, alt *grammar.Node) *grammar.Node {
	c := ElseIf(alt)
	if c == nil || !a.active(f, alt) || !a.active(f, c) {
		return nil
	}
	if _, ok := a.stmts[alt]; ok {
		return nil
	}
	if _, ok := a.stmts[c]; ok {
		return nil
	}
	return c
}

// ElseIf returns the if statement that is the only named child of the
// else clause alt (`else if (...)`), or nil.
func ElseIf(alt *grammar.Node) *grammar.Node {
	if alt == nil || alt.Kind() != "else_clause" {
		return nil
	}
	var only *grammar.Node
	for c := alt.FirstChild(); c != nil; c = c.NextSibling() {
		if !c.IsNamed() {
			continue
		}
		if only != nil {
			return nil
		}
		only = c
	}
	if only == nil || only.Kind() != "if_statement" {
		return nil
	}
	return only
}

func unionOutcome(o, p *outcome) *outcome {
	if o == nil {
		return p
	}
	if p == nil {
		return o
	}
	return &outcome{n: union(o.n, p.n), ret: union(o.ret, p.ret), brk: union(o.brk, p.brk), cont: union(o.cont, p.cont)}
}

func prefix(e tf, o *outcome) *outcome {
	return &outcome{n: then(e, o.n), ret: then(e, o.ret), brk: then(e, o.brk), cont: then(e, o.cont)}
}

// loopParts returns a loop's effect before the first test, one iteration
// (test, body, update), the test, and the body's outcome.
func (a *eventAnalysis) loopParts(f *grammar.File, n *grammar.Node) (pre, step, condE tf, body *outcome) {
	pre = a.id()
	if n.Kind() == "for_statement" {
		pre = a.exprTF(f, n.ChildByField("initializer"))
	}
	if n.Kind() == "for_range_loop" {
		pre = a.exprTF(f, n.ChildByField("right"))
	}
	condE = a.exprTF(f, n.ChildByField("condition"))
	body = a.stmtTF(f, n.ChildByField("body"))
	update := a.exprTF(f, n.ChildByField("update"))
	step = then(then(condE, union(body.n, body.cont)), update)
	return pre, step, condE, body
}

// infinite reports a loop whose test is absent or a true literal: it only
// leaves by break or return.
func infinite(n *grammar.Node) bool {
	if n.Kind() == "for_range_loop" {
		return false
	}
	c := Unparen(n.ChildByField("condition"))
	if c != nil && c.Kind() == "condition_clause" {
		if k := c.NamedChildren(); len(k) == 1 {
			c = Unparen(k[0])
		}
	}
	if c == nil {
		return n.Kind() == "for_statement"
	}
	t := strings.TrimSpace(c.Text())
	return t == "true" || t == "1"
}

// ExprCalls lists the calls inside n in evaluation order (innermost
// first), not those of lambdas defined there.
func ExprCalls(n *grammar.Node) []*grammar.Node {
	if n == nil {
		return nil
	}
	var calls []*grammar.Node
	ds := n.Descendants()
	for i := 0; i < len(ds); i++ {
		c := &ds[i]
		switch c.Kind() {
		case "lambda_expression":
			i += len(c.Descendants()) - 1
		case "call_expression":
			calls = append(calls, c)
		}
	}
	if len(calls) > 1 {
		slices.SortStableFunc(calls, func(a, b *grammar.Node) int { return cmp.Compare(a.End, b.End) })
	}
	return calls
}

func (a *eventAnalysis) exprTF(f *grammar.File, n *grammar.Node) tf {
	t := a.id()
	for _, c := range ExprCalls(n) {
		if a.active(f, c) {
			t = then(t, a.callTF(f, c))
		}
	}
	return t
}

func (a *eventAnalysis) callTF(f *grammar.File, n *grammar.Node) tf {
	if op := a.op(n); op != nil {
		return a.opTF(op)
	}
	if m, ok := a.expanded[n]; ok {
		return a.macroTF(m)
	}
	defs, opaque := a.callees(n)
	if len(defs) == 0 {
		if opaque {
			return a.anyTF()
		}
		return a.id()
	}
	var out tf
	for _, d := range defs {
		out = union(out, a.summary(d))
	}
	return out
}

// macroTF is the effect of a straight-line event macro's ops in turn.
func (a *eventAnalysis) macroTF(m macroOps) tf {
	t := a.id()
	for _, op := range m.ops {
		t = then(t, a.opTF(op))
	}
	return t
}

// callees are the definitions call n may run; when there are none, opaque
// reports whether n may hide event calls. Out of callTF and walkCall,
// which recurse into the callees: the decoded call is not in their frames.
func (a *eventAnalysis) callees(n *grammar.Node) (defs []FuncDef, opaque bool) {
	c, ok := AsCall(n)
	if !ok {
		return nil, false
	}
	if defs = a.funcs.Callees(c); len(defs) == 0 {
		return nil, a.opaque(c)
	}
	return a.ofClass(n, c, defs), false
}

// ofClass narrows a method call's definitions to its class when the code
// says which: an unqualified call in a method of class C (or `this->f()`)
// runs C's f, `obj.f()` runs f of obj's declared class. Kernels of one
// unit define same-named methods in many classes (Process, CopyOut,
// AllocEventID per tiling variant); read as "may call any of them", a
// class's wait met another class's state. All of them when none is of
// that class (a base class's, a free function).
func (a *eventAnalysis) ofClass(n *grammar.Node, c Call, defs []FuncDef) []FuncDef {
	return a.funcs.OfClass(n, c, defs)
}

// OfClass narrows the definitions a method call at n may run to its class
// when the code says which (see eventAnalysis.ofClass).
func (fs *Funcs) OfClass(n *grammar.Node, c Call, defs []FuncDef) []FuncDef {
	if len(defs) < 2 {
		return defs
	}
	var classes []string
	switch r := Unparen(c.Receiver); {
	case r == nil || r.Kind() == "this":
		if fn := EnclosingDefinition(n); fn != nil {
			if cls := ClassOf(fn); cls != "" {
				classes = []string{cls}
			}
		}
	case r.Kind() == "identifier":
		types := fs.TypesOf(r.Text())
		if len(types) > 1 {
			// One name declared with other classes under other guards
			// (`#if CUBE` / `Cube stage;` / `#elif VEC` / `Vec stage;`):
			// the call's own function's declarations its guards compile.
			if local := fs.localTypes(n, r.Text()); len(local) > 0 {
				types = local
			}
		}
		for _, t := range types {
			classes = append(classes, BaseName(t))
		}
	case r.Kind() == "field_expression":
		if f := r.ChildByField("field"); f != nil {
			for _, t := range fs.TypesOf(f.Text()) {
				classes = append(classes, BaseName(t))
			}
		}
	case r.Kind() == "call_expression" || r.Kind() == "compound_literal_expression":
		// A temporary, `VecStage<Ring>().Run(args)` or `Stage{}.Run()`:
		// the class named there, when it defines the method.
		t := r.ChildByField("function")
		if t == nil {
			t = r.ChildByField("type")
		}
		if t != nil {
			classes = []string{BaseName(t.Text())}
		}
	}
	if len(classes) == 0 {
		return defs
	}
	var out []FuncDef
	for _, d := range defs {
		if slices.Contains(classes, ClassOf(d.Node)) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return defs
	}
	return out
}

// localTypes are the types of the declarations of name in the nearest
// block around call n that declares it before n (C++ scoping: the
// branch's own `KernelB op;` before the function's), keeping those a
// compile of n also compiles (their core guards meet n's); none when no
// block of the function declares the name.
func (fs *Funcs) localTypes(n *grammar.Node, name string) []string {
	fs.mu.Lock()
	tc := fs.trees[n.Tree()]
	fs.mu.Unlock()
	if tc == nil || tc.f == nil {
		return nil
	}
	f := tc.f
	cores := func(x *grammar.Node) grammar.Cores { return CoresIn(f, x, fs.unitGuards) }
	at := cores(n)
	for b := n.Parent(); b != nil && b.Kind() != "function_definition"; b = b.Parent() {
		if b.Kind() != "compound_statement" {
			continue
		}
		var out []string
		for _, d := range blockStatements(b) {
			if d.Start >= n.Start {
				break
			}
			if d.Kind() != "declaration" {
				continue
			}
			t := d.ChildByField("type")
			if t == nil {
				continue
			}
			for _, dc := range d.ChildrenByField("declarator") {
				id := dc
				for id != nil && id.Kind() != "identifier" {
					id = id.ChildByField("declarator")
				}
				if id != nil && id.Text() == name && cores(d)&at != grammar.None {
					out = appendString(out, t.Text())
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// blockStatements are a block's statements in order, those inside its
// `#if` / `#elif` / `#else` branches included (the parser nests them in
// the directive's node).
func blockStatements(b *grammar.Node) []*grammar.Node {
	var out []*grammar.Node
	var add func(ns []*grammar.Node)
	add = func(ns []*grammar.Node) {
		for _, n := range ns {
			switch n.Kind() {
			case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef":
				add(n.NamedChildren())
			default:
				out = append(out, n)
			}
		}
	}
	add(b.NamedChildren())
	return out
}

// opaque reports a call the unit cannot follow that may hide event
// calls: a method or operator() of an object whose class the unit does not
// define the method of (`blockMmad(...)`, `blockMmad.loadQ(...)` on a
// block from an include the workspace could not resolve). AscendC's own
// objects (tensors, queues, the pipe) and plain values are not opaque.
func (a *eventAnalysis) opaque(c Call) bool {
	if len(a.funcs.Lookup(c.Name)) > 0 {
		return false
	}
	name := c.Name
	if c.Receiver != nil {
		r := Unparen(c.Receiver)
		switch r.Kind() {
		case "identifier":
			name = r.Text()
		case "field_expression":
			f := r.ChildByField("field")
			if f == nil {
				return false
			}
			name = f.Text()
		default:
			return false
		}
	}
	if a.objects[name] {
		return true
	}
	types := a.funcs.TypesOf(name)
	if len(types) == 0 {
		// A method of an object declared nowhere the unit sees.
		return c.Receiver != nil
	}
	for _, t := range types {
		if !userClass(t) {
			return false
		}
	}
	return true
}

// libraryTypes are AscendC classes whose methods do not touch the events a
// kernel numbers itself.
var libraryTypes = map[string]bool{"LocalTensor": true, "GlobalTensor": true, "TPipe": true, "TQue": true,
	"TQueBind": true, "TBuf": true, "TBufPool": true, "TensorDesc": true, "ListTensorDesc": true, "Shape": true}

// userClass reports whether a declared type is a class of the kernel's own
// code or a third-party library (not AscendC, not std, not a scalar).
func userClass(t string) bool {
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(t), "*"), "&"))
	t = strings.TrimPrefix(t, "const ")
	if t == "" || strings.Contains(t, "AscendC::") || strings.HasPrefix(t, "std::") {
		return false
	}
	base := BaseName(t)
	if base == "" || libraryTypes[base] || base == "auto" || isTypeName(base) || strings.HasSuffix(base, "_t") {
		return false
	}
	return base[0] >= 'A' && base[0] <= 'Z'
}

// anyTF may set or consume every event.
func (a *eventAnalysis) anyTF() tf {
	t := make(tf, 2*len(a.list))
	for i := range t {
		t[i] = evClean | evPending
	}
	return t
}

// summary is a function's transfer function from entry to return.
func (a *eventAnalysis) summary(d FuncDef) tf {
	if t, ok := a.sums[d.Node]; ok {
		return t
	}
	if a.busy[d.Node] {
		return a.id() // recursion: no further effect
	}
	switch {
	case a.sumDepth == 0:
		return a.settleSummary(d)
	case a.sumDepth > maxWalkDepth:
		panic(deepSummary{d})
	}
	return a.computeSummary(d)
}

// computeSummary computes d's summary, d busy meanwhile (and on sumPath).
func (a *eventAnalysis) computeSummary(d FuncDef) tf {
	a.busy[d.Node] = true
	a.sumPath = append(a.sumPath, d)
	a.sumDepth++
	var t tf
	if body := d.Body(); body != nil && a.active(d.File, d.Node) {
		o := a.stmtTF(d.File, body)
		t = union(o.n, o.ret)
	}
	if t == nil {
		t = a.id()
	}
	a.sumDepth--
	a.sumPath = a.sumPath[:len(a.sumPath)-1]
	a.busy[d.Node] = false
	a.sums[d.Node] = t
	return t
}

// deepSummary unwinds an attempt of settleSummary when a summary
// maxWalkDepth callees deep needs d's, which is not computed.
type deepSummary struct{ d FuncDef }

// settleSummary computes root's summary as one recursive computation
// does, callees at most maxWalkDepth deep. Past that depth the attempt
// unwinds; the deep callee is computed next, in an attempt of its own,
// then each summary the attempt was in (still busy, as on the recursion's
// stack), from the innermost out, again: what they had computed is in the
// memos, and they get as far as before and on. A chain of thousands of
// helpers took about 1 KB of stack per helper.
func (a *eventAnalysis) settleSummary(root FuncDef) tf {
	todo := []FuncDef{root}
	for {
		d := todo[len(todo)-1]
		a.sumPath = a.sumPath[:0]
		t, deep := Attempt[tf, deepSummary](func() tf { return a.computeSummary(d) })
		if deep != nil {
			a.sumDepth = 0
			todo = append(todo, a.sumPath[1:]...)
			todo = append(todo, deep.d)
			continue
		}
		todo = todo[:len(todo)-1]
		if len(todo) == 0 {
			return t
		}
	}
}

// --- the recording walk ---

// walkOut is a statement's effect on a concrete state.
type walkOut struct {
	n, ret, brk, cont []uint8
}

type walkCtx struct {
	top  bool          // walking the entry's own body
	site *grammar.Node // the entry-body call being followed (nil at top)
	exit func(n *grammar.Node, st []uint8)
	// binds are the callee's parameters the call being followed passes a
	// constant (`ProcessToken(t, false, false)`), never assigned in its
	// body: a branch on them that this call cannot take is not walked.
	binds map[string][]int64
	bound *Resolver // a.r knowing binds, made on first use
}

// paramBinds returns the constant arguments call n passes to d's
// parameters that d's body never assigns, by name; the caller's own
// bindings carry through (`Step(waitPrev)` inside a followed call).
func (a *eventAnalysis) paramBinds(n *grammar.Node, d FuncDef, wc *walkCtx) map[string][]int64 {
	c, ok := AsCall(n)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	var out map[string][]int64
	params := Params(d.Node)
	for i, arg := range c.Args {
		if i >= len(params) || params[i].Name == "" || params[i].Pointer || strings.Contains(params[i].TypeText, "&") {
			continue
		}
		arg = Unparen(arg)
		var v int64
		switch {
		case arg.Kind() == "identifier" && wc != nil && len(wc.binds[arg.Text()]) == 1:
			v = wc.binds[arg.Text()][0]
		case arg.Kind() == "true" || arg.Kind() == "false" || arg.Kind() == "number_literal":
			x, ok := a.r.Eval(arg)
			if !ok {
				continue
			}
			v = x
		default:
			continue
		}
		if assignsName(d.Body(), params[i].Name) {
			continue
		}
		if out == nil {
			out = map[string][]int64{}
		}
		out[params[i].Name] = []int64{v}
	}
	return out
}

// assignsName reports whether body assigns, steps or takes the address of
// the variable name.
func assignsName(body *grammar.Node, name string) bool {
	if body == nil {
		return false
	}
	found := false
	body.Walk(func(m *grammar.Node) bool {
		if found {
			return false
		}
		// Assigned, stepped, or its address taken.
		if t := Unparen(writtenTarget(m)); t != nil && t.Kind() == "identifier" && t.Text() == name {
			found = true
		}
		return !found
	})
	return found
}

// boundCond evaluates a plain if's condition under the followed call's
// constant arguments: ok when it depends on them and they decide it.
func (a *eventAnalysis) boundCond(cond *grammar.Node, wc *walkCtx) (int64, bool) {
	if wc == nil || len(wc.binds) == 0 {
		return 0, false
	}
	named := false
	cond.Walk(func(m *grammar.Node) bool {
		if m.Kind() == "identifier" && wc.binds[m.Text()] != nil {
			named = true
		}
		return !named
	})
	if !named {
		return 0, false
	}
	if wc.bound == nil {
		wc.bound = a.r.Bind(wc.binds)
	}
	return wc.bound.Eval(cond)
}

func (a *eventAnalysis) runEntry(f *grammar.File, fn *grammar.Node) {
	body := fn.ChildByField("body")
	if body == nil {
		return
	}
	st := make([]uint8, len(a.list))
	for i := range st {
		st[i] = evClean
	}
	leaks := map[int]*EventFinding{}
	var order []int
	wc := &walkCtx{top: true}
	wc.exit = func(n *grammar.Node, st []uint8) {
		for k, m := range st {
			if m != evPending {
				continue
			}
			o, ok := a.last[k]
			if !ok {
				continue
			}
			fd := leaks[k]
			if fd == nil || fd.Op != o.op {
				fd = &EventFinding{Problem: EventLeaked, Key: a.list[k], Core: a.core, Site: o.site, Op: o.op, OpFile: o.file}
				leaks[k] = fd
				order = append(order, k)
			}
			fd.Exits = append(fd.Exits, n)
		}
	}
	w := a.settleWalk(&walkAct{f: f, body: body, st: st, wc: wc})
	if w.n != nil {
		wc.exit(body, w.n)
	}
	for _, k := range order {
		a.add(*leaks[k])
	}
}

func (a *eventAnalysis) add(fd EventFinding) {
	key := [3]any{fd.Problem, fd.Key, fd.Op}
	if a.seen[key] {
		return
	}
	a.seen[key] = true
	a.findings = append(a.findings, fd)
}

func (a *eventAnalysis) walkSeq(f *grammar.File, nodes []*grammar.Node, st []uint8, wc *walkCtx) walkOut {
	acc := walkOut{n: st}
	for _, c := range nodes {
		if acc.n == nil || a.aborted {
			break
		}
		acc.then(a.walk(f, c, acc.n, wc))
	}
	return acc
}

// then continues acc, what a sequence left so far, with o, what the next
// statement leaves from acc.n. A method of its own: walkSeq recurses
// through every call of a call chain, and the unions inlined there made
// its frame three times larger.
func (acc *walkOut) then(o walkOut) {
	acc.ret = unionState(acc.ret, o.ret)
	acc.brk = unionState(acc.brk, o.brk)
	acc.cont = unionState(acc.cont, o.cont)
	acc.n = o.n
}

func unionWalk(o, p walkOut) walkOut {
	return walkOut{n: unionState(o.n, p.n), ret: unionState(o.ret, p.ret), brk: unionState(o.brk, p.brk), cont: unionState(o.cont, p.cont)}
}

// walk runs a statement on a state, recording findings. It mirrors
// computeStmt; loops start from their fixed point so each statement is
// walked once per context.
func (a *eventAnalysis) walk(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) walkOut {
	if n == nil || st == nil || !a.active(f, n) {
		return walkOut{n: st}
	}
	if a.spend() {
		return walkOut{}
	}
	switch n.Kind() {
	case "comment", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include":
		return walkOut{n: st}
	case "break_statement":
		return walkOut{brk: st}
	case "continue_statement":
		return walkOut{cont: st}
	case "compound_statement", "else_clause", "labeled_statement", "try_statement", "catch_clause", "preproc_else":
		return a.walkSeq(f, n.NamedChildren(), st, wc)
	case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef":
		return a.walkPreproc(f, n, st, wc)
	case "if_statement":
		return a.walkIfChain(f, n, st, wc)
	case "for_statement", "while_statement", "for_range_loop", "do_statement":
		return a.walkLoop(f, n, st, wc)
	case "switch_statement":
		return a.walkSwitch(f, n, st, wc)
	case "return_statement":
		s := a.walkExpr(f, n, st, wc)
		if wc.top && s != nil && !a.replaying {
			wc.exit(n, s)
		}
		return walkOut{ret: s}
	case "function_definition", "class_specifier", "struct_specifier", "lambda_expression":
		return walkOut{n: st}
	}
	return walkOut{n: a.walkExpr(f, n, st, wc)}
}

// walkPreproc, walkLoop and walkSwitch are walk's statements with
// statements inside them, out of its frame: walk recurses through every
// call of a call chain (a callee is walked inside its call), and its frame
// holding all their locals made the stack of a chain of thousands of
// functions tens of MB.
func (a *eventAnalysis) walkPreproc(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) walkOut {
	body, alt := preprocParts(n)
	switch a.preprocBranches(f, n, body, alt) {
	case takeBody:
		return a.walkSeq(f, body, st, wc)
	case takeAlt:
		return a.walk(f, alt, st, wc)
	}
	o := a.walkSeq(f, body, st, wc)
	if alt == nil {
		return unionWalk(o, walkOut{n: st})
	}
	return unionWalk(o, a.walk(f, alt, st, wc))
}

func (a *eventAnalysis) walkLoop(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) walkOut {
	pre, step, _, _ := a.loopParts(f, n)
	s := st
	if n.Kind() == "for_statement" {
		s = a.walkExpr(f, n.ChildByField("initializer"), s, wc)
	} else if n.Kind() == "for_range_loop" {
		s = a.walkExpr(f, n.ChildByField("right"), s, wc)
	}
	_ = pre
	// The state at the test once the loop has settled.
	head := apply(s, a.star(step))
	if n.Kind() == "do_statement" {
		bodyOut := a.walk(f, n.ChildByField("body"), unionState(s, apply(head, a.exprTF(f, n.ChildByField("condition")))), wc)
		atTest := a.walkExpr(f, n.ChildByField("condition"), unionState(bodyOut.n, bodyOut.cont), wc)
		exit := unionState(bodyOut.brk, atTest)
		if infinite(n) {
			exit = bodyOut.brk
		}
		return walkOut{n: exit, ret: bodyOut.ret}
	}
	atTest := a.walkExpr(f, n.ChildByField("condition"), head, wc)
	bodyOut := a.walk(f, n.ChildByField("body"), atTest, wc)
	a.walkExpr(f, n.ChildByField("update"), unionState(bodyOut.n, bodyOut.cont), wc)
	exit := unionState(atTest, bodyOut.brk)
	if infinite(n) {
		exit = bodyOut.brk
	} else if a.entered(n) {
		// Left by the test after at least one iteration (entered).
		exit = unionState(apply(apply(s, then(step, a.star(step))), a.exprTF(f, n.ChildByField("condition"))), bodyOut.brk)
	}
	return walkOut{n: exit, ret: bodyOut.ret}
}

func (a *eventAnalysis) walkSwitch(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) walkOut {
	s := a.walkExpr(f, n.ChildByField("condition"), st, wc)
	body := n.ChildByField("body")
	if body == nil {
		return walkOut{n: s}
	}
	var acc walkOut
	hasDefault := false
	for _, c := range body.NamedChildren() {
		if c.Kind() == "case_statement" {
			if c.ChildByField("value") == nil {
				hasDefault = true
			}
			var stmts []*grammar.Node
			for _, x := range c.NamedChildren() {
				if x != c.ChildByField("value") {
					stmts = append(stmts, x)
				}
			}
			o := a.walkSeq(f, stmts, unionState(acc.n, s), wc)
			acc = walkOut{n: o.n, ret: unionState(acc.ret, o.ret), brk: unionState(acc.brk, o.brk), cont: unionState(acc.cont, o.cont)}
			continue
		}
		o := a.walkSeq(f, []*grammar.Node{c}, acc.n, wc)
		acc = walkOut{n: o.n, ret: unionState(acc.ret, o.ret), brk: unionState(acc.brk, o.brk), cont: unionState(acc.cont, o.cont)}
	}
	exit := unionState(acc.n, acc.brk)
	if !hasDefault {
		exit = unionState(exit, s)
	}
	return walkOut{n: exit, ret: acc.ret, cont: acc.cont}
}

// walkIfChain walks an if statement, and the else-if statements chained
// to it one after the other (as ifChainTF computes them), joining what
// their branches leave.
func (a *eventAnalysis) walkIfChain(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) walkOut {
	var acc walkOut
	for {
		cond := n.ChildByField("condition")
		s := a.walkExpr(f, cond, st, wc)
		cons, alt := n.ChildByField("consequence"), n.ChildByField("alternative")
		if _, ok := grammar.CoreCondition(cond); ok {
			var out walkOut
			ran := false
			for _, b := range []*grammar.Node{cons, alt} {
				if b != nil && a.active(f, b) {
					out = unionWalk(out, a.walk(f, b, s, wc))
					ran = true
				}
			}
			if !ran {
				return unionWalk(acc, walkOut{n: s})
			}
			return unionWalk(acc, out)
		}
		v, ok := a.boundCond(cond, wc)
		if !ok && n.ChildOfKind("constexpr") != nil {
			v, ok = a.r.Eval(cond)
		}
		if ok {
			if v != 0 {
				return unionWalk(acc, a.walk(f, cons, s, wc))
			}
			if alt != nil {
				return unionWalk(acc, a.walk(f, alt, s, wc))
			}
			return unionWalk(acc, walkOut{n: s})
		}
		acc = unionWalk(acc, a.walk(f, cons, s, wc))
		if alt == nil {
			return unionWalk(acc, walkOut{n: s})
		}
		next, ok := a.walkElseIf(f, alt, s)
		if !ok {
			return unionWalk(acc, a.walk(f, alt, s, wc))
		}
		if next == nil {
			return acc // the budget ran out in the else clause: it adds nothing
		}
		n, st = next, s
	}
}

// walkElseIf does what walk does with an else clause that is one if
// statement before it walks that statement's condition: it returns the
// statement and true, or nil and true when the budget ran out on the
// way (the clause adds nothing), or false when the clause is not such
// a clause or walk would not get to the statement.
func (a *eventAnalysis) walkElseIf(f *grammar.File, alt *grammar.Node, st []uint8) (*grammar.Node, bool) {
	c := ElseIf(alt)
	if c == nil || st == nil || a.aborted || !a.active(f, alt) || !a.active(f, c) {
		return nil, false
	}
	for range 2 { // the clause, then the statement
		if a.spend() {
			return nil, true
		}
	}
	return c, true
}

func (a *eventAnalysis) walkExpr(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) []uint8 {
	for _, c := range ExprCalls(n) {
		if st == nil {
			return nil
		}
		if a.active(f, c) {
			st = a.walkCall(f, c, st, wc)
		}
	}
	return st
}

func (a *eventAnalysis) walkCall(f *grammar.File, n *grammar.Node, st []uint8, wc *walkCtx) []uint8 {
	site := wc.site
	if site == nil {
		site = n
	}
	if st, ok := a.walkOps(f, site, n, st); ok {
		return st
	}
	defs, opaque := a.callees(n)
	if len(defs) == 0 {
		if opaque {
			return apply(st, a.anyTF())
		}
		return st
	}
	act := a.acts[len(a.acts)-1]
	if !a.replaying {
		out := a.followDefs(f, n, defs, 0, nil, st, site, wc)
		act.logCall(out)
		return out
	}
	if a.cursor < len(act.calls) {
		return a.replayCall(act)
	}
	// The call the walk was in when it unwound: its callee was walked
	// since, and the walk goes on from there.
	a.replaying = false
	a.walkBusy[defs[act.def].Node] = false
	out := a.followDefs(f, n, defs, act.def+1, unionState(act.partial, a.childOut), st, site, wc)
	act.logCall(out)
	return out
}

// logCall records the state a call left (nil: none), in act.calls: a
// flag byte, then the state's bytes. A byte each, not a slice: the entry
// of a large unit follows tens of thousands of calls.
func (act *walkAct) logCall(out []uint8) {
	if out == nil {
		act.calls = append(act.calls, 0)
		return
	}
	act.calls = append(act.calls, 1)
	act.calls = append(act.calls, out...)
}

// replayCall returns the state the next call act logged left.
func (a *eventAnalysis) replayCall(act *walkAct) []uint8 {
	at := a.cursor
	if act.calls[at] == 0 {
		a.cursor++
		return nil
	}
	end := at + 1 + len(a.list)
	a.cursor = end
	return act.calls[at+1 : end : end]
}

// followDefs walks call n's definitions defs[from:] from st, joining what
// they leave to out. Each callee walked is a walkAct of its own; past
// maxWalkDepth of them in this attempt, the walk unwinds (settleWalk).
func (a *eventAnalysis) followDefs(f *grammar.File, n *grammar.Node, defs []FuncDef, from int, out, st []uint8, site *grammar.Node, wc *walkCtx) []uint8 {
	for j := from; j < len(defs); j++ {
		d := defs[j]
		binds := a.paramBinds(n, d, wc)
		body, past := a.enterCall(f, n, d, st, binds)
		if body == nil {
			out = unionState(out, past)
			continue
		}
		act := a.acts[len(a.acts)-1]
		act.def, act.partial = j, out
		child := &walkAct{f: d.File, body: body, st: st, wc: &walkCtx{site: site, binds: binds}}
		if len(a.acts) > maxWalkDepth {
			panic(deepWalk{child})
		}
		child.started = true
		a.acts = append(a.acts, child)
		sub := a.walk(child.f, child.body, child.st, child.wc)
		a.acts = a.acts[:len(a.acts)-1]
		a.walkBusy[d.Node] = false
		out = unionState(out, unionState(sub.n, sub.ret))
	}
	return out
}

// spend counts a statement against the walks' budget; true when the
// budget ran out or the run was cancelled. A replayed walk spent it on
// its first run.
func (a *eventAnalysis) spend() bool {
	if a.replaying {
		return false
	}
	a.budget--
	if a.budget < 0 || a.ctx.Err() != nil {
		if !a.aborted && a.budget < 0 {
			noteCut(a.ctx, fmt.Sprintf("its event walks passed %d statements", evBudget))
		}
		a.aborted = true
		return true
	}
	return false
}

// maxWalkDepth bounds the callee bodies one attempt of settleWalk walks
// inside each other, and the summaries one of settleSummary computes. A
// chain of thousands of helpers, each calling the one before, recursed
// once per helper: about 2 KB of stack each, a goroutine stack of 8 MB on
// a 2 MB file and the 4 MB copy it grew from.
var maxWalkDepth = 64

// SetMaxWalkDepth sets the depth settleWalk follows callees to and
// returns the one before: tests of other packages check that unwinding
// and replaying finds what one recursive walk finds.
func SetMaxWalkDepth(d int) int {
	old := maxWalkDepth
	maxWalkDepth = d
	return old
}

// walkAct is a body the walk follows (a callee's, or the entry's) from
// st, and what settleWalk needs to walk it again once started: the
// results of the calls it followed, in order, and, while a callee's walk
// is under way, which definition of the call (def) and what the ones
// before it left (partial).
type walkAct struct {
	f       *grammar.File
	body    *grammar.Node
	st      []uint8
	wc      *walkCtx
	calls   []byte
	def     int
	partial []uint8
	started bool
}

// deepWalk unwinds an attempt of settleWalk when a walk maxWalkDepth
// callees deep enters one more: child, its key already marked walked.
type deepWalk struct{ child *walkAct }

// settleWalk walks root's body as walk does, following callees at most
// maxWalkDepth deep. Past that depth the attempt unwinds; the deepest
// callee is walked next, in an attempt of its own, and then each body
// the attempt was in, from the innermost out: replayed up to the call it
// was in (its calls' results taken from its log, its findings, events
// and budget not again: they stay from the first run), then walked on.
// Every finding, set and budget step happens once, in the order of one
// recursive walk.
func (a *eventAnalysis) settleWalk(root *walkAct) walkOut {
	pending := []*walkAct{root}
	var childOut []uint8
	for {
		act := pending[len(pending)-1]
		a.acts = append(a.acts[:0], act)
		// A body unwound is replayed; the deep callee and the root start.
		a.replaying, a.cursor, a.childOut = act.started, 0, childOut
		act.started = true
		w, deep := Attempt[walkOut, deepWalk](func() walkOut { return a.walk(act.f, act.body, act.st, act.wc) })
		a.replaying, a.childOut = false, nil
		if a.aborted {
			// The core's findings are dropped: no need to finish.
			a.acts = nil
			return walkOut{}
		}
		if deep != nil {
			pending = append(pending, a.acts[1:]...)
			pending = append(pending, deep.child)
			childOut = nil
			continue
		}
		pending = pending[:len(pending)-1]
		if len(pending) == 0 {
			a.acts = nil
			return w
		}
		childOut = unionState(w.n, w.ret)
	}
}

// enterCall decides whether walkCall follows call n into d in state st:
// it returns d's body, marked walked in st and busy, or nil and the state
// after the call without following it. Out of walkCall, which recurses:
// the decision's locals are not in its frame.
func (a *eventAnalysis) enterCall(f *grammar.File, n *grammar.Node, d FuncDef, st []uint8, binds map[string][]int64) (body *grammar.Node, past []uint8) {
	if d.File == f && d.Node.Contains(n) || a.walkBusy[d.Node] {
		return nil, st
	}
	body = d.Body()
	if body == nil || !a.active(d.File, d.Node) {
		return nil, st
	}
	key := stateKey(d.Node, st)
	if len(binds) > 0 {
		// Another call's constants may walk other branches.
		key.st += bindsKey(binds)
	}
	if a.walked[key] {
		// This context was followed already: its findings are in.
		return nil, apply(st, a.summary(d))
	}
	a.walked[key] = true
	a.walkBusy[d.Node] = true
	return body, nil
}

// walkOps walks n when it is a set or wait, or the use of a straight-line
// event macro: the state after it and true; st and false for any other
// node. Out of walkCall, which recurses into callees: the ops' walk is
// not in its frame.
func (a *eventAnalysis) walkOps(f *grammar.File, site, n *grammar.Node, st []uint8) ([]uint8, bool) {
	if op := a.op(n); op != nil {
		if !a.replaying {
			a.visited[n] = true
		}
		return a.walkOp(f, site, n, op, st), true
	}
	m, ok := a.expanded[n]
	if !ok {
		return st, false
	}
	if !a.replaying {
		for _, in := range m.inner {
			a.visited[in] = true
		}
	}
	for _, op := range m.ops {
		st = a.walkOp(f, site, n, op, st)
	}
	return st, true
}

// walkOp records what one set or wait (at n, reached from site) finds in
// state st, and returns the state after it.
func (a *eventAnalysis) walkOp(f *grammar.File, site, n *grammar.Node, op *EventOp, st []uint8) []uint8 {
	if op.Pair != "" && len(op.IDs) == 1 && !a.replaying {
		k := a.keys[EventKey{op.Pair, op.IDs[0]}]
		switch {
		case op.Set && st[k] == evPending:
			fd := EventFinding{Problem: EventSetAgain, Key: a.list[k], Core: a.core, Site: site, Op: n, OpFile: f}
			if o, ok := a.last[k]; ok {
				fd.Prev, fd.PrevFile, fd.PrevSite = o.op, o.file, o.site
			}
			a.add(fd)
		case !op.Set && st[k] == evClean:
			a.add(EventFinding{Problem: EventWaitUnset, Key: a.list[k], Core: a.core, Site: site, Op: n, OpFile: f})
		}
		if op.Set {
			a.last[k] = origin{site: site, op: n, file: f}
		}
	}
	return apply(st, a.opTF(op))
}

type walkKey struct {
	fn *grammar.Node
	st string
}

// bindsKey spells a followed call's constant arguments, in name order.
func bindsKey(binds map[string][]int64) string {
	names := make([]string, 0, len(binds))
	for k := range binds {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, k := range names {
		fmt.Fprintf(&b, "|%s=%d", k, binds[k][0])
	}
	return b.String()
}

func stateKey(fn *grammar.Node, st []uint8) walkKey {
	b := make([]byte, len(st))
	for i, m := range st {
		b[i] = '0' + m
	}
	return walkKey{fn, string(b)}
}

// tainted lists the pairs ("" for all) of the ops of the unit that no walk
// reached on this core: code the calls did not resolve to may set or wait
// them at any point.
func (a *eventAnalysis) tainted() map[string]bool {
	out := map[string]bool{}
	for _, f := range a.files {
		for _, fo := range a.ff.Calls(f).eventOps() {
			n := fo.op.Node
			op := a.op(n)
			if op == nil || out[op.Pair] || a.visited[n] || fo.cores&a.core == 0 || a.deadConstexpr(n) {
				continue
			}
			out[op.Pair] = true
		}
	}
	return out
}

// deadConstexpr reports whether an `if constexpr` on a constant discards n.
func (a *eventAnalysis) deadConstexpr(n *grammar.Node) bool {
	for child, p := n, n.Parent(); p != nil; child, p = p, p.Parent() {
		if p.Kind() != "if_statement" || p.ChildOfKind("constexpr") == nil {
			continue
		}
		v, ok := a.r.Eval(p.ChildByField("condition"))
		if ok && (child.Field() == "consequence" && v == 0 || child.Field() == "alternative" && v != 0) {
			return true
		}
	}
	return false
}

// EventOfCall decodes an intra-core event call taken apart (a use of a
// forwarding macro as Funcs.Forward gives it); ok is false for others.
func EventOfCall(c Call) (EventOp, bool) { return decodeEventCall(c, (*grammar.Node).Text) }
