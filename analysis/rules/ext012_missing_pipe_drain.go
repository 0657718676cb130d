package rules

import (
	"bytes"
	"cmp"
	"context"
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

// MissingPipeDrain flags an extern entry that can return with MTE3/FIX
// stores to GM still in flight.
var MissingPipeDrain = register(&analysis.Analyzer{
	Code:     "EXT012",
	Name:     "missing-pipe-drain",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "an extern entry must drain its MTE3/FIX stores before it returns: the runtime does not",
		What: "Follows each extern entry (and the workspace functions it calls, a few levels deep, in the file and its " +
			"includes) and flags the call that leaves a store to GM in flight at a return: `DataCopy`/`DataCopyPad` to a " +
			"`GlobalTensor`, `Fixpipe`, `copy_ubuf_to_gm`, `copy_matrix_cc_to_gm`, `TSTORE`, with no later " +
			"`PipeBarrier<PIPE_ALL>()` / `pipe_barrier(PIPE_ALL)`, barrier or wait on the MTE3/FIX pipe " +
			"(`PipeBarrier<PIPE_MTE3>`, `WaitFlag<HardEvent::MTE3_S>`, `wait_flag(PIPE_MTE3, PIPE_S, ...)`, a helper given the " +
			"event, `SyncFunc<HardEvent::MTE3_S>()`), `SyncAll` (hardware or software: both start with a `PIPE_ALL` " +
			"barrier), `TPipe::Destroy()` or a live TPipe whose destructor runs at the return (the entry's, also one declared in an " +
			"`#elif` or `#else` branch, a helper's own, destroyed as the helper returns, or one a block declares and does not " +
			"`Destroy()`, destroyed as the block ends or a return leaves it: `if ASCEND_IS_AIV { TPipe pipe; ... }`): the same drains EXT001 " +
			"counts. A wait whose event names another pipe second (`WaitFlag<HardEvent::MTE3_V>`) stalls that pipe, " +
			"not the scalar unit that returns, so it is not a drain here (the message names it); a barrier on the store " +
			"pipe alone (`PipeBarrier<PIPE_MTE3>`) is documented only as ordering that pipe, and is taken as a drain to say less. A cross-core " +
			"handshake drains too: a flag set on the store's own pipe (`CrossCoreSetFlag<2, PIPE_FIX>(ready)` after a `Fixpipe`, " +
			"`NotifyEvent<PIPE_MTE3>(id)` after a `DataCopy` out) leaves behind the store, and when the same function then waits for a " +
			"cross-core flag on that core (the consumer's `free` reply, `CrossCoreWaitFlag(free)`), the store is complete as the wait " +
			"returns; so it is when another core of the task waits for the flag (the lanes a cube's mode-2 set releases, in code a " +
			"kernel running the set also runs): the task ends only after that wait returns. A set on another pipe, or one nothing " +
			"waits for, is not. A method call runs its receiver's class's method of that name and arity (`cube.Process()` is not " +
			"`VecStage::Process(args)`). Each core is followed separately; a " +
			"drain counts when every path takes one: both sides of an `#if` on a project macro, every case of a `switch` " +
			"with a `default:`, the core's branch of an `#if defined(__DAV_VEC__)` / `#elif defined(__DAV_CUBE__)` in a " +
			"helper. Stores and drains inside the unit's macros count where the macro is used, function-like " +
			"(`STORE_OUT(t)`) or object-like (`FLUSH_ROWS;`), like a helper's; a macro pasting its arguments is read with them " +
			"put in (`PIPE_BARRIER(ALL)` of `#define PIPE_BARRIER(p) AscendC::PipeBarrier<PIPE_##p>()` drains). When the store is followed by a call to a project function whose definition is in an `#include` " +
			"that did not resolve, the finding is an `info` that names the call (set `include-dirs` or `-I`).",
		Why: "Every task is called from the runtime's poll loop as `kernel(args)`, and after it returns the runtime " +
			"reports the task done and starts the next one on that core without draining the pipes. DMA stores still " +
			"queued on MTE3 (or FIX on the cube) land after the consumer task was released: it reads stale GM, and the " +
			"next task's own pipe work races the tail of yours. A `PipeBarrier<PIPE_ALL>()` at the end (which the TPipe " +
			"destructor and `Destroy()` perform for AscendC-style kernels) makes the writes complete before the return.",
		Example:    "  AscendC::DataCopy(outGm[off], outUb, len);\n}   // returns with the store queued on MTE3",
		UseInstead: "  AscendC::DataCopy(outGm[off], outUb, len);\n  AscendC::PipeBarrier<PIPE_ALL>();\n}",
		FixSafety: "Safe: inserts `AscendC::PipeBarrier<PIPE_ALL>();` (`pipe_barrier(PIPE_ALL);` in a file that does not " +
			"use AscendC) on its own line before each return the store reaches; a full barrier only waits.",
		Guide: "§1 (runtime model), facts: How an extern is built and run",
	},
	Run: runMissingPipeDrain,
})

const (
	stClean uint8 = 1 // no store in flight
	stDirty uint8 = 2 // a store to GM may be in flight
	// stMaybe: a store was in flight, then a call the analysis cannot see
	// (a project function from an unresolved include) ran: it may drain.
	stMaybe  uint8 = 4
	inFlight       = stDirty | stMaybe
)

// drainFlow is the abstract state: which of clean/dirty/maybe is possible,
// and for a store in flight, the entry's call that left it, the store
// itself and (for maybe) the unseen call after it.
type drainFlow struct {
	mask   uint8
	origin *grammar.Node
	leaf   cxx.Hop
	unseen cxx.Hop
}

// union keeps the origin of a sure store in flight over one an unseen call
// may have drained.
func (a drainFlow) union(b drainFlow) drainFlow {
	out := a
	out.mask = a.mask | b.mask
	switch {
	case a.mask&stDirty != 0:
	case b.mask&stDirty != 0, a.mask&stMaybe == 0:
		out.origin, out.leaf, out.unseen = b.origin, b.leaf, b.unseen
	}
	return out
}

type drainExit struct {
	node *grammar.Node // return statement, or the body for falling off its end
	flow drainFlow
}

