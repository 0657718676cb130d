package rules

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// ScalarDMAHandoff flags a DMA out of a UB tensor the scalar unit just wrote,
// and a scalar read of a UB tensor a DMA just filled, with no handoff
// between the scalar pipe and the DMA's.
var ScalarDMAHandoff = register(&analysis.Analyzer{
	Code:     "EXT017",
	Name:     "scalar-dma-handoff",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHandoff,
	Doc: analysis.Doc{
		Summary: "a DMA out of a UB tensor the scalar unit just wrote (or a scalar read of one a DMA just filled) needs the S→MTE3 (MTE2→S) handoff between them",
		What: "In each function, follows a scalar write of a `LocalTensor` (`t.SetValue(i, v)`, `t(i) = v`) to a later DMA " +
			"out of that tensor to a `GlobalTensor` (`DataCopy(gm, t, n)`, `DataCopyPad(gm, t, params)`), and a DMA into a " +
			"`LocalTensor` from a `GlobalTensor` (`DataCopy(t, gm, n)`) to a later scalar read of it (`t.GetValue(i)`, " +
			"`t(i)`), and flags the second when nothing between them hands off: `SetFlag`/`WaitFlag<HardEvent::S_MTE3>` " +
			"(`set_flag`/`wait_flag(PIPE_S, PIPE_MTE3, id)`, a project macro given the pipes, `WAIT_FLAG(S, MTE3, id)`) for the " +
			"write, `MTE2_S` for the read; a wait whose event is not " +
			"written as a constant, `PipeBarrier<PIPE_ALL>()` (`pipe_barrier(PIPE_ALL)`), `SyncAll`, `TPipe::Destroy()`, a " +
			"helper handed the event (`SyncFunc<HardEvent::S_MTE3>()`), a project function that waits or bars anywhere in it, " +
			"or an unresolved call named like a wait or a barrier. The queue API alone is not a handoff: `EnQue`/`DeQue` wait " +
			"between the vector and DMA pipes (`V_MTE3`, `MTE2_V`), never the scalar pipe's, and a tensor taken back from a queue " +
			"(`t = que.DeQue<T>()`) is the buffer the queue's last `EnQue` in the function held. Only the tensor as written is " +
			"followed: a DMA of a view (`t[64]`), a tensor assigned again between the two, a path that leaves between them " +
			"(`return`, `break`, `continue`), the two sides in branches that exclude each other, or one inside a lambda are " +
			"not judged. Handoffs chain: a wait of V on MTE2 then of S on V orders the read after the copy, and a wait of V on S " +
			"then the output queue's `EnQue`/`DeQue` orders the copy after the write. The switch is read from the build files " +
			"of the kernel's own folder and, for an operator library's `<op>/op_kernel/` sources, of the op " +
			"(`<op>/op_host/CMakeLists.txt`: `add_ops_compile_options(OP_NAME X OPTIONS --cce-auto-sync=off)`), not from a " +
			"project file further up that may set it for another target; the hover on a kernel's name says which decided.",
		Why: "The scalar unit, the DMA pipes and the vector unit of a core run asynchronously; an instruction of one pipe " +
			"does not wait for another pipe's unless a flag between them says so. A scalar store to UB may still be on its " +
			"way when MTE3 starts reading that UB out, so GM receives the old bytes; a scalar load may read UB before the " +
			"MTE2 copy into it has landed, so the kernel computes with stale data (the guide §4 stages scalars with " +
			"`SetFlag/WaitFlag<MTE2_S>` for this reason). CANN's kernel builds insert these handoffs themselves around the " +
			"tensor API's scalar accesses (`--cce-auto-sync`, on by default: asc-devkit's \"关键特性说明\" page, table 3); " +
			"pypto's extern build has no automatic synchronisation, and a build passing `--cce-auto-sync=off` turns it " +
			"off: there every handoff must be written.",
		Example: "flag.SetValue(0, tag);\nDataCopy(flagGm, flag, 8);          // MTE3 may read UB before the store lands",
		UseInstead: "flag.SetValue(0, tag);\nSetFlag<HardEvent::S_MTE3>(EVENT_ID0);\nWaitFlag<HardEvent::S_MTE3>(EVENT_ID0);\n" +
			"DataCopy(flagGm, flag, 8);",
		FixSafety: "No fix: which event id is free there is the author's to pick.",
		Guide:     "§4 (the staging pattern), facts: How an extern is built and run (no `--cce-auto-sync`)",
	},
	Run: runScalarDMAHandoff,
})

