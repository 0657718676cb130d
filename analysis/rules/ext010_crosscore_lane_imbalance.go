package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// CrossCoreLaneImbalance flags a cluster-scoped cross-core flag set that
// only one of the two vector lanes executes.
var CrossCoreLaneImbalance = register(&analysis.Analyzer{
	Code:     "EXT010",
	Name:     "crosscore-lane-imbalance",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Doc: analysis.Doc{
		Summary: "a mode-2 (or mode-1) flag set needs both vector lanes of the cluster; one lane setting it deadlocks the wait",
		What: "Flags `CrossCoreSetFlag<1|2, pipe>(id)`, `NotifyEvent<pipe>(id)` and raw `ffts_cross_core_sync(pipe, cfg)` " +
			"with mode 1 or 2 that the vector core compiles under a condition on the sub-block (lane) id: " +
			"`get_sub_block_id(args)`, `GetSubBlockIdx()`, `get_subblockid()`, or a value derived from them (a local, a " +
			"member, a helper's return, a parameter every caller passes a lane value to (callers in the unit's other files too, as a " +
			"header's helper called from the kernel), a variable assigned under a " +
			"lane test, a GM word read at a lane's own address; a field of a value object — a local declared by value, a parameter, or, " +
			"in a method run on such an object, its class's own fields — holds what was stored in that object by its constructor, " +
			"its assignments and the unit's methods run on it or handed it, not what every object's field of that name holds); and such sets after a `return` under a lane condition in " +
			"the same function. Silent when both branches of the lane test set the same flag (also when the branch holding the set " +
			"returns and the function sets the flag again after the test, or ends in `continue` and the loop's body sets it " +
			"again after the test, or the lane that returns sets it first), " +
			"for sets both lanes reach (unconditional code, loops, a test for the last iteration of the counted loop " +
			"around it: `for (i = 0; i < n; ++i) { if (i == n - 1) set(X); }` sets once per lane whatever its `n`), and for conditions both lanes of the cluster agree on: tiling fields, args " +
			"scalars, core counts, template arguments, constants and the block id (`get_block_idx(args)`). " +
			"Also flags a vector `CrossCoreWaitFlag(id)` (or a wrapper's call given the flag) that only one lane runs, " +
			"under the same lane tests, when the cube sets that flag with mode 2 (the same id, or the same flag object " +
			"passed by name; the cube's code under a core test or in an `operator()<AscendC::AIC>`): a lane whose share " +
			"of the rows is 0 skipping the wait of its row loop. Only a function whose waits on the flag are all under " +
			"that lane test is judged (a lane with no rows often waits in a test of its own beside the row loop's " +
			"first-pass wait), and only beside a cube set under no test the lanes may disagree on. Silent when both " +
			"branches wait, when the branch holding the wait returns and the function waits again after the test, " +
			"and when the function lets the lanes that skip leave first through a lane test that waits before it " +
			"returns (`if (rows == 0) { CrossCoreWaitFlag(id); return; }`).",
		Why: "Mode 2 pairs one cube with its two vector lanes and mode 1 the two lanes of a cluster: the flag counts the " +
			"sets of the whole group, and the waiting side is released only after every member has set it. The cube's " +
			"`CrossCoreWaitFlag(id)` after a mode-2 handshake waits for both vector lanes. When only lane 0 (or lane 1) " +
			"executes the set, the count never completes: the waiter spins until the scheduler times out (507018). Let " +
			"both lanes set the flag (split the work by lane, not the handshake). The other way round, the cube's " +
			"mode-2 set gives each lane of its cluster a count that the lane takes with its own wait: a lane that " +
			"skips the wait keeps the count, so its next wait on the flag returns before the cube has set it again " +
			"(and reads data the cube has not written yet), and counts pile up.",
		Example: "if (get_sub_block_id(args) == 0) {\n  AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);\n}",
		UseInstead: "if (get_sub_block_id(args) == 0) {\n  /* lane-0 work */\n}\n" +
			"AscendC::CrossCoreSetFlag<2, PIPE_MTE3>(kQkReady);   // both lanes",
		FixSafety: "Display only: a sketch that moves the set after the lane test. Whether the other lane may signal " +
			"before its own share of the work is done depends on the kernel.",
		Guide: "§5",
	},
	Run: runCrossCoreLaneImbalance,
})