type summaryKey struct {
	fn   *grammar.Node
	core grammar.Cores
	in   uint8
}

type summary struct {
	out  drainFlow
	busy bool
}

type drainer struct {
	pass *analysis.Pass
	// blind is set when the unit has quoted includes that resolve to no
	// file: a project call with no definition may then be defined there.
	blind bool
	funcs *cxx.Funcs
	core  grammar.Cores
	memo  map[summaryKey]*summary
	// depth counts the callee bodies this walk is inside of since the
	// attempt it belongs to started (see settle); path lists them.
	depth int
	path  *[]pendingSummary
	exits []drainExit
	// jumps collects the states at break/continue, innermost loop or
	// switch last.
	jumps []jumpTargets
	// entry-level run: dirty flows get the entry's call as origin.
	top bool
	// loops memoizes a loop's outcome per incoming state: an enclosing
	// loop's second round reaches it again with a state seen before, and
	// without the memo the work doubles with each level of nesting. The
	// exits the loop reached were recorded by the first run.
	loops map[loopKey]drainFlow
	// replies holds each function's cross-core waits in source order,
	// found once per run (repliedTo).
	replies map[*grammar.Node][]*grammar.Node
	// waits holds the unit's cross-core waits by flag id, read once per
	// run and shared with the callees' walks (awaited).
	waits *unitWaits
}

// unitWaits are a unit's cross-core waits by flag id and its variance
// model, read on first use.
type unitWaits struct {
	byID map[int64][]*grammar.Node
	vm   *unit.VarianceModel
}

type loopKey struct {
	loop *grammar.Node
	in   drainFlow
}

func runMissingPipeDrain(pass *analysis.Pass) {
	entries := externEntries(pass)
	if len(entries) == 0 || !mayStoreToGM(pass) {
		return
	}
	funcs := pass.Closure().FuncIndex()
	blind := len(pass.Closure().UnresolvedIncludes()) > 0
	cores := kindCores(pass)
	for _, fn := range entries {
		if pass.Stopped() {
			return
		}
		body := fn.ChildByField("body")
		if body == nil {
			continue
		}
		type finding struct {
			origin *grammar.Node
			leaf   cxx.Hop
			unseen cxx.Hop
			exits  map[*grammar.Node]bool
			cores  grammar.Cores
			sure   bool // some exit has the store surely in flight
		}
		var order []*grammar.Node
		found := map[*grammar.Node]*finding{}
		replies := map[*grammar.Node][]*grammar.Node{}
		for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
			if cores&core == 0 || pass.Cores(fn)&core == 0 {
				continue
			}
			if hasLivePipe(pipeHolder(pass, funcs), fn, pass.Cores, core) {
				continue
			}
			d := &drainer{pass: pass, blind: blind, funcs: funcs, core: core, memo: map[summaryKey]*summary{}, top: true, path: new([]pendingSummary), replies: replies, waits: &unitWaits{}}
			end := d.settle(body)
			if end.mask != 0 {
				d.exits = append(d.exits, drainExit{node: body, flow: end})
			}
			for _, e := range d.exits {
				if e.flow.mask&inFlight == 0 || e.flow.origin == nil {
					continue
				}
				fd := found[e.flow.origin]
				if fd == nil {
					fd = &finding{origin: e.flow.origin, leaf: e.flow.leaf, unseen: e.flow.unseen, exits: map[*grammar.Node]bool{}}
					found[e.flow.origin] = fd
					order = append(order, e.flow.origin)
				}
				fd.exits[e.node] = true
				fd.cores |= core
				fd.sure = fd.sure || e.flow.mask&stDirty != 0
			}
		}
		for _, o := range order {
			fd := found[o]
			var exits []*grammar.Node
			for e := range fd.exits {
				exits = append(exits, e)
			}
			sort.Slice(exits, func(i, j int) bool { return exits[i].Start < exits[j].Start })
			d := drainDiagnostic(pass, fn, fd.origin, fd.leaf, exits, fd.cores, cores)
			if !fd.sure && fd.unseen.Call != nil {
				sayLess(pass, &d, fd.unseen, "drains it")
			}
			pass.Report(d)
		}
	}
}

func drainDiagnostic(pass *analysis.Pass, fn, origin *grammar.Node, leaf cxx.Hop, exits []*grammar.Node, found, all grammar.Cores) analysis.Diagnostic {
	what := "`" + shortText(origin) + "`"
	if leaf.Call != nil && leaf.Call != origin {
		line, _ := leaf.File.Lines.Position(leaf.Call.Start)
		what += fmt.Sprintf(" leaves `%s` (%s:%d)", shortText(leaf.Call), filepath.Base(leaf.File.Path), line+1)
	} else {
		what += " leaves its store"
	}
	where := ""
	if found != all {
		where = " on the " + coreName(found) + " core"
	}
	msg := what + " in flight when the extern returns" + where + ": the runtime does not drain pipes after a task, so " +
		"the write can land after the consumer starts"
	if w := pipeOnlyWait(pass.Closure().FuncIndex(), fn, origin); w != nil {
		line, _ := pass.File.Lines.Position(w.Start)
		msg += fmt.Sprintf("; `%s` (line %d) stalls only the pipe it names second, not the scalar unit that returns", shortText(w), line+1)
	}
	msg += "; add a `PipeBarrier<PIPE_ALL>()` before returning"
	barrier := "AscendC::PipeBarrier<PIPE_ALL>();"
	if !usesAscendC(pass) {
		barrier = "pipe_barrier(PIPE_ALL);"
	}
	var edits []analysis.TextEdit
	var related []analysis.Related
	for _, e := range exits {
		edits = append(edits, insertBeforeExit(pass.File.Src, e, barrier)...)
		if e.Kind() == "return_statement" {
			related = append(related, analysis.RelatedAt(pass.File, e, "returns here with the store in flight"))
		}
	}
	d := analysis.Diagnostic{Start: origin.Start, End: origin.End, Message: msg, Related: related}
	if len(edits) > 0 {
		d.Fixes = []analysis.Fix{{
			Title:         "Insert `" + barrier + "` before returning",
			Applicability: analysis.Safe,
			Edits:         edits,
		}}
	}
	return d
}