// The pipes of a core, as a set: a handoff chain is followed through the
// pipes that are known to run after the first side (MTE2 -> V -> S: a
// wait of V on MTE2 then of S on V orders the scalar read after the copy).
type pipeSet uint16

const (
	pipeS pipeSet = 1 << iota
	pipeV
	pipeM
	pipeMTE1
	pipeMTE2
	pipeMTE3
	pipeFIX
	allPipes = pipeS | pipeV | pipeM | pipeMTE1 | pipeMTE2 | pipeMTE3 | pipeFIX
)

// pipeOf reads a pipe name (`MTE2`, `PIPE_MTE2`, `pipe_t::PIPE_V`); an
// unknown one is every pipe, to say less.
func pipeOf(s string) (pipeSet, bool) {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	s = strings.TrimPrefix(s, "PIPE_")
	switch s {
	case "S":
		return pipeS, true
	case "V":
		return pipeV, true
	case "M":
		return pipeM, true
	case "MTE1":
		return pipeMTE1, true
	case "MTE2":
		return pipeMTE2, true
	case "MTE3":
		return pipeMTE3, true
	case "FIX":
		return pipeFIX, true
	case "ALL":
		return allPipes, true
	}
	return allPipes, false
}

// pipeEdge: the pipes of to wait for the pipes of from.
type pipeEdge struct{ from, to pipeSet }

// handoff is what an operation hands off between pipes.
type handoff struct {
	all   bool // every pipe waits for every other (PipeBarrier<PIPE_ALL>)
	edges []pipeEdge
}

func (h handoff) none() bool { return !h.all && len(h.edges) == 0 }

func (h *handoff) add(o handoff) {
	h.all = h.all || o.all
	if !h.all {
		h.edges = append(h.edges, o.edges...)
	}
}

// after is the pipes known to run after what reached did, once h ran:
// its edges followed to their fixed point (a helper's waits in any order,
// to say less).
func (h handoff) after(reached pipeSet) pipeSet {
	if h.all {
		return allPipes
	}
	for changed := true; changed; {
		changed = false
		for _, e := range h.edges {
			if reached&e.from != 0 && reached&e.to != e.to {
				reached |= e.to
				changed = true
			}
		}
	}
	return reached
}

// queueHandoff is what a queue call (EnQue, DeQue, AllocTensor,
// FreeTensor) may hand off: between the vector and DMA pipes, never the
// scalar unit's (asc-devkit's GetQueEvt).
var queueHandoff = handoff{edges: []pipeEdge{{allPipes &^ pipeS, allPipes &^ pipeS}}}

// handoffOp is one operation of a function the rule follows, in source
// order.
type handoffOp struct {
	node *grammar.Node
	// kind: 'w' a scalar write of UB, 'r' a scalar read of UB, 'o' a DMA
	// out of UB, 'i' a DMA into UB, 's' a handoff, 'a' an assignment of a
	// tensor, 'q' a tensor taken back from a queue (`t = que.DeQue<T>()`):
	// from there on root names the buffer `from` was when it was queued.
	kind byte
	root string
	from string
	// name is the tensor as written, when root is the buffer it was
	// queued as.
	name string
	sync handoff
}

// written is the op's tensor as the code names it there.
func (op handoffOp) written() string {
	if op.name != "" {
		return op.name
	}
	return op.root
}