func runCrossCoreLaneImbalance(pass *analysis.Pass) {
	var sets []cxx.FlagCall
	for _, fc := range fileFlagOps(pass) {
		if fc.Kind == cxx.FlagSet && fc.ModeKnown && (fc.Mode == 1 || fc.Mode == 2) && pass.Cores(fc.Node)&grammar.AIV != 0 {
			sets = append(sets, fc)
		}
	}
	if bytes.Contains(pass.File.Src, []byte("Wait")) && readsLane(pass) {
		laneSkippedWaits(pass)
	}
	if len(sets) == 0 {
		return
	}
	// The unit's variance, not the file's: a header's helper tests a lane
	// its includer passes in (`publish(get_sub_block_id(args))`).
	vm := pass.Reach().Variance(pass.Spend)
	// Each function's sets, gathered once: handing every function every
	// set of the file is quadratic in a file of many small functions.
	fns := make([]*grammar.Node, len(sets))
	inFn := map[*grammar.Node][]*grammar.Node{}
	for i := range sets {
		if fn := cxx.EnclosingFunction(sets[i].Node); fn != nil {
			fns[i] = fn
			inFn[fn] = append(inFn[fn], sets[i].Node)
		}
	}
	scopes := map[*grammar.Node]*laneScopes{}
	for i := range sets {
		if pass.Stopped() {
			return
		}
		fc := &sets[i]
		fn := fns[i]
		if fn == nil {
			continue
		}
		ls := scopes[fn]
		if ls == nil {
			ls = newLaneScopes(pass, vm, fn, inFn[fn])
			scopes[fn] = ls
		}
		what := flagCallText(fc)
		if c := laneCondition(vm, fc, ls.conds[fc.Node], sets); c != nil {
			d := analysis.Diagnostic{
				Start: fc.Node.Start,
				End:   fc.Node.End,
				Message: fmt.Sprintf("%s only runs on the vector lane that passes `%s`: the mode-%d flag is released "+
					"only after both lanes of the cluster set it, so the waiting core deadlocks; set it on both lanes",
					what, conditionText(c), fc.Mode),
			}
			if fix, ok := moveOutOfCondition(pass, fc.Node, c); ok {
				d.Fixes = []analysis.Fix{fix}
			}
			pass.Report(d)
			continue
		}
		if r, c := ls.returnBefore(fc.Node); r != nil && !setBeforeReturn(c, r, fc, sets) {
			line, _ := pass.File.Lines.Position(r.Start)
			pass.Report(analysis.Diagnostic{
				Start: fc.Node.Start,
				End:   fc.Node.End,
				Message: fmt.Sprintf("%s is skipped by the lane that returns under `%s` (line %d): the mode-%d flag "+
					"is released only after both lanes of the cluster set it, so the waiting core deadlocks",
					what, conditionText(c), line+1, fc.Mode),
				Related: []analysis.Related{analysis.RelatedAt(pass.File, r, "this lane leaves before setting the flag")},
			})
		}
	}
}

func flagCallText(fc *cxx.FlagCall) string {
	return "`" + shortText(fc.Node) + "`"
}

// laneCondition returns the innermost lane test among conds that decides
// whether the set runs, unless the test's other branch sets the same flag.
func laneCondition(vm *unit.VarianceModel, fc *cxx.FlagCall, conds []*grammar.Node, sets []cxx.FlagCall) *grammar.Node {
	for _, c := range conds {
		switch c.Kind() {
		case "if_statement", "switch_statement", "conditional_expression", "binary_expression":
		default:
			continue // loops: every lane runs them
		}
		if vm.Condition(c, grammar.AIV)&unit.VarLane == 0 || cubeConjunct(c) || lastIteration(c) {
			continue
		}
		if c.Kind() == "if_statement" && (bothBranchesSet(c, fc, sets) || setAfterExit(c, fc, sets)) {
			continue
		}
		return c
	}
	return nil
}