// pipeOnlyWait is the first wait after origin in fn that drains the store
// pipes for another pipe but not for the scalar unit
// (`WaitFlag<HardEvent::MTE3_V>`): what a reader takes for the drain.
func pipeOnlyWait(funcs *cxx.Funcs, fn, origin *grammar.Node) *grammar.Node {
	for _, n := range funcs.OwnCalls(fn) {
		if n.Start < origin.End {
			continue
		}
		c, ok := cxx.AsCall(n)
		if !ok {
			continue
		}
		if p, k := cxx.StoreDrain(c, funcs); k == cxx.Waits && p != 0 {
			if q, _ := cxx.ScalarDrain(c, funcs); q == 0 {
				return n
			}
		}
	}
	return nil
}

// sayLess turns a finding an unseen project call may make moot into a note
// that says so (`unless` the call does what would fix it), with the fixes
// offered as unsafe: the call's definition is in an include the analysis
// could not resolve. --statistics counts these notes.
func sayLess(pass *analysis.Pass, d *analysis.Diagnostic, unseen cxx.Hop, unless string) {
	d.Severity = analysis.SeverityInfo
	d.SaidLess = shortText(unseen.Call)
	d.Message += fmt.Sprintf("; unless `%s` %s: its definition is not in the files the analysis found "+
		"(an #include did not resolve: add its folder to `include-dirs` or pass `-I`)", shortText(unseen.Call), unless)
	for i := range d.Fixes {
		if d.Fixes[i].Applicability == analysis.Safe {
			d.Fixes[i].Applicability = analysis.Unsafe
		}
	}
	d.Related = append(d.Related, analysis.RelatedAt(unseen.File, unseen.Call, "called here; not defined in any file the analysis found"))
}

// unseenCall returns the first call fn (of file f) makes on cores, starting in [from,
// to) (and able to run before node before, when given), of a project function the analysis cannot
// see into: no definition in the unit while an #include of it did not
// resolve (so the definition may be there). nil when there is none.
func unseenCall(pass *analysis.Pass, funcs *cxx.Funcs, f *grammar.File, fn *grammar.Node, cores grammar.Cores, from, to uint32, before *grammar.Node) *grammar.Node {
	if len(pass.Closure().UnresolvedIncludes()) == 0 {
		return nil
	}
	calls := funcs.OwnCalls(fn)
	i := sort.Search(len(calls), func(i int) bool { return calls[i].Start >= from })
	for ; i < len(calls) && calls[i].Start < to; i++ {
		n := calls[i]
		c, ok := cxx.AsCall(n)
		at := f.CoresOf(n)
		if f == pass.File {
			at = pass.Cores(n)
		}
		if !ok || !cxx.MaybeProjectCall(c) || at&cores == grammar.None || len(funcs.Callees(c)) > 0 ||
			before != nil && !cxx.Precedes(n, before) || isGlobalTensorExpr(funcs, n.ChildByField("function")) {
			// `g(i) = v` on a GlobalTensor is an element access, not a call.
			continue
		}
		return n
	}
	return nil
}

func coreName(c grammar.Cores) string {
	if c == grammar.AIC {
		return "cube"
	}
	return "vector"
}