func runScalarDMAHandoff(pass *analysis.Pass) {
	fns := pass.Nodes("function_definition")
	if len(fns) == 0 || !srcMentions(pass.File.Src, "SetValue", "GetValue", "DataCopy") {
		return
	}
	funcs := pass.Reach().FuncIndex()
	h := &handoffs{pass: pass, funcs: funcs, memo: map[*grammar.Node]handoff{}}
	for _, fn := range fns {
		if pass.Stopped() {
			return
		}
		if pass.Cores(fn) == grammar.None || fn.ChildByField("body") == nil {
			continue
		}
		h.check(fn)
	}
}

func srcMentions(src []byte, words ...string) bool {
	s := string(src)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

type handoffs struct {
	pass  *analysis.Pass
	funcs *cxx.Funcs
	// memo: the handoffs a project function may make (helperSyncs).
	memo map[*grammar.Node]handoff
}

// check reports the unsynchronised pairs of one function.
func (h *handoffs) check(fn *grammar.Node) {
	ops := h.ops(fn.ChildByField("body"))
	for j, use := range ops {
		var from byte
		var first, want pipeSet
		switch use.kind {
		case 'o':
			from, first, want = 'w', pipeS, pipeMTE3
		case 'r':
			from, first, want = 'i', pipeMTE2, pipeS
		default:
			continue
		}
		// The latest earlier operation on the tensor that is the other
		// side; a reassignment of the tensor, or an earlier use of the
		// same side (which answers for this one), ends the search.
		i := j - 1
		for ; i >= 0; i-- {
			op := ops[i]
			if op.kind == 's' || op.root != use.root {
				continue
			}
			if op.kind == 'a' || op.kind == use.kind || op.kind == from {
				break
			}
		}
		if i < 0 || ops[i].kind != from {
			continue
		}
		op := ops[i]
		reached := first
		for _, s := range ops[i+1 : j] {
			if s.kind == 's' {
				reached = s.sync.after(reached)
			}
		}
		if reached&want != 0 || exclusive(op.node, use.node, fn) || leavesBetween(fn, op.node, use.node) ||
			h.pass.Cores(op.node)&h.pass.Cores(use.node) == grammar.None {
			continue
		}
		h.report(use, op)
	}
}

func (h *handoffs) report(use, op handoffOp) {
	var msg, rel string
	if use.kind == 'o' {
		msg = "this DMA copies `" + use.written() + "` out of UB after the scalar write `" + shortText(op.node) + "`" + fileLine(h.pass, h.pass.File, op.node) +
			" with no S→MTE3 handoff between them: MTE3 can read UB before the store lands and write stale data to GM; " +
			"add `SetFlag<HardEvent::S_MTE3>(id); WaitFlag<HardEvent::S_MTE3>(id);` before the copy"
		rel = "the scalar write of UB"
	} else {
		msg = "this scalar read of `" + use.written() + "` follows the DMA into it `" + shortText(op.node) + "`" + fileLine(h.pass, h.pass.File, op.node) +
			" with no MTE2→S handoff between them: the scalar unit can read UB before the copy lands; " +
			"add `SetFlag<HardEvent::MTE2_S>(id); WaitFlag<HardEvent::MTE2_S>(id);` before the read"
		rel = "the DMA into UB"
	}
	h.pass.Report(analysis.Diagnostic{
		Start:   use.node.Start,
		End:     use.node.End,
		Message: msg,
		Related: []analysis.Related{{File: h.pass.File.Path, Start: op.node.Start, End: op.node.End, Message: rel}},
	})
}

// ops lists the operations of a function body the rule follows, in
// source order (a call's arguments before it); lambdas are skipped.
func (h *handoffs) ops(body *grammar.Node) []handoffOp {
	var out []handoffOp
	ds := body.Descendants()
	for i := 0; i < len(ds); i++ {
		n := &ds[i]
		switch n.Kind() {
		case "lambda_expression":
			i += len(n.Descendants()) - 1
		case "assignment_expression":
			if l := cxx.Unparen(n.ChildByField("left")); l != nil && l.Kind() == "identifier" || l != nil && l.Kind() == "field_expression" {
				if r := cxx.Root(l); h.local(r) {
					out = append(out, h.assigned(n, r, n.ChildByField("right")))
				}
			}
		case "init_declarator":
			if d := n.ChildByField("declarator"); d != nil && d.Kind() == "identifier" && h.local(d.Text()) {
				out = append(out, h.assigned(n, d.Text(), n.ChildByField("value")))
			}
		}
	}
	for _, n := range cxx.ExprCalls(body) {
		if op, ok := h.op(n); ok {
			out = append(out, op)
		}
		// `que.EnQue(t)`: the queue holds t's buffer until DeQue.
		if c, ok := cxx.AsCall(n); ok && c.Name == "EnQue" && c.Receiver != nil && len(c.Args) == 1 {
			if r := plainTensor(c.Args[0]); r != "" && h.local(r) {
				out = append(out, handoffOp{node: n, kind: 'e', root: r, from: c.Receiver.Text()})
			}
		}
	}
	sortOps(out)
	return dequeued(out)
}

// assigned is the op of an assignment of local tensor root from value: a
// queue's DeQue (kind 'q', from its queue) or any other value ('a').
func (h *handoffs) assigned(n *grammar.Node, root string, value *grammar.Node) handoffOp {
	if c, ok := cxx.AsCall(cxx.Unparen(value)); ok && c.Name == "DeQue" && c.Receiver != nil {
		return handoffOp{node: n, kind: 'q', root: root, from: c.Receiver.Text()}
	}
	return handoffOp{node: n, kind: 'a', root: root}
}

// dequeued follows buffers through their queues: a tensor taken back by
// `t = que.DeQue<T>()` is the buffer the latest `que.EnQue(s)` before it
// queued (`s = que.DeQue<T>()` keeps s's), so a DMA into s before the
// queue and a scalar read of t after it meet. The queue ops ('e', 'q')
// leave the list; a DeQue from a queue nothing enqueued here is an
// assignment.
func dequeued(ops []handoffOp) []handoffOp {
	queued := map[string]string{} // queue -> buffer root
	alias := map[string]string{}  // tensor -> buffer root
	out := ops[:0]
	for _, op := range ops {
		switch op.kind {
		case 'e':
			r := op.root
			if a, ok := alias[r]; ok {
				r = a
			}
			queued[op.from] = r
			continue
		case 'q':
			if r, ok := queued[op.from]; ok {
				if r == op.root {
					delete(alias, op.root)
				} else {
					alias[op.root] = r
				}
				continue
			}
			op.kind = 'a'
		}
		if op.kind == 'a' {
			delete(alias, op.root)
		} else if a, ok := alias[op.root]; ok {
			op.name, op.root = op.root, a
		}
		out = append(out, op)
	}
	return out
}

// sortOps orders ops by where they end (a call after its arguments; an
// assignment after its value).
func sortOps(ops []handoffOp) {
	for i := 1; i < len(ops); i++ {
		for j := i; j > 0 && ops[j].node.End < ops[j-1].node.End; j-- {
			ops[j], ops[j-1] = ops[j-1], ops[j]
		}
	}
}

// op reads one call.
func (h *handoffs) op(n *grammar.Node) (handoffOp, bool) {
	c, ok := cxx.AsCall(n)
	if !ok {
		return handoffOp{}, false
	}
	switch {
	case c.Receiver != nil && (c.Name == "SetValue" || c.Name == "GetValue"):
		if r := plainTensor(c.Receiver); r != "" && h.local(r) {
			kind := byte('r')
			if c.Name == "SetValue" {
				kind = 'w'
			}
			return handoffOp{node: n, kind: kind, root: r}, true
		}
	case c.Receiver == nil && c.NameNode != nil && c.NameNode.Kind() == "identifier" && !c.HasTArgs && len(c.Args) == 1 && h.local(c.Name):
		// t(i): a write when it is assigned to (the assignment is the
		// write).
		if p := n.Parent(); p != nil && p.Kind() == "assignment_expression" && p.ChildByField("left") != nil && p.ChildByField("left").Index() == n.Index() {
			return handoffOp{node: p, kind: 'w', root: c.Name}, true
		}
		return handoffOp{node: n, kind: 'r', root: c.Name}, true
	case c.Receiver == nil && (c.Name == "DataCopy" || c.Name == "DataCopyPad") && len(c.Args) >= 3:
		dst, src := c.Args[0], c.Args[1]
		if r := plainTensor(src); r != "" && h.local(r) && h.global(cxx.Root(dst)) {
			return handoffOp{node: n, kind: 'o', root: r}, true
		}
		if r := plainTensor(dst); r != "" && h.local(r) && h.global(cxx.Root(src)) {
			return handoffOp{node: n, kind: 'i', root: r}, true
		}
		return handoffOp{}, false
	}
	if s := h.callHandoff(c, 0); !s.none() {
		return handoffOp{node: n, kind: 's', sync: s}, true
	}
	return handoffOp{}, false
}

// plainTensor is the name of a tensor written as itself (`t`, `this->t`,
// `t[0]`), or "": a view at an offset may not cover what the other side
// touched.
func plainTensor(e *grammar.Node) string {
	e = cxx.Unparen(e)
	if e == nil {
		return ""
	}
	switch e.Kind() {
	case "identifier", "field_expression":
		return cxx.Root(e)
	case "subscript_expression":
		if idx := e.ChildByField("indices"); idx != nil && strings.Trim(strings.TrimSpace(idx.Text()), "[]") == "0" {
			return plainTensor(e.ChildByField("argument"))
		}
	}
	return ""
}

// local reports a name the unit declares only as LocalTensors.
func (h *handoffs) local(name string) bool { return h.declaredAs(name, "LocalTensor") }

// global reports a name the unit declares only as GlobalTensors.
func (h *handoffs) global(name string) bool { return h.declaredAs(name, "GlobalTensor") }

func (h *handoffs) declaredAs(name, typ string) bool {
	if name == "" {
		return false
	}
	if i := strings.LastIndexAny(name, ".>"); i >= 0 {
		name = name[i+1:]
	}
	ts := h.funcs.TypesOf(name)
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		if !strings.Contains(t, typ) {
			return false
		}
	}
	return true
}