// cubeConjunct reports whether an if's condition requires the cube core
// (`if (postFlag && g_coreType == AscendC::AIC)`): what it guards runs on
// no vector lane, whatever the other conjuncts test.
func cubeConjunct(c *grammar.Node) bool {
	if c.Kind() != "if_statement" {
		return false
	}
	cond := c.ChildByField("condition")
	if cond == nil {
		return false
	}
	var conj func(n *grammar.Node) bool
	conj = func(n *grammar.Node) bool {
		for n.Kind() == "parenthesized_expression" || n.Kind() == "condition_clause" {
			inner := n.NamedChildren()
			if len(inner) != 1 {
				return false
			}
			n = inner[0]
		}
		if n.Kind() != "binary_expression" {
			return strings.TrimSpace(n.Text()) == "ASCEND_IS_AIC"
		}
		op := n.ChildByField("operator")
		l, r := n.ChildByField("left"), n.ChildByField("right")
		if op == nil || l == nil || r == nil {
			return false
		}
		switch op.Text() {
		case "&&":
			return conj(l) || conj(r)
		case "==":
			lt, rt := strings.TrimSpace(l.Text()), strings.TrimSpace(r.Text())
			isAIC := func(s string) bool { return s == "AscendC::AIC" || s == "AIC" }
			return lt == "g_coreType" && isAIC(rt) || rt == "g_coreType" && isAIC(lt)
		}
		return false
	}
	return conj(cond)
}

// bothBranchesSet reports whether each branch of a lane test sets the same
// flag with the same mode (`if (lane == 0) set(X); else set(X);`).
func bothBranchesSet(ifs *grammar.Node, fc *cxx.FlagCall, sets []cxx.FlagCall) bool {
	cons, alt := ifs.ChildByField("consequence"), ifs.ChildByField("alternative")
	if cons == nil || alt == nil {
		return false
	}
	other := alt
	if alt.Contains(fc.Node) {
		other = cons
	}
	for i := range sets {
		o := &sets[i]
		if o.Node == fc.Node || !other.Contains(o.Node) || o.Mode != fc.Mode {
			continue
		}
		if sameFlag(fc, o) {
			return true
		}
	}
	return false
}

// setAfterExit reports whether the block holding the set, inside the lane
// test, sets it unconditionally and then returns, and the function sets
// the same flag after the test (`if (lane > 0) { set(X); return; } ...
// set(X);`, also from a nested branch: `if (lane == 1) { if (rows > 1)
// {...} else { set(X); return; } }`): each lane sets it once. A block
// ending in `continue` leaves the iteration only: the same set after the
// test in the loop's body balances it, once per iteration.
func setAfterExit(ifs *grammar.Node, fc *cxx.FlagCall, sets []cxx.FlagCall) bool {
	fn := cxx.EnclosingFunction(ifs)
	blk := fc.Node.Ancestor("compound_statement")
	if fn == nil || blk == nil || !ifs.Contains(blk) || !directlyIn(blk, fc.Node) {
		return false
	}
	within := fn
	if !exits(blk) {
		last := blk
		for last != nil && last.Kind() == "compound_statement" && len(last.NamedChildren()) > 0 {
			last = last.NamedChildren()[len(last.NamedChildren())-1]
		}
		if last == nil || last.Kind() != "continue_statement" {
			return false
		}
		if within = enclosingLoop(ifs, fn); within == nil {
			return false
		}
	}
	for i := range sets {
		o := &sets[i]
		if o.Node.Start >= ifs.End && within.Contains(o.Node) && o.Mode == fc.Mode && sameFlag(fc, o) {
			return true
		}
	}
	return false
}

// directlyIn reports whether n runs whenever block blk runs to its end: no
// branch or loop of blk holds it.
func directlyIn(blk, n *grammar.Node) bool {
	for p := n.Parent(); p != nil && p != blk; p = p.Parent() {
		switch p.Kind() {
		case "if_statement", "for_statement", "while_statement", "do_statement", "switch_statement",
			"for_range_loop", "conditional_expression", "compound_statement", "lambda_expression":
			return false
		case "binary_expression":
			if op := p.ChildByField("operator"); op != nil && (op.Text() == "&&" || op.Text() == "||") {
				return false
			}
		}
	}
	return true
}

