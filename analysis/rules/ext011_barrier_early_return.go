package rules

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// BarrierEarlyReturn flags a return that lets a core leave before a
// hardware barrier the other cores wait at.
var BarrierEarlyReturn = register(&analysis.Analyzer{
	Code:     "EXT011",
	Name:     "barrier-early-return",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Doc: analysis.Doc{
		Summary: "a `return` before a hardware barrier lets one core leave while the others wait for it",
		What: "Flags a `return` that can run before a hardware barrier (`SyncAll`, a mode-0 cross-core flag set; a return " +
			"between the set and its wait has already arrived and is silent) later in the same function, or before a call that reaches one through workspace functions (a few levels " +
			"deep, in the file and its includes), or inside a loop whose body reaches one. Conditional returns are errors " +
			"unless the condition is the same on every core of the type: a core-type test, `if constexpr`, a constant, or " +
			"values read only from scalar `args[k]` slots, tiling fields, parameters and members (unless named for the " +
			"core's own id: `blockIdx_`, `subBlockIdx`) and `get_block_num(args)`. An unconditional `return` before a barrier is reported as a " +
			"debugging probe left in (warning). A return after the last barrier, or on a branch that passed its own " +
			"barrier, is silent.",
		Why: "A hardware barrier releases only when every core of the launch (every core of one type, for mode-0 flags) " +
			"has arrived; `pl.spmd(N, sync_start=True)` launches all N blocks together precisely so that they can. A block " +
			"that returns early (`if (block_idx >= used) return;`, a lane test, a data-dependent skip) never arrives, so " +
			"every other core spins in the barrier until the scheduler times out (507018, S1:running-stalled). Skip the " +
			"work, not the barrier: guard the phase body and let every core reach the barrier. An unconditional `return;` " +
			"before a barrier is what the guide's bisection method (§7) inserts; left in, it silently drops the rest of the " +
			"kernel.",
		Example: "if (get_block_idx(args) >= used) return;\nrope_phase(args);\nAscendC::SyncAll<false>();",
		UseInstead: "if (get_block_idx(args) < used) {\n  rope_phase(args);\n}\n" +
			"AscendC::SyncAll<false>();   // every core arrives",
		FixSafety: "No fix: moving the barrier out of the skipped region needs the kernel's structure.",
		Guide:     "§1, §5, §7",
	},
	Run: runBarrierEarlyReturn,
})

type barrierSites map[*grammar.Node]cxx.Barrier

// allBarrierSites indexes the hardware barrier sites of the file and its
// includes.
func allBarrierSites(pass *analysis.Pass) barrierSites {
	return analysis.UnitFact(pass, pass.Closure(), barrierSitesKey)
}

var barrierSitesKey = &analysis.UnitKey[barrierSites]{
	Name: "rules.barrierSites",
	Compute: func(ctx context.Context, u *analysis.Unit) barrierSites {
		out := barrierSites{}
		for _, b := range analysis.UnitFactOf(ctx, u, hardwareBarriersKey) {
			out[b.Node] = b
		}
		// Headers and macro bodies: a barrier a macro hides is reached
		// through its uses.
		for _, f := range u.CodeFiles()[1:] {
			for _, b := range cxx.HardwareBarriers(u, f, u.Consts()) {
				out[b.Node] = b
			}
		}
		return out
	},
}