// shortText is a node's text on one line, shortened for a message.
func shortText(n *grammar.Node) string {
	s := strings.Join(strings.Fields(n.Text()), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// storeNames are the texts without which a file and its includes cannot
// issue a store to GM: a cheap way out before the flow analysis.
var storeNames = [][]byte{[]byte("DataCopy"), []byte("Fixpipe"), []byte("copy_ubuf_to_gm"), []byte("copy_matrix_cc_to_gm"), []byte("TSTORE")}

func mayStoreToGM(pass *analysis.Pass) bool {
	for _, f := range append([]*grammar.File{pass.File}, pass.Includes...) {
		if unit.FileFact(pass.Closure(), f, namesStoreKey) {
			return true
		}
	}
	return false
}

// namesStoreKey says whether a file holds one of storeNames: once per
// parse, not once per unit including it.
var namesStoreKey = &unit.FileKey[bool]{
	Name: "rules.namesStore",
	Compute: func(_ context.Context, f *grammar.File) bool {
		for _, s := range storeNames {
			if bytes.Contains(f.Src, s) {
				return true
			}
		}
		return false
	},
}

func usesAscendC(pass *analysis.Pass) bool {
	if bytes.Contains(pass.File.Src, []byte("AscendC::")) {
		return true
	}
	for _, f := range pass.Includes {
		if bytes.Contains(f.Src, []byte("AscendC::")) {
			return true
		}
	}
	return false
}

// insertBeforeExit inserts stmt on its own line before a return statement
// (wrapping a braceless `if (...) return;` in braces), or before the closing
// brace of a body that falls off its end.
func insertBeforeExit(src []byte, exit *grammar.Node, stmt string) []analysis.TextEdit {
	if exit.Kind() == "return_statement" {
		if p := exit.Parent(); p != nil && p.Kind() != "compound_statement" && !isPreprocBlock(p.Kind()) {
			return []analysis.TextEdit{
				{Start: exit.Start, End: exit.Start, NewText: "{ " + stmt + " "},
				{Start: exit.End, End: exit.End, NewText: " }"},
			}
		}
		indent, alone := cxx.StartsLine(src, exit.Start)
		if alone {
			ls := cxx.LineStart(src, exit.Start)
			return []analysis.TextEdit{{Start: ls, End: ls, NewText: indent + stmt + "\n"}}
		}
		return []analysis.TextEdit{{Start: exit.Start, End: exit.Start, NewText: stmt + " "}}
	}
	closing := exit.End - 1
	if exit.End == 0 || src[closing] != '}' {
		return nil // a body cut short by a syntax error: no safe place
	}
	indent, alone := cxx.StartsLine(src, closing)
	if !alone {
		return []analysis.TextEdit{{Start: closing, End: closing, NewText: " " + stmt + " "}}
	}
	inner := indent + "  "
	for _, k := range exit.NamedChildren() {
		if k.Kind() == "comment" || strings.HasPrefix(k.Kind(), "preproc_") {
			continue
		}
		if in, ok := cxx.StartsLine(src, k.Start); ok {
			inner = in
			break
		}
	}
	ls := cxx.LineStart(src, closing)
	return []analysis.TextEdit{{Start: ls, End: ls, NewText: inner + stmt + "\n"}}
}

// externEntries returns the extern "C" functions of the file that take the
// args pointer; without any, the args-taking functions nothing in the file
// calls.
func externEntries(pass *analysis.Pass) []*grammar.Node {
	var withArgs, entries []*grammar.Node
	for _, fn := range pass.Nodes("function_definition") {
		if _, ok := cxx.ArgsParam(pass.File, fn); !ok {
			continue
		}
		withArgs = append(withArgs, fn)
		if cxx.IsExternC(fn) {
			entries = append(entries, fn)
		}
	}
	if len(entries) > 0 || len(withArgs) == 0 {
		return entries
	}
	called := map[string]bool{}
	for _, n := range pass.Nodes("call_expression") {
		if c, ok := cxx.AsCall(n); ok {
			called[c.Name] = true
		}
	}
	for _, fn := range withArgs {
		if !called[cxx.FunctionName(fn)] {
			entries = append(entries, fn)
		}
	}
	return entries
}

// hasLivePipe reports whether fn's body declares an AscendC TPipe
// (directly, or as a member of a local kernel object) that is never
// Destroy()ed there: its destructor runs at every return of fn and ends
// with a PIPE_ALL barrier. cores are the cores that compile a node of fn.
func hasLivePipe(holds func(typ string) bool, fn *grammar.Node, cores func(*grammar.Node) grammar.Cores, core grammar.Cores) bool {
	body := fn.ChildByField("body")
	if body == nil {
		return false
	}
	destroyed := map[string]bool{}
	ds := body.Descendants()
	for i := range ds {
		// Only this core's: `#if __DAV_C220_CUBE__ TPipe pipe; pipe.Destroy();
		// #else TPipe pipe; ...` keeps the vector's pipe live.
		if c, ok := cxx.AsCall(&ds[i]); ok && c.Name == "Destroy" && c.Receiver != nil && cores(&ds[i])&core != 0 {
			destroyed[c.Receiver.Text()] = true
		}
	}
	for i := range ds {
		d := &ds[i]
		if d.Kind() != "declaration" {
			continue
		}
		// Only objects that live until the function returns: declared in
		// the body itself (or a branch of an #if there, `#elif` and
		// `#else` too), not in a nested block.
		p := d.Parent()
		for p != nil && p != body && isPreprocBlock(p.Kind()) {
			p = p.Parent()
		}
		if p != body {
			continue
		}
		if cores(d)&core == 0 || d.Ancestor("lambda_expression") != nil {
			continue
		}
		t := d.ChildByField("type")
		if t == nil {
			continue
		}
		if !holds(t.Text()) {
			continue
		}
		for _, decl := range d.ChildrenByField("declarator") {
			if name := objectName(decl); name != "" && !destroyed[name] {
				return true
			}
		}
	}
	return false
}

// pipeHolder reports whether a declared type builds a TPipe: TPipe
// itself, or a class holding one (a member of its own, of a base class, or
// of a member object's class: the unit's TPipe model).
func pipeHolder(pass *analysis.Pass, funcs *cxx.Funcs) func(typ string) bool {
	return func(t string) bool {
		if isAscendCPipeType(t) {
			return true
		}
		name := cxx.BaseName(t)
		return slices.ContainsFunc(funcs.FieldTypes(name), isAscendCPipeType) || pass.Closure().HoldsTPipe(name)
	}
}

func isAscendCPipeType(t string) bool {
	t = strings.TrimSpace(t)
	return t == "TPipe" || t == "AscendC::TPipe" || t == "::AscendC::TPipe"
}

// block runs the statements of a block-like node in order.
func (d *drainer) block(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	st := in
	for _, c := range n.NamedChildren() {
		if st.mask == 0 {
			break // unreachable
		}
		st = d.stmt(f, c, st)
	}
	if st.mask&inFlight != 0 && d.pipeBlock(f, n, n.End) {
		// `if ASCEND_IS_AIV { TPipe pipe; ... }`: the pipe's destructor
		// drains as the block ends.
		st = drainFlow{mask: stClean}
	}
	return st
}

// pipeBlock reports whether block n declares, among its own statements
// before offset at, a TPipe (or an object of a class holding one) this
// core builds: its destructor waits on the pipe's events and runs a
// PIPE_ALL barrier as the block ends, by its end or a return in it.
func (d *drainer) pipeBlock(f *grammar.File, n *grammar.Node, at uint32) bool {
	if n.Kind() != "compound_statement" || f != d.pass.File {
		return false
	}
	for _, c := range n.NamedChildren() {
		if c.Start >= at {
			break
		}
		if c.Kind() != "declaration" || d.pass.Cores(c)&d.core == 0 {
			continue
		}
		t := c.ChildByField("type")
		if t == nil || !pipeHolder(d.pass, d.funcs)(t.Text()) {
			continue
		}
		for _, decl := range c.ChildrenByField("declarator") {
			// A pipe the block Destroy()s (the create-then-destroy idiom)
			// has released its events: its destructor is not counted.
			if name := objectName(decl); name != "" && !destroysIn(n, name, func(c *grammar.Node) bool { return d.pass.Cores(c)&d.core != 0 }) {
				return true
			}
		}
	}
	return false
}

// objectName is the variable a declarator declares, also an object built
// from variables that parses like a function declaration (`Ctx ctx(args);`).
func objectName(decl *grammar.Node) string {
	if name := cxx.DeclaredName(decl); name != "" {
		return name
	}
	if v := cxx.VexingObject(decl); v != nil {
		return v.Text()
	}
	return ""
}

// destroysIn reports whether block calls `name.Destroy()` where on
// reports the call compiled.
func destroysIn(block *grammar.Node, name string, on func(*grammar.Node) bool) bool {
	for _, c := range block.Inside(block.Tree().OfKind("call_expression")) {
		if call, ok := cxx.AsCall(c); ok && call.Name == "Destroy" && call.Receiver != nil && call.Receiver.Text() == name && on(c) {
			return true
		}
	}
	return false
}

func (d *drainer) active(f *grammar.File, n *grammar.Node) bool {
	return f.CoresOf(n)&d.core != 0
}

func (d *drainer) stmt(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	// A conditional directive's node starts on its own line, which the
	// guard model counts with the branch before it: judge its statements,
	// not the node.
	if in.mask == 0 || !isPreprocBlock(n.Kind()) && !d.active(f, n) || d.pass.Stopped() {
		// (When the run stopped, what the walk finds is dropped.)
		return in
	}
	switch n.Kind() {
	case "comment", "preproc_call", "preproc_def", "preproc_function_def", "preproc_include":
		return in
	case "preproc_if", "preproc_ifdef":
		return d.preprocChain(f, n, in)
	case "compound_statement", "preproc_else", "preproc_elif", "preproc_elifdef",
		"else_clause", "labeled_statement", "case_statement", "try_statement", "catch_clause":
		return d.block(f, n, in)
	case "break_statement", "continue_statement":
		return d.jump(n, in)
	case "if_statement":
		return d.ifChain(f, n, in)
	case "for_statement", "while_statement", "for_range_loop", "do_statement":
		return d.loopOnce(f, n, in)
	case "switch_statement":
		return d.switchStmt(f, n, d.exprCalls(f, n.ChildByField("condition"), in))
	case "return_statement":
		return d.ret(f, n, in)
	default:
		if out, ok := d.objectMacro(n, in); ok {
			return out
		}
		return d.exprCalls(f, n, in)
	}
}

// The statements below are stmt's, each in a method of its own: stmt
// recurses through every call of a call chain (a callee's summary is
// run inside its call), and its frame holding all their locals made the
// stack of a chain of thousands of functions tens of MB.

// jump records a break or continue in the innermost loop or switch.
func (d *drainer) jump(n *grammar.Node, in drainFlow) drainFlow {
	k := len(d.jumps)
	if k == 0 {
		return in
	}
	j := &d.jumps[k-1]
	if n.Kind() == "break_statement" {
		j.brk = j.brk.union(in)
	} else if j.loop {
		j.cont = j.cont.union(in)
	} else {
		return in // continue inside a switch: the loop's, not modelled
	}
	return drainFlow{}
}

// loopOnce runs a loop from in once: the outcome is memoized.
func (d *drainer) loopOnce(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	k := loopKey{n, in}
	if out, ok := d.loops[k]; ok {
		return out
	}
	out := d.loop(f, n, in)
	if d.loops == nil {
		d.loops = map[loopKey]drainFlow{}
	}
	d.loops[k] = out
	return out
}

// ret records a return statement's flow as an exit.
func (d *drainer) ret(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	st := d.exprCalls(f, n, in)
	if st.mask&inFlight != 0 {
		// A return leaves the blocks around it: a pipe one of them
		// declared before it is destroyed, and drains, on the way out.
		for b := n.Parent(); b != nil && b.Kind() != "function_definition"; b = b.Parent() {
			if d.pipeBlock(f, b, n.Start) {
				st = drainFlow{mask: stClean}
				break
			}
		}
	}
	if d.top {
		d.exits = append(d.exits, drainExit{node: n, flow: st})
	} else {
		d.exits = append(d.exits, drainExit{flow: st})
	}
	return drainFlow{}
}

// ifChain runs an if statement and the else-if statements chained to it
// one after the other, not one inside the other's call: a chain of
// thousands would take a stack of tens of MB. The branches' flows are
// joined in order: union is associative.
func (d *drainer) ifChain(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	acc := drainFlow{} // the union of the branches run so far
	for {
		cond := n.ChildByField("condition")
		st := d.exprCalls(f, cond, in)
		cons := n.ChildByField("consequence")
		alt := n.ChildByField("alternative")
		if _, ok := grammar.CoreCondition(cond); ok {
			// A core test: on this core exactly one branch runs.
			out := drainFlow{}
			ran := false
			for _, b := range []*grammar.Node{cons, alt} {
				if b != nil && d.active(f, b) {
					out = out.union(d.stmt(f, b, st))
					ran = true
				}
			}
			if !ran {
				return acc.union(st)
			}
			return acc.union(out)
		}
		acc = acc.union(d.stmt(f, cons, st))
		if alt == nil {
			return acc.union(st)
		}
		next := d.elseIf(f, alt, st)
		if next == nil {
			return acc.union(d.stmt(f, alt, st))
		}
		n, in = next, st
	}
}

// elseIf returns the if statement that is all of the else clause alt when
// stmt would run it on in as the clause's block does, or nil.
func (d *drainer) elseIf(f *grammar.File, alt *grammar.Node, in drainFlow) *grammar.Node {
	c := cxx.ElseIf(alt)
	if c == nil || in.mask == 0 || !d.active(f, alt) || !d.active(f, c) || d.pass.Stopped() {
		return nil
	}
	return c
}

// loop runs a loop statement to its fixed point.
func (d *drainer) loop(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	st := in
	if n.Kind() == "for_statement" {
		st = d.exprCalls(f, n.ChildByField("initializer"), st)
	}
	body := n.ChildByField("body")
	d.jumps = append(d.jumps, jumpTargets{loop: true})
	if n.Kind() == "do_statement" {
		st = d.stmt(f, body, st)
		st = st.union(d.jumps[len(d.jumps)-1].cont)
	}
	// The state lattice has two bits, so two rounds reach the fixed
	// point: with the memo in stmt the cost stays linear in the body.
	acc := st
	cur := st
	for i := 0; i < 2 && cur.mask != 0; i++ {
		cur = d.stmt(f, body, cur)
		cur = cur.union(d.jumps[len(d.jumps)-1].cont)
		next := acc.union(cur)
		if next.mask == acc.mask {
			break
		}
		acc = next
	}
	j := d.jumps[len(d.jumps)-1]
	d.jumps = d.jumps[:len(d.jumps)-1]
	return acc.union(j.brk)
}

type jumpTargets struct {
	loop      bool // a loop (continue stops here) rather than a switch
	brk, cont drainFlow
}

// preprocChain runs an #if/#ifdef ... #elif ... #else chain for this core:
// the union of the branches its compile can take, and the state before the
// chain when it can take none (no #else and no branch known true).
func (d *drainer) preprocChain(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	out := drainFlow{}
	taken, sure := false, false
	hasElse := false
	for b := n; b != nil; b = b.ChildByField("alternative") {
		hasElse = hasElse || b.Kind() == "preproc_else"
		dir, ok := f.Guards.DirectiveAt(b.Start)
		if !ok {
			return d.block(f, n, in) // not a directive we scanned: keep the old reading
		}
		if f.Guards.CoresAt(dir.End)&d.core == 0 {
			continue
		}
		taken = true
		sure = sure || dir.Sure&d.core != 0
		st := in
		// Looked up once: a branch can hold a whole file's declarations.
		cond, name, alt := b.ChildByField("condition"), b.ChildByField("name"), b.ChildByField("alternative")
		for _, c := range b.NamedChildren() {
			if st.mask == 0 {
				break
			}
			if c == cond || c == name || c == alt {
				continue
			}
			st = d.stmt(f, c, st)
		}
		out = out.union(st)
	}
	if !taken {
		return in
	}
	if !hasElse && !sure {
		out = out.union(in)
	}
	return out
}

// switchStmt runs a switch body: control enters at any case label and falls
// through until a break; without a default label it can also skip the body.
func (d *drainer) switchStmt(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	body := n.ChildByField("body")
	if body == nil {
		return in
	}
	d.jumps = append(d.jumps, jumpTargets{})
	cur := drainFlow{}
	hasDefault := false
	for _, c := range body.NamedChildren() {
		if c.Kind() != "case_statement" {
			cur = d.stmt(f, c, cur)
			continue
		}
		if !d.active(f, c) {
			continue
		}
		if c.ChildByField("value") == nil {
			hasDefault = true
		}
		cur = cur.union(in)
		for _, s := range c.NamedChildren() {
			if cur.mask == 0 {
				break
			}
			if s == c.ChildByField("value") {
				continue
			}
			cur = d.stmt(f, s, cur)
		}
	}
	j := d.jumps[len(d.jumps)-1]
	d.jumps = d.jumps[:len(d.jumps)-1]
	out := cur.union(j.brk)
	if !hasDefault {
		out = out.union(in)
	}
	return out
}

// exprCalls applies the calls inside n (not inside lambdas defined there),
// innermost first.
func (d *drainer) exprCalls(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	if n == nil {
		return in
	}
	calls := cxx.ExprCalls(n)
	st := in
	for _, c := range calls {
		if st.mask == 0 {
			break
		}
		if d.active(f, c) {
			st = d.call(f, c, st)
		}
	}
	return st
}

func (d *drainer) call(f *grammar.File, n *grammar.Node, in drainFlow) drainFlow {
	defs, out := d.callees(f, n, in)
	if len(defs) == 0 {
		return out
	}
	return d.through(defs, n, in)
}

// callees are the definitions call n runs; with none, out is the flow
// after the call. Out of call, which recurses into the callees: the
// decoded call is not in its frame.
func (d *drainer) callees(f *grammar.File, n *grammar.Node, in drainFlow) (defs []cxx.FuncDef, out drainFlow) {
	c, ok := cxx.AsCall(n)
	if !ok {
		return nil, in
	}
	switch pipeEffect(d.funcs, c) {
	case pipeIssue:
		return nil, drainFlow{mask: stDirty, origin: n, leaf: cxx.Hop{File: f, Call: n}}
	case pipeDrain:
		return nil, drainFlow{mask: stClean}
	case pipeSignal:
		if in.mask&stDirty != 0 && storePipe(in.leaf.Call)&signalPipe(c) != 0 && (d.repliedTo(f, n) || d.awaited(n)) {
			// The flag leaves on the store's own pipe, behind the store,
			// and the function then waits for the consumer's reply, or
			// another core of the task waits for the flag: the store is
			// complete when that wait returns, before the task ends.
			out := in
			out.mask = in.mask&^stDirty | stClean
			return nil, out
		}
		return nil, in
	}
	if defs = d.funcs.Callees(c); len(defs) > 0 {
		// `cube.Process()` runs its class's Process, not another class's
		// `Process(args)`.
		defs = d.funcs.OfClass(n, c, defs)
		if fit := slices.DeleteFunc(slices.Clone(defs), func(def cxx.FuncDef) bool { return !cxx.Takes(def.Node, len(c.Args)) }); len(fit) > 0 {
			defs = fit
		}
		return defs, drainFlow{}
	}
	if d.blind && in.mask&stDirty != 0 && cxx.MaybeProjectCall(c) {
		out := in
		out.mask = in.mask&^stDirty | stMaybe
		if in.mask&stMaybe == 0 {
			out.unseen = cxx.Hop{File: f, Call: n}
		}
		return nil, out
	}
	return nil, in
}

// objectMacro runs a statement `NAME;` that uses an object-like macro of
// the unit whose body is statements (`#define STORE_OUT DataCopy(...)`)
// through the body, as a call of its shadow function; ok is false for any
// other statement.
func (d *drainer) objectMacro(n *grammar.Node, in drainFlow) (out drainFlow, ok bool) {
	name := cxx.StatementMacro(n)
	if name == "" || n.NamedChildren()[0].Kind() != "identifier" {
		return in, false
	}
	bodies := map[*grammar.Node]bool{}
	for _, m := range d.pass.Reach().Macros().ByName[name] {
		if !m.FuncLike && m.Def != nil {
			bodies[m.Def] = true
		}
	}
	var defs []cxx.FuncDef
	for _, def := range d.funcs.Lookup(name) {
		if bodies[def.Node] {
			defs = append(defs, def)
		}
	}
	if len(defs) == 0 {
		return in, false
	}
	return d.through(defs, n.NamedChildren()[0], in), true
}

// through runs the flow in across a call n of one of defs.
func (d *drainer) through(defs []cxx.FuncDef, n *grammar.Node, in drainFlow) drainFlow {
	out := drainFlow{}
	for i := range defs {
		if defs[i].Node.Contains(n) {
			out = out.union(in) // recursion: no new effect
			continue
		}
		for bit := stClean; bit <= stMaybe; bit <<= 1 {
			if in.mask&bit != 0 {
				out = out.union(returned(d.summary(defs[i], bit), n, in))
			}
		}
	}
	return out
}

// returned is the flow after call n that entered its callee with in and
// left it with s, the callee's summary. Out of through, which recurses
// into the callees: its locals are not in through's frame.
func returned(s drainFlow, n *grammar.Node, in drainFlow) drainFlow {
	r := s
	if r.mask&inFlight != 0 {
		if s.origin == nil {
			// The callee passes an incoming store through.
			r.origin, r.leaf = in.origin, in.leaf
			if r.unseen.Call == nil {
				r.unseen = in.unseen
			}
		} else {
			r.origin = n
		}
	}
	return r
}

// summary runs a callee's body from a clean or dirty start. The dirty flow
// it returns has a nil origin when the store is the caller's, passed
// through, and the callee's own store as leaf otherwise.
func (d *drainer) summary(def cxx.FuncDef, in uint8) drainFlow {
	key := summaryKey{def.Node, d.core, in}
	if s, ok := d.memo[key]; ok {
		if s.busy {
			return drainFlow{mask: in}
		}
		return s.out
	}
	s := &summary{busy: true}
	d.memo[key] = s
	if def.Body() == nil || len(d.memo) > drainMemoCap {
		s.out, s.busy = drainFlow{mask: in}, false
		return s.out
	}
	p := pendingSummary{def: def, in: in, s: s}
	if d.depth >= maxDrainDepth {
		panic(deepSummary{p})
	}
	*d.path = append(*d.path, p)
	out := d.walkSummary(def, in)
	*d.path = (*d.path)[:len(*d.path)-1]
	s.out, s.busy = out, false
	return out
}

// walkSummary walks a callee's body from in: summary's work, once the
// key is in the memo (busy).
func (d *drainer) walkSummary(def cxx.FuncDef, in uint8) drainFlow {
	body := def.Body()
	sub := d.sub()
	out := sub.block(def.File, body, drainFlow{mask: in})
	for _, e := range sub.exits {
		out = out.union(e.flow)
	}
	if out.mask&inFlight != 0 && hasLivePipe(pipeHolder(d.pass, d.funcs), def.Node, def.File.CoresOf, d.core) {
		// A helper's own TPipe is destroyed as it returns: its
		// destructor's PIPE_ALL barrier completes what is in flight.
		return drainFlow{mask: stClean}
	}
	if out.mask&inFlight != 0 && out.origin != nil {
		// Any non-nil origin marks the store as the callee's.
		out.origin = body
	}
	return out
}

// sub is a drainer for a callee's body, sharing d's memo. On the heap, not
// in summary's frame: summary recurses through every call of a call chain.
//
//go:noinline
func (d *drainer) sub() *drainer {
	return &drainer{pass: d.pass, blind: d.blind, funcs: d.funcs, core: d.core, memo: d.memo, depth: d.depth + 1, path: d.path, replies: d.replies, waits: d.waits}
}

// drainMemoCap bounds the summaries one entry's walk of a core computes;
// past it a callee is taken to pass its incoming state through.
var drainMemoCap = 4096

// maxDrainDepth bounds the callee bodies one attempt of settle walks
// inside each other. A chain of thousands of helpers, each calling the
// one before, recursed once per helper: about 2 KB of stack each, a
// goroutine stack of 8 MB on a 2 MB file (and its earlier copies, freed
// into the heap the process keeps).
var maxDrainDepth = 64

// pendingSummary is a callee summary in the memo, busy, whose walk has
// not finished.
type pendingSummary struct {
	def cxx.FuncDef
	in  uint8
	s   *summary
}

// deepSummary unwinds an attempt of settle when a walk maxDrainDepth
// callees deep needs the summary p the memo does not have.
type deepSummary struct{ p pendingSummary }

// settle walks the entry body as block would, with callee summaries
// computed maxDrainDepth deep at most. A summary past that depth unwinds
// the attempt; the summaries the attempt was inside of, and the deep one,
// are then walked from the innermost out, each in an attempt of its own,
// and the attempt is made again. The memo gets the same keys in the same
// order as one recursive walk (the cap on its size counts them), and the
// ones the unwinding left busy stay busy until walked, as they would be on
// the recursive walk's stack: a walk run again finds what its first run
// found. Each summary's walk runs at most twice.
func (d *drainer) settle(body *grammar.Node) drainFlow {
	var todo []pendingSummary
	for {
		*d.path = (*d.path)[:0]
		var out drainFlow
		var deep *deepSummary
		if len(todo) == 0 {
			d.exits, d.jumps, d.loops = nil, nil, nil
			out, deep = cxx.Attempt[drainFlow, deepSummary](func() drainFlow { return d.block(d.pass.File, body, drainFlow{mask: stClean}) })
			if deep == nil {
				return out
			}
		} else {
			p := todo[len(todo)-1]
			out, deep = cxx.Attempt[drainFlow, deepSummary](func() drainFlow { return d.walkSummary(p.def, p.in) })
			if deep == nil {
				p.s.out, p.s.busy = out, false
				todo = todo[:len(todo)-1]
				continue
			}
		}
		todo = append(todo, *d.path...)
		todo = append(todo, deep.p)
	}
}

type pipeEffectKind int

const (
	pipeNone pipeEffectKind = iota
	pipeIssue
	pipeDrain
	// pipeSignal: a cross-core set issued on a store pipe
	// (`CrossCoreSetFlag<2, PIPE_FIX>(ready)`, `NotifyEvent<PIPE_FIX>(id)`)
	// that the function follows with a cross-core wait, the consumer's
	// reply (`CrossCoreWaitFlag(free)`).
	pipeSignal
)

// signalPipe is the store pipe a cross-core set is issued on; 0 for any
// other call.
func signalPipe(c cxx.Call) uint8 {
	pipe := cxx.SetPipe(c)
	if pipe == nil {
		return 0
	}
	switch strings.TrimPrefix(strings.TrimSpace(pipe.Text()), "PIPE_") {
	case "FIX":
		return cxx.PipeFIX
	case "MTE3":
		return cxx.PipeMTE3
	}
	return 0
}

// repliedTo reports whether the function making the set waits for a
// cross-core flag after it, on a core that makes the set, where a run
// that makes the set can go (not in the other branch of a lane test).
func (d *drainer) repliedTo(f *grammar.File, set *grammar.Node) bool {
	fn := cxx.EnclosingFunction(set)
	if fn == nil || fn.ChildByField("body") == nil {
		return false
	}
	waits, ok := d.replies[fn]
	if !ok {
		for _, n := range d.funcs.OwnCalls(fn) {
			switch cxx.CallName(n) {
			case "CrossCoreWaitFlag", "WaitEvent", "wait_flag_dev":
				waits = append(waits, n)
			}
		}
		d.replies[fn] = waits
	}
	cores := f.CoresOf(set)
	i, _ := slices.BinarySearchFunc(waits, set.End, func(n *grammar.Node, end uint32) int { return cmp.Compare(n.Start, end) })
	for _, n := range waits[i:] {
		if f.CoresOf(n)&cores != grammar.None && unit.ApartInRun(set, n, fn) == unit.Together {
			return true
		}
	}
	return false
}

// awaited reports whether a cross-core wait of the unit on one of the
// flag ids of the set at n, outside its function or on a core that does
// not make it, in a function a kernel running the set also runs, waits: a core of the same task (the
// lanes a cube's mode-2 set releases) that returns only after the set,
// which leaves behind the store.
func (d *drainer) awaited(set *grammar.Node) bool {
	fc, ok := cxx.AsFlagCall(set, d.pass.Reach().Consts())
	if !ok || len(fc.Flags) == 0 {
		return false
	}
	if d.waits.byID == nil {
		d.waits.byID = map[int64][]*grammar.Node{}
		u := d.pass.Reach()
		for _, s := range reachFlagSites(d.pass, append(append([]*grammar.File(nil), u.Headers()...), d.pass.File), u.Consts()) {
			if s.Kind == cxx.FlagWait {
				for _, id := range s.Flags {
					d.waits.byID[id] = append(d.waits.byID[id], s.Node)
				}
			}
		}
	}
	fn := cxx.EnclosingFunction(set)
	setCores := d.coresAt(set)
	for _, id := range fc.Flags {
		for _, w := range d.waits.byID[id] {
			other := fn == nil || !fn.Contains(w) || d.coresAt(w)&^setCores != grammar.None
			if other && d.variance().SameKernel(set, w) {
				return true
			}
		}
	}
	return false
}

// coresAt is the cores that compile n, in whichever file of the unit
// holds it.
func (d *drainer) coresAt(n *grammar.Node) grammar.Cores {
	u := d.pass.Reach()
	for _, f := range u.Files {
		if f.Tree == n.Tree() {
			return u.CoresOf(f, n)
		}
	}
	return grammar.Both
}

// variance is the unit's variance model, asked for once.
func (d *drainer) variance() *unit.VarianceModel {
	if d.waits.vm == nil {
		d.waits.vm = d.pass.Closure().Variance(d.pass.Spend)
	}
	return d.waits.vm
}

// storePipe is the pipe a store call leaves on: FIX for the L0C copies,
// MTE3 for UB to GM; both when the call does not say (a pto TSTORE, or a
// store in a callee the flow does not name).
func storePipe(n *grammar.Node) uint8 {
	if n == nil {
		return cxx.StorePipes
	}
	switch cxx.CallName(n) {
	case "Fixpipe":
		return cxx.PipeFIX
	case "DataCopy", "DataCopyPad":
		return cxx.PipeMTE3
	}
	if name := cxx.CallName(n); strings.HasPrefix(name, "copy_matrix_cc_to_gm") {
		return cxx.PipeFIX
	} else if strings.HasPrefix(name, "copy_ubuf_to_gm") {
		return cxx.PipeMTE3
	}
	return cxx.StorePipes
}

// pipeEffect classifies a call: a store to GM on MTE3/FIX, a wait that
// drains those pipes for the scalar unit that returns (cxx.ScalarDrain,
// shared with EXT001), or
// neither.
func pipeEffect(funcs *cxx.Funcs, c cxx.Call) pipeEffectKind {
	if pipes, k := cxx.ScalarDrain(c, funcs); k == cxx.Waits && pipes != 0 {
		return pipeDrain
	}
	switch c.Name {
	case "Fixpipe", "TSTORE":
		if c.Receiver == nil {
			return pipeIssue
		}
	case "DataCopy", "DataCopyPad":
		if c.Receiver == nil && len(c.Args) >= 2 && isGlobalTensorExpr(funcs, c.Args[0]) {
			return pipeIssue
		}
	}
	if strings.HasPrefix(c.Name, "copy_ubuf_to_gm") || strings.HasPrefix(c.Name, "copy_matrix_cc_to_gm") {
		return pipeIssue
	}
	if signalPipe(c) != 0 {
		return pipeSignal
	}
	return pipeNone
}

// isGlobalTensorExpr reports whether a DataCopy destination is a GM tensor:
// its name (through `x[i]`, `this->x`, `obj.x`) is declared as a
// GlobalTensor; when the name is declared nowhere in the workspace, a `Gm`
// in its name decides.
func isGlobalTensorExpr(funcs *cxx.Funcs, e *grammar.Node) bool {
	e = cxx.Unparen(e)
	for e != nil {
		switch e.Kind() {
		case "subscript_expression":
			e = e.ChildByField("argument")
			continue
		case "field_expression":
			e = e.ChildByField("field")
			continue
		case "call_expression":
			return false
		}
		break
	}
	if e == nil {
		return false
	}
	name := e.Text()
	types := funcs.TypesOf(name)
	if len(types) == 0 {
		l := strings.ToLower(name)
		return strings.Contains(l, "gm") && !strings.Contains(l, "ub") && !strings.Contains(l, "local")
	}
	for _, t := range types {
		if strings.Contains(t, "GlobalTensor") {
			return true
		}
	}
	return false
}