// enclosingLoop is the innermost loop around n in fn, nil for none.
func enclosingLoop(n, fn *grammar.Node) *grammar.Node {
	for p := n.Parent(); p != nil && p != fn; p = p.Parent() {
		if isLoop(p) {
			return p
		}
	}
	return nil
}

// setBeforeReturn reports whether the lane that returns under cond sets
// the same flag before it returns (`if (lane > 0) { set(X); return; }`).
func setBeforeReturn(cond, ret *grammar.Node, fc *cxx.FlagCall, sets []cxx.FlagCall) bool {
	for i := range sets {
		o := &sets[i]
		if o.Node != fc.Node && cond.Contains(o.Node) && o.Node.End <= ret.Start && o.Mode == fc.Mode && sameFlag(fc, o) {
			return true
		}
	}
	return false
}

// lastIteration reports whether an if tests for the last iteration of the
// counted loop around it (`for (i = 0; i < n; ++i) { if (i == n - 1) ...
// }`): every lane that runs the loop passes it once, whatever its n.
func lastIteration(ifs *grammar.Node) bool {
	if ifs.Kind() != "if_statement" {
		return false
	}
	cond := cxx.ConditionOf(ifs)
	for cond != nil && (cond.Kind() == "parenthesized_expression" || cond.Kind() == "condition_clause") && len(cond.NamedChildren()) == 1 {
		cond = cond.NamedChildren()[0]
	}
	if cond == nil || cond.Kind() != "binary_expression" || cond.ChildByField("operator").Text() != "==" {
		return false
	}
	flat := func(n *grammar.Node) string { return strings.Join(strings.Fields(n.Text()), "") }
	l, r := flat(cond.ChildByField("left")), flat(cond.ChildByField("right"))
	for loop := ifs.Parent(); loop != nil && loop.Kind() != "function_definition"; loop = loop.Parent() {
		if loop.Kind() != "for_statement" {
			continue
		}
		i, n, ok := countedLoop(loop)
		if !ok {
			continue
		}
		if l == i && (r == n+"-1") || r == i && (l == n+"-1") || l == i+"+1" && r == n || r == i+"+1" && l == n {
			return true
		}
	}
	return false
}

// countedLoop reads `for (T i = 0; i < n; ++i)` (or i++, i += 1): the
// counter and the bound, without spaces.
func countedLoop(loop *grammar.Node) (i, n string, ok bool) {
	flat := func(n *grammar.Node) string {
		if n == nil {
			return ""
		}
		return strings.Join(strings.Fields(n.Text()), "")
	}
	init, cond, upd := flat(loop.ChildByField("initializer")), loop.ChildByField("condition"), flat(loop.ChildByField("update"))
	if cond == nil || cond.Kind() != "binary_expression" || cond.ChildByField("operator").Text() != "<" {
		return "", "", false
	}
	i, n = flat(cond.ChildByField("left")), flat(cond.ChildByField("right"))
	if !strings.HasSuffix(strings.TrimSuffix(init, ";"), i+"=0") || upd != "++"+i && upd != i+"++" && upd != i+"+=1" {
		return "", "", false
	}
	return i, n, true
}

func sameFlag(a, b *cxx.FlagCall) bool {
	if len(a.Flags) > 0 && len(b.Flags) > 0 {
		for _, x := range a.Flags {
			if b.HasFlag(x) {
				return true
			}
		}
		return false
	}
	x := flagArgText(a)
	return x != "" && x == flagArgText(b)
}

// laneScopes is, for one function, the lane tests around the nodes EXT010
// asks about, from one walk of the function: cxx.Conditions per node walks
// up the tree, which is quadratic in an else-if chain.
type laneScopes struct {
	// conds are, per asked node, its Conditions that test the lane,
	// innermost first.
	conds map[*grammar.Node][]*grammar.Node
	// returns are the function's own returns the vector core reaches
	// under a lane test, in source order, with the innermost such test
	// (the first of their Conditions that does not contain a later node
	// when any does) and the least end of those tests up to each.
	returns []laneReturn
	minEnd  []uint32
}