func runBarrierEarlyReturn(pass *analysis.Pass) {
	returns := pass.Nodes("return_statement")
	if len(returns) == 0 {
		return
	}
	sites := allBarrierSites(pass)
	if len(sites) == 0 {
		return
	}
	funcs := workspaceFuncs(pass)
	// A core that skips only a wait has already signalled its arrival:
	// nobody waits for it, so only the arriving half of a barrier counts.
	isBarrier := func(f *grammar.File, c cxx.Call) bool {
		b, ok := sites[c.Node]
		return ok && b.Kind != cxx.BarrierFlagWait
	}
	fx := &fnIndexes{pass: pass, funcs: funcs, isBarrier: isBarrier, byFn: map[*grammar.Node]*fnIndex{}}
	for _, r := range returns {
		if pass.Context().Err() != nil {
			return // cancelled or past the budget: each return scans the function
		}
		fn := cxx.EnclosingFunction(r)
		cores := pass.Cores(r)
		if fn == nil || cores == grammar.None {
			continue
		}
		ix := fx.of(fn)
		call, chain := ix.barrierAfter(r, cores)
		if chain == nil {
			continue
		}
		conds := cxx.Conditions(r, fn)
		var deciding []*grammar.Node
		for _, c := range conds {
			if !c.Contains(call) {
				deciding = append(deciding, c)
			}
		}
		if ix.balancedBranch(deciding, r, cores) {
			continue
		}
		var runtime []*grammar.Node
		for _, c := range deciding {
			if !ix.uniformCondition(c) {
				runtime = append(runtime, c)
			}
		}
		leaf := chain[len(chain)-1]
		if len(deciding) > 0 && len(runtime) == 0 {
			// Every core of the type takes the same path: fine unless a
			// whole core type leaves before the barrier that orders cube
			// against vector.
			b := sites[leaf.Call]
			if !pass.Mixed() || b.Kind != cxx.BarrierSyncAll || !b.AIVOnlyKnown || b.AIVOnly || cores == grammar.Both {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Start: r.Start,
				End:   r.End,
				Message: "every " + coreName(cores) + " core returns here before `" + shortText(leaf.Call) + "`" +
					lineRef(pass, leaf) + ", which waits for cube and vector cores alike: the other core type hangs in it",
				Related: []analysis.Related{{File: leaf.File.Path, Start: leaf.Call.Start, End: leaf.Call.End, Message: "the barrier the other cores wait at"}},
			})
			continue
		}
		target := "the hardware barrier `" + shortText(leaf.Call) + "`" + lineRef(pass, leaf)
		if len(chain) > 1 {
			target = "`" + shortText(call) + "`" + lineRef(pass, chain[0]) + ", which reaches the hardware barrier `" +
				shortText(leaf.Call) + "`" + lineRef(pass, leaf)
		}
		d := analysis.Diagnostic{
			Start:   r.Start,
			End:     r.End,
			Related: []analysis.Related{{File: leaf.File.Path, Start: leaf.Call.Start, End: leaf.Call.End, Message: "the barrier the other cores wait at"}},
		}
		if len(runtime) == 0 {
			d.Severity = analysis.SeverityWarning
			d.Message = "unconditional `return` before " + target + ": nothing after it runs, the barrier included; " +
				"a debugging probe left in (guide §7)?"
		} else {
			d.Message = "`return` under `" + conditionText(runtime[len(runtime)-1]) + "` can leave before " + target +
				": the cores that stay wait there for one that never arrives and the kernel hangs (507018); " +
				"skip the work, not the barrier"
		}
		pass.Report(d)
	}
}

func lineRef(pass *analysis.Pass, h cxx.Hop) string {
	line, _ := h.File.Lines.Position(h.Call.Start)
	if h.File == pass.File {
		return fmt.Sprintf(" (line %d)", line+1)
	}
	return fmt.Sprintf(" (%s:%d)", filepath.Base(h.File.Path), line+1)
}

// conditionText renders the test of a deciding construct for a message.
func conditionText(c *grammar.Node) string {
	cond := cxx.ConditionOf(c)
	kw := map[string]string{"if_statement": "if", "while_statement": "while", "for_statement": "for",
		"switch_statement": "switch", "for_range_loop": "for"}[c.Kind()]
	if cond == nil {
		if kw != "" {
			return kw + " (...)"
		}
		return shortText(c)
	}
	if kw == "" {
		return shortText(cond)
	}
	return kw + " (" + shortText(cond) + ")"
}

// fnIndexes are the per-function indexes of one pass: each function's
// calls, which of them reach a barrier, and its locals, built once so that
// the work per return stays logarithmic (a 2 MB function with thousands of
// returns must not be rescanned for each).
type fnIndexes struct {
	pass      *analysis.Pass
	funcs     *cxx.Funcs
	isBarrier func(*grammar.File, cxx.Call) bool
	byFn      map[*grammar.Node]*fnIndex
}

type fnIndex struct {
	*fnIndexes
	fn *grammar.Node
	// calls are the calls of fn's own body (not of lambdas in it), in
	// source order.
	calls []*grammar.Node
	// reaching[cores] lists the indexes in calls of the calls that reach
	// a hardware barrier for those cores; chains[cores][i] their chains.
	reaching map[grammar.Cores][]int
	chains   map[grammar.Cores]map[int][]cxx.Hop
	locals   map[string]*localDecls
	// uniform memoizes uniformCondition: a return deep in an else-if
	// chain is decided by every condition before it, so each is asked
	// once per return below it.
	uniform map[*grammar.Node]bool
}