// maxHandoffDepth bounds the helpers followed inside each other.
const maxHandoffDepth = 6

// callHandoff is what a call may hand off between pipes, to say less where
// unsure: everything for a barrier of every pipe, a SyncAll, TPipe's
// Destroy, a wait whose event is not a constant and an unresolved call
// named like a wait; its pair for a wait (`WaitFlag<HardEvent::MTE2_V>`,
// `wait_flag(PIPE_MTE2, PIPE_V, id)`, a project macro given the pipes,
// `WAIT_FLAG(MTE2, V, id)`) or a helper handed the event
// (`SyncFunc<HardEvent::S_MTE3>()`); what any wait of a project
// function's body hands off; the vector and DMA pipes' handoffs for the
// queue API.
func (h *handoffs) callHandoff(c cxx.Call, depth int) handoff {
	all := handoff{all: true}
	switch c.Name {
	case "PipeBarrier", "pipe_barrier":
		if p, _ := pipeOf(cxx.BarrierPipe(c)); p == allPipes || p == pipeS {
			return all
		}
		return handoff{}
	case "SyncAll":
		if c.Receiver == nil {
			return all
		}
	case "Destroy":
		if c.Receiver != nil && len(c.Args) == 0 {
			return all
		}
	case "EnQue", "DeQue", "AllocTensor", "FreeTensor":
		if c.Receiver != nil {
			return queueHandoff
		}
	case "SetValue", "GetValue", "DataCopy", "DataCopyPad":
		return handoff{}
	}
	if fc, ok := h.funcs.Forward(c); ok {
		c = fc
	}
	if op, ok := cxx.EventOfCall(c); ok {
		if op.Set {
			return handoff{}
		}
		return pairHandoff(op.Pair)
	}
	if strings.HasSuffix(c.Name, "EventID") || setterName(c.Name) && !strings.Contains(c.Name, "Wait") {
		return handoff{}
	}
	// A helper handed the event (`SyncFunc<HardEvent::V_S>()`).
	var out handoff
	for _, a := range append(append([]*grammar.Node(nil), c.TArgs...), c.Args...) {
		t := a.Text()
		if k := strings.LastIndex(t, "HardEvent::"); k >= 0 {
			out.add(pairHandoff(strings.TrimSpace(t[k+len("HardEvent::"):])))
		}
	}
	if !out.none() {
		return out
	}
	defs := h.funcs.Callees(c)
	if len(defs) == 0 {
		l := strings.ToLower(c.Name)
		if strings.Contains(l, "wait") && len(c.Args) >= 2 {
			// A project macro given the pipes: `WAIT_FLAG(MTE2, V, id)`.
			a, aok := pipeOf(c.Args[0].Text())
			b, bok := pipeOf(c.Args[1].Text())
			if aok && bok {
				return handoff{edges: []pipeEdge{{a, b}}}
			}
		}
		for _, k := range []string{"barrier", "sync", "wait", "fence", "drain"} {
			if strings.Contains(l, k) {
				return all
			}
		}
		return handoff{}
	}
	for _, d := range defs {
		out.add(h.helperHandoff(d.Node, depth))
	}
	return out
}