type laneReturn struct{ ret, cond *grammar.Node }

func newLaneScopes(pass *analysis.Pass, vm *unit.VarianceModel, fn *grammar.Node, nodes []*grammar.Node) *laneScopes {
	ls := &laneScopes{conds: map[*grammar.Node][]*grammar.Node{}}
	asked := map[*grammar.Node]bool{}
	for _, n := range nodes {
		if fn.Contains(n) {
			asked[n] = true
		}
	}
	type frame struct {
		last int
		// lane: the node is under a lane test pushed for it; nested: a
		// function or lambda inside fn.
		lane, nested bool
	}
	var stack []frame
	var lanes []*grammar.Node // the lane tests around the walk, outermost first
	nested := 0
	desc := fn.Descendants()
	for k := 1; k < len(desc); k++ {
		n := &desc[k]
		for len(stack) > 0 && stack[len(stack)-1].last < n.Index() {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.lane {
				lanes = lanes[:len(lanes)-1]
			}
			if f.nested {
				nested--
			}
		}
		f := frame{last: n.Index() + len(n.Descendants()) - 1}
		if p := n.Parent(); p != nil && cxx.IsConditionOf(p, n) && vm.Condition(p, grammar.AIV)&unit.VarLane != 0 {
			lanes = append(lanes, p)
			f.lane = true
		}
		if asked[n] {
			for i := len(lanes) - 1; i >= 0; i-- {
				ls.conds[n] = append(ls.conds[n], lanes[i])
			}
		}
		if n.Kind() == "return_statement" && nested == 0 && len(lanes) > 0 && pass.Cores(n)&grammar.AIV != 0 {
			c := lanes[len(lanes)-1]
			end := c.End
			if l := len(ls.minEnd); l > 0 {
				end = min(end, ls.minEnd[l-1])
			}
			ls.returns = append(ls.returns, laneReturn{n, c})
			ls.minEnd = append(ls.minEnd, end)
		}
		if n.Kind() == "function_definition" || n.Kind() == "lambda_expression" {
			f.nested = true
			nested++
		}
		stack = append(stack, f)
	}
	return ls
}

// returnBefore finds the first return of the function before node set
// under a lane test that does not contain set, and that test: the
// innermost lane test of a return contains set when any of them does.
func (ls *laneScopes) returnBefore(set *grammar.Node) (*grammar.Node, *grammar.Node) {
	i := sort.Search(len(ls.minEnd), func(i int) bool { return ls.minEnd[i] <= set.Start })
	if i == len(ls.minEnd) {
		return nil, nil
	}
	// The least end drops at i: return i's test ends before set.
	return ls.returns[i].ret, ls.returns[i].cond
}

// laneRootName is the member or variable an assignment target names:
// `lane_`, `this->lane_`, `ctx.lane`.
func laneRootName(n *grammar.Node) string {
	switch n.Kind() {
	case "identifier", "field_identifier":
		return n.Text()
	case "field_expression":
		if f := n.ChildByField("field"); f != nil {
			return f.Text()
		}
	}
	return ""
}

// moveOutOfCondition sketches moving the set's statement after the lane
// test's statement.
func moveOutOfCondition(pass *analysis.Pass, set, cond *grammar.Node) (analysis.Fix, bool) {
	if cond.Kind() != "if_statement" {
		return analysis.Fix{}, false
	}
	stmt := set.Parent()
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return analysis.Fix{}, false
	}
	if blk := set.Ancestor("compound_statement"); blk != nil && cond.Contains(blk) && exits(blk) {
		// The lane leaves right after the set: moved past the test, the
		// set would come after that return.
		return analysis.Fix{}, false
	}
	del, ok := deleteStatementEdit(pass.File, set)
	if !ok {
		return analysis.Fix{}, false
	}
	outer := cxx.BlockStatementOf(cond)
	if outer == nil {
		return analysis.Fix{}, false
	}
	ins := insertLinesAfterStmt(pass.File, outer, stmt.Text()+"\n")
	return analysis.Fix{
		Title:         "Move `" + shortText(set) + "` after the lane test so both lanes set it",
		Applicability: analysis.DisplayOnly,
		Edits:         []analysis.TextEdit{del, ins},
	}, true
}