type localDecls struct {
	starts   []uint32 // of the declarations, in source order
	inits    []*grammar.Node
	assigned bool // assigned or incremented somewhere in fn
}

func (x *fnIndexes) of(fn *grammar.Node) *fnIndex {
	if ix := x.byFn[fn]; ix != nil {
		return ix
	}
	ix := &fnIndex{fnIndexes: x, fn: fn, reaching: map[grammar.Cores][]int{}, chains: map[grammar.Cores]map[int][]cxx.Hop{}}
	for _, n := range x.funcs.Calls(fn) {
		if cxx.EnclosingFunction(n) == fn {
			ix.calls = append(ix.calls, n)
		}
	}
	x.byFn[fn] = ix
	return ix
}

// reachingFor lists (once per cores) the calls that reach a barrier.
func (ix *fnIndex) reachingFor(cores grammar.Cores) []int {
	if r, ok := ix.reaching[cores]; ok {
		return r
	}
	var out []int
	chains := map[int][]cxx.Hop{}
	for i, n := range ix.calls {
		if ctx := ix.pass.Context(); ctx != nil && i%256 == 0 && ctx.Err() != nil {
			break
		}
		if chain := ix.funcs.CallReaches(ix.pass.File, n, cores, "hardware-barrier", ix.isBarrier, cxx.MaxCallDepth); chain != nil {
			out = append(out, i)
			chains[i] = chain
		}
	}
	ix.reaching[cores], ix.chains[cores] = out, chains
	return out
}

// firstReaching returns the first barrier-reaching call starting at or
// after off, and its chain.
func (ix *fnIndex) firstReaching(off uint32, cores grammar.Cores) (*grammar.Node, []cxx.Hop) {
	r := ix.reachingFor(cores)
	k := sort.Search(len(r), func(k int) bool { return ix.calls[r[k]].Start >= off })
	if k == len(r) {
		return nil, nil
	}
	return ix.calls[r[k]], ix.chains[cores][r[k]]
}

// barrierAfter finds the first call in fn that can run after the return r
// and reaches a hardware barrier: later in the source, or earlier in a loop
// enclosing r (the next iteration). It returns the call and the chain.
func (ix *fnIndex) barrierAfter(r *grammar.Node, cores grammar.Cores) (*grammar.Node, []cxx.Hop) {
	// Enclosing loops nest, so the outermost one holds every call of the
	// others: from its start on, every call can run after r.
	from := r.End
	for p := r.Parent(); p != nil && p != ix.fn; p = p.Parent() {
		switch p.Kind() {
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
			from = p.Start
		}
	}
	return ix.firstReaching(from, cores)
}

// balancedBranch reports whether r sits in a branch that already went
// through a barrier before r (`if (idle) { SyncAll(); return; }`): the core
// that returns there has arrived at its barrier.
func (ix *fnIndex) balancedBranch(deciding []*grammar.Node, r *grammar.Node, cores grammar.Cores) bool {
	for _, c := range deciding {
		if c.Kind() != "if_statement" {
			continue
		}
		var branch *grammar.Node
		for _, b := range []*grammar.Node{c.ChildByField("consequence"), c.ChildByField("alternative")} {
			if b != nil && b.Contains(r) {
				branch = b
			}
		}
		if branch == nil {
			continue
		}
		if n, _ := ix.firstReaching(branch.Start, cores); n != nil && n.Start < r.Start && branch.Contains(n) {
			return true
		}
	}
	return false
}

// uniformCondition reports whether a deciding construct takes the same path
// on every core of a type: a core-type test, `if constexpr`, a constant, or
// an expression of constants and scalar `args[k]` slots (directly or through
// locals initialized from them).
func (ix *fnIndex) uniformCondition(c *grammar.Node) bool {
	if v, ok := ix.uniform[c]; ok {
		return v
	}
	v := ix.uniformConditionUncached(c)
	if ix.uniform == nil {
		ix.uniform = map[*grammar.Node]bool{}
	}
	ix.uniform[c] = v
	return v
}

func (ix *fnIndex) uniformConditionUncached(c *grammar.Node) bool {
	if c.Kind() == "if_statement" && c.ChildOfKind("constexpr") != nil {
		return true
	}
	cond := cxx.ConditionOf(c)
	if cond == nil {
		return false
	}
	if _, ok := grammar.CoreCondition(c.ChildByField("condition")); ok {
		return true
	}
	return ix.uniformExpr(cond, 0)
}