// setterName: `SetFlag`, `set_flag`, `SetEvent`; not `Settle`.
func setterName(name string) bool {
	for _, p := range []string{"Set", "set_"} {
		if r, ok := strings.CutPrefix(name, p); ok && (p == "set_" || r == "" || r[0] >= 'A' && r[0] <= 'Z' || r[0] == '_') {
			return true
		}
	}
	return false
}

// pairHandoff is what a wait on the event pair ("MTE2_V") hands off:
// everything when the pair is not a constant.
func pairHandoff(pair string) handoff {
	a, b, ok := strings.Cut(pair, "_")
	if !ok {
		return handoff{all: true}
	}
	from, fok := pipeOf(a)
	to, tok := pipeOf(b)
	if !fok || !tok {
		return handoff{all: true}
	}
	return handoff{edges: []pipeEdge{{from, to}}}
}

// helperHandoff is what the calls of a project function may hand off.
func (h *handoffs) helperHandoff(fn *grammar.Node, depth int) handoff {
	if s, ok := h.memo[fn]; ok {
		return s
	}
	if depth >= maxHandoffDepth {
		return handoff{all: true}
	}
	// A recursive call is taken as handing nothing off.
	h.memo[fn] = handoff{}
	var s handoff
	for _, n := range cxx.ExprCalls(fn.ChildByField("body")) {
		if c, ok := cxx.AsCall(n); ok {
			s.add(h.callHandoff(c, depth+1))
		}
		if s.all {
			break
		}
	}
	h.memo[fn] = s
	return s
}

// exclusive reports whether a and b sit in branches of one conditional
// that exclude each other (an if's two sides, two cases of a switch, two
// branches of an #if).
func exclusive(a, b, fn *grammar.Node) bool {
	return branchApart(a, b, fn) || branchApart(b, a, fn)
}

func branchApart(x, y, fn *grammar.Node) bool {
	for n := x.Parent(); n != nil && n.Index() != fn.Index() && !n.Contains(y); n = n.Parent() {
		switch n.Kind() {
		case "else_clause", "preproc_else", "preproc_elif", "case_statement":
			if p := n.Parent(); p != nil && p.Contains(y) {
				return true
			}
		}
	}
	return false
}

// leavesBetween reports a jump (return, break, continue, goto) between a
// and b: the path from one to the other may not be taken.
func leavesBetween(fn, a, b *grammar.Node) bool {
	ds := fn.Descendants()
	for i := range ds {
		n := &ds[i]
		if n.Start < a.End || n.Start >= b.Start {
			continue
		}
		switch n.Kind() {
		case "return_statement", "break_statement", "continue_statement", "goto_statement", "co_return_statement":
			return true
		}
	}
	return false
}