// laneSkippedWaits flags a vector wait only one lane runs, on a flag the
// cube sets with mode 2: that set counts on each lane of the cluster, so
// the lane that skips its wait keeps the count, and its next wait on the
// flag returns before the cube's next set (a lane whose row share is 0
// skipping the wait of its row loop). Silent as for sets: both branches
// of the lane test wait, the branch holding the wait returns and the
// function waits again after the test, or the function already let the
// lanes that skip leave through a lane test that waits before it returns
// (`if (rows == 0) { wait(X); return; }`).
func laneSkippedWaits(pass *analysis.Pass) {
	// Cheap first: the file's calls named like a wait that the vector
	// runs under a lane test. The reach's flag sites (every file's calls,
	// wrappers instantiated) are read only when there is one.
	inFn := map[*grammar.Node][]*grammar.Node{}
	for _, n := range pass.File.Tree.OfKind("call_expression") {
		f := n.ChildByField("function")
		if f == nil || !strings.Contains(f.Text(), "Wait") || pass.Cores(n)&grammar.AIV == 0 {
			continue
		}
		if fn := cxx.EnclosingFunction(n); fn != nil {
			inFn[fn] = append(inFn[fn], n)
		}
	}
	if len(inFn) == 0 {
		return
	}
	vm := pass.Closure().Variance(pass.Spend)
	scopes := map[*grammar.Node]*laneScopes{}
	tested := false
	for fn, nodes := range inFn {
		ls := newLaneScopes(pass, vm, fn, nodes)
		scopes[fn] = ls
		for _, n := range nodes {
			tested = tested || len(ls.conds[n]) > 0
		}
	}
	if !tested {
		return
	}
	// The reach's sites: a wrapper's call (`Arch::CrossCoreWaitFlag(flag)`)
	// is a wait at the call, and the cube's set is in another file.
	rch := pass.Reach()
	var waits []cxx.FlagCall
	var cubeSets []cxx.FlagSite
	for _, s := range cxx.FlagSites(rch, rch.Files, rch.Consts()) {
		switch {
		case s.Kind == cxx.FlagWait && s.File == pass.File && pass.Cores(s.Node)&grammar.AIV != 0:
			waits = append(waits, s.FlagCall)
		case s.Kind == cxx.FlagSet && s.ModeKnown && s.Mode == 2 && cubeOnly(&s):
			cubeSets = append(cubeSets, s)
		}
	}
	if len(waits) == 0 || len(cubeSets) == 0 {
		return
	}
	for i := range waits {
		if pass.Stopped() {
			return
		}
		fc := &waits[i]
		fn := cxx.EnclosingFunction(fc.Node)
		if fn == nil {
			continue
		}
		ls := scopes[fn]
		if ls == nil {
			continue // no call named like a wait there: a macro's use
		}
		c := laneCondition(vm, fc, ls.conds[fc.Node], waits)
		if c == nil {
			continue
		}
		if r, rc := ls.returnBefore(fc.Node); r != nil && setBeforeReturn(rc, r, fc, waits) {
			continue
		}
		if waitsElsewhere(fn, c, fc, waits) {
			continue
		}
		set := cubeSetOf(pass, vm, fc, cubeSets)
		if set == nil {
			continue
		}
		line, _ := set.File.Lines.Position(set.Node.Start)
		pass.Report(analysis.Diagnostic{
			Start: fc.Node.Start,
			End:   fc.Node.End,
			Message: fmt.Sprintf("%s only runs on the vector lane that passes `%s`: the cube's mode-2 set `%s` "+
				"(%s:%d) counts on both lanes of the cluster and each lane takes its counts with its own waits: the lane "+
				"that skips this wait keeps a count (its next wait on the flag returns before the cube's next set), or "+
				"the other lane waits for a set that never comes; wait on both lanes",
				flagCallText(fc), conditionText(c), shortText(set.Node), filepath.Base(set.File.Path), line+1),
			Related: []analysis.Related{analysis.RelatedAt(set.File, set.Node, "the cube sets the flag for both lanes here")},
		})
	}
}