func (ix *fnIndex) uniformExpr(e *grammar.Node, depth int) bool {
	if e == nil || depth > 4 {
		return false
	}
	pass, fn := ix.pass, ix.fn
	if _, ok := pass.Consts.Eval(e); ok {
		return true
	}
	args, _ := cxx.ArgsParam(pass.File, fn)
	switch e.Kind() {
	case "number_literal", "true", "false", "nullptr", "char_literal":
		return true
	case "parenthesized_expression", "binary_expression", "unary_expression", "condition_clause", "cast_expression",
		"conditional_expression":
		for _, k := range e.NamedChildren() {
			if k.Kind() == "type_descriptor" || k.Kind() == "comment" {
				continue
			}
			if !ix.uniformExpr(k, depth) {
				return false
			}
		}
		return true
	case "subscript_expression":
		base := e.ChildByField("argument")
		if base == nil || base.Kind() != "identifier" || args.Name == "" || base.Text() != args.Name {
			return false
		}
		idx := e.ChildByField("indices")
		return idx == nil || ix.uniformExpr(idx, depth)
	case "subscript_argument_list":
		for _, k := range e.NamedChildren() {
			if !ix.uniformExpr(k, depth) {
				return false
			}
		}
		return true
	case "call_expression":
		c, ok := cxx.AsCall(e)
		if !ok || len(c.Args) != 1 {
			return false
		}
		switch c.Name {
		case "static_cast", "reinterpret_cast", "from_u64", "bit_cast":
			return ix.uniformExpr(c.Args[0], depth)
		case "get_block_num":
			// The task's block count is the same on every core.
			a := cxx.Unparen(c.Args[0])
			return a.Kind() == "identifier" && args.Name != "" && a.Text() == args.Name
		}
		return false
	case "identifier":
		if init := ix.localInit(e.Text(), e.Start); init != nil {
			return ix.uniformExpr(init, depth+1)
		}
		// A parameter or member: the same on every core unless its name
		// says it is this core's identity (blockIdx_, subBlockIdx).
		return ix.isParamOrField(e.Text()) && !coreIdentityName(e.Text())
	case "field_expression":
		// tiling->coreNum, params.usedCores: the same tiling for every core.
		f := e.ChildByField("field")
		return f != nil && !coreIdentityName(f.Text()) && ix.uniformExpr(e.ChildByField("argument"), depth+1)
	case "this":
		return true
	}
	return false
}

// coreIdentityName reports whether a variable's name says it holds the
// core's, block's or lane's own id.
func coreIdentityName(name string) bool {
	l := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	for _, k := range []string{"blockidx", "blockid", "coreidx", "coreid", "subblock", "lane", "aividx", "aicidx", "vecidx", "cubeidx"} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// isParamOrField reports whether name is a parameter of the function or
// not declared in it at all (a member or a global).
func (ix *fnIndex) isParamOrField(name string) bool {
	if ix.locals == nil {
		ix.indexLocals()
	}
	return ix.locals[name] == nil
}

// localInit returns the initializer of the last declaration of name in fn
// before off, when the name is never assigned in fn.
func (ix *fnIndex) localInit(name string, off uint32) *grammar.Node {
	if ix.locals == nil {
		ix.indexLocals()
	}
	l := ix.locals[name]
	if l == nil || l.assigned {
		return nil
	}
	k := sort.Search(len(l.starts), func(k int) bool { return l.starts[k] >= off })
	if k == 0 {
		return nil
	}
	return l.inits[k-1]
}

func (ix *fnIndex) indexLocals() {
	ix.locals = map[string]*localDecls{}
	body := ix.fn.ChildByField("body")
	if body == nil {
		return
	}
	get := func(name string) *localDecls {
		l := ix.locals[name]
		if l == nil {
			l = &localDecls{}
			ix.locals[name] = l
		}
		return l
	}
	ds := body.Descendants()
	for i := range ds {
		n := &ds[i]
		switch n.Kind() {
		case "init_declarator":
			if name := cxx.DeclaredName(n.ChildByField("declarator")); name != "" {
				l := get(name)
				l.starts = append(l.starts, n.Start)
				l.inits = append(l.inits, n.ChildByField("value"))
			}
		case "assignment_expression", "update_expression":
			l := n.ChildByField("left")
			if l == nil {
				l = n.ChildByField("argument")
			}
			if l != nil && l.Kind() == "identifier" {
				get(l.Text()).assigned = true
			}
		}
	}
}