// waitsElsewhere reports whether fn waits on the wait's flag outside
// the lane test c too: the other lanes' wait may be there (`if (rows ==
// 0) wait(X);` beside a row loop whose first pass waits), which this
// reading cannot pair, so only a function's one lane-tested wait is
// judged.
func waitsElsewhere(fn, c *grammar.Node, fc *cxx.FlagCall, waits []cxx.FlagCall) bool {
	for i := range waits {
		o := &waits[i]
		if o.Node != fc.Node && fn.Contains(o.Node) && !c.Contains(o.Node) && sameFlag(fc, o) {
			return true
		}
	}
	return false
}

// cubeSetOf is the cube's mode-2 set of the wait's flag (the same id, or
// the same argument when an id is not known: a flag object passed down by
// name), nil for none. Sets in the wait's own file are the wait's when
// there are any (another kernel of the reach may use the id apart), and a
// set under a test the lanes may disagree on is not unconditional: none
// is then taken.
func cubeSetOf(pass *analysis.Pass, vm *unit.VarianceModel, w *cxx.FlagCall, sets []cxx.FlagSite) *cxx.FlagSite {
	var match []*cxx.FlagSite
	local := false
	for i := range sets {
		if sameFlag(w, &sets[i].FlagCall) {
			match = append(match, &sets[i])
			local = local || sets[i].File == pass.File
		}
	}
	var first *cxx.FlagSite
	for _, s := range match {
		if local && s.File != pass.File {
			continue
		}
		for _, c := range cxx.Conditions(s.Node, cxx.EnclosingFunction(s.Node)) {
			if vm.Condition(c, grammar.AIV)&unit.VarLane != 0 {
				return nil
			}
		}
		if first == nil {
			first = s
		}
	}
	return first
}

// flagArgText is the flag a call names, without spaces: its id
// expression, or a wrapper call's one argument (`qkReady` of
// `Arch::CrossCoreWaitFlag(qkReady)`).
func flagArgText(fc *cxx.FlagCall) string {
	n := fc.IDNode
	if n == nil {
		args := fc.Call().Args
		if len(args) != 1 {
			return ""
		}
		n = args[0]
	}
	return strings.Join(strings.Fields(n.Text()), "")
}

// cubeOnly reports whether only the cube runs a set: its cores say so,
// or it is in the cube's specialisation of a kernel's call operator
// (`operator()<AscendC::AIC>`, the way catlass-style kernels split the
// two cores).
func cubeOnly(s *cxx.FlagSite) bool {
	if s.Cores() == grammar.AIC {
		return true
	}
	fn := cxx.EnclosingFunction(s.Node)
	if fn == nil {
		return false
	}
	d := fn.ChildByField("declarator")
	if d == nil || d.Kind() != "function_declarator" {
		return false
	}
	params := d.ChildByField("parameters")
	if params == nil {
		return false
	}
	// The name with its template arguments: the text before the
	// parameter list.
	name := strings.Join(strings.Fields(strings.TrimSuffix(d.Text(), params.Text())), "")
	return strings.HasSuffix(name, "<AscendC::AIC>") || strings.HasSuffix(name, "<AIC>")
}

// laneSources are the calls a lane id comes from.
var laneSources = [][]byte{[]byte("SubBlockIdx"), []byte("sub_block_id"), []byte("subblockid")}

// readsLane reports whether the file or one of its includes names a lane
// id source: building the variance model for every file that waits costs
// more than the rule finds elsewhere, so lane-skipped waits are looked
// for only where a lane id is read nearby.
func readsLane(pass *analysis.Pass) bool {
	for _, f := range append([]*grammar.File{pass.File}, pass.Includes...) {
		if f == nil {
			continue
		}
		for _, w := range laneSources {
			if bytes.Contains(f.Src, w) {
				return true
			}
		}
	}
	return false
}
