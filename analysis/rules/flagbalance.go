package rules

import (
	"context"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The handshake balance model, shared by EXT005 and EXT014: whether a
// handshake on a flag counter that a barrier also uses leaves the counter
// as the barrier expects it. Each core has a counter per flag id; a
// handshake's sets (mode 1 or 2) count on the receiving core type's
// counter, its waits there consume one each. A barrier on the same
// counter (the mixed `SyncAll<false>()` has the cube wait on 11, a
// hand-written barrier sets and waits a mode-0 flag) is safe beside the
// handshake when, in every phase (the code between two barriers, or the
// kernel's start or end), the receiving cores' own waits consume every
// count the handshake's sets give them before the next barrier starts:
// no count is pending when a barrier waits, and a barrier's count
// arrives only once every core of the type has reached the barrier, so a
// handshake wait cannot take it.
//
// Counts are matched statement by statement within one function (the
// one holding both sides, as kernels write a handshake: the vector
// region sets, the cube region waits): a set and a wait match when the
// loops and tests around them, core-type guards aside, are written alike
// (the same headers and conditions, the locals they read initialised
// alike), in the same phase of the function (as many barrier-reaching
// calls before each on its cores, none in a loop around them), and no
// test or loop around a vector core's side reads the lane id, its own
// UB, an AscendC vector block id (`GetBlockIdx()` counts the lanes
// apart) or a call the unit does not define. Every set and wait of the
// counter in the function must find its match; a return, break or
// continue that can cut one side short (inside a loop around it, or
// before it on one core type only) leaves the function unmatched. The
// mode-2 set of the two vector lanes of a cluster makes one count on its
// cube: one set statement both lanes run matches one cube wait.
type handshakeBalance struct {
	// balanced are the flag calls (sets and waits) of matched
	// handshakes.
	balanced map[*grammar.Node]bool
	// counters says, per receiving core type and id, whether every
	// handshake set and wait on that counter is matched (and one is).
	counters map[counterKey]bool
	// barrierSets are the mode-0 sets a wait of the same id follows in
	// their function, on the same cores: a barrier of the core type.
	barrierSets map[*grammar.Node]bool
}

// counterKey is a flag counter: the core type holding it and the id.
type counterKey struct {
	cores grammar.Cores
	id    int64
}

// handshakes is the model of the pass's reach.
func handshakes(pass *analysis.Pass) *handshakeBalance {
	return unit.Fact(pass.Reach(), handshakeBalanceKey)
}

// safePair reports whether a mode-0 barrier set and a handshake set of
// the same id, signalling the same cores, leave each other's counts
// alone: the barrier's set is followed by its own wait, and every
// handshake on that counter is matched.
func (h *handshakeBalance) safePair(a, b flagUse) bool {
	if a.mode != 0 {
		a, b = b, a
	}
	return a.mode == 0 && b.mode != 0 && h.barrierSets[a.site.Node] && h.counters[counterKey{b.target, b.id}]
}

// hsOp is one side of a handshake on a counter: a set (signalling the
// counter's cores) or a wait (by them).
type hsOp struct {
	site *cxx.FlagSite
	wait bool
	// exec are the cores that run the statement.
	exec grammar.Cores
}

var handshakeBalanceKey = &unit.UnitKey[*handshakeBalance]{
	Name: "rules.handshakeBalance",
	Compute: func(ctx context.Context, u *unit.Unit) *handshakeBalance {
		h := &handshakeBalance{balanced: map[*grammar.Node]bool{}, counters: map[counterKey]bool{}, barrierSets: map[*grammar.Node]bool{}}
		if len(u.Files) == 0 || !mentionsFlags(u.Files) {
			return h
		}
		r := u.Consts()
		sites := cxx.FlagSites(u, u.Files, r)
		bodies := cxx.FlagBodies(u, u.Macros().Shadows)
		for _, f := range u.Files {
			sites = append(sites, bodies.FlagSites(u, f, r)...)
		}
		kind := grammar.Both
		switch u.Kind {
		case workspace.KindAIV:
			kind = grammar.AIV
		case workspace.KindAIC:
			kind = grammar.AIC
		}
		dead := deadConstexprs(r)
		type group struct {
			key counterKey
			fn  *grammar.Node
		}
		ops := map[group][]hsOp{}
		poisoned := map[counterKey]bool{}
		// mode0 are the functions holding a mode-0 set of each counter.
		mode0 := map[group][]*grammar.Node{}
		for i := range sites {
			s := &sites[i]
			cores := s.Cores() & kind
			if cores == grammar.None || len(s.Flags) == 0 || dead.Of(s.Node) {
				continue
			}
			fn := cxx.EnclosingFunction(s.Node)
			if len(s.Flags) > 1 || fn == nil {
				for _, id := range s.Flags {
					poisoned[counterKey{grammar.AIC, id}] = true
					poisoned[counterKey{grammar.AIV, id}] = true
				}
				continue
			}
			id := s.Flags[0]
			switch {
			case s.Kind == cxx.FlagWait:
				for _, c := range []grammar.Cores{grammar.AIC, grammar.AIV} {
					if cores&c != 0 {
						g := group{counterKey{c, id}, fn}
						ops[g] = append(ops[g], hsOp{site: s, wait: true, exec: c})
					}
				}
			case !s.ModeKnown:
				poisoned[counterKey{grammar.AIC, id}] = true
				poisoned[counterKey{grammar.AIV, id}] = true
			case s.Mode == 0:
				for _, c := range []grammar.Cores{grammar.AIC, grammar.AIV} {
					if cores&c != 0 {
						g := group{counterKey{c, id}, fn}
						mode0[g] = append(mode0[g], s.Node)
					}
				}
			default:
				setter := cores
				if s.Mode == 1 {
					setter = grammar.AIV
				}
				t := flagTarget(setter, s.Mode)
				if t == grammar.None {
					poisoned[counterKey{grammar.AIC, id}] = true
					poisoned[counterKey{grammar.AIV, id}] = true
					continue
				}
				g := group{counterKey{t, id}, fn}
				ops[g] = append(ops[g], hsOp{site: s, exec: setter})
			}
		}
		// A function with a mode-0 set of the counter is a barrier: its
		// waits are the barrier's own; a set followed by such a wait
		// marks the barrier.
		for g, sets := range mode0 {
			for _, n := range sets {
				for _, o := range ops[g] {
					if o.wait && o.site.Node.Start > n.Start {
						h.barrierSets[n] = true
					}
				}
			}
			for _, o := range ops[g] {
				if !o.wait {
					poisoned[g.key] = true // a handshake inside the barrier
				}
			}
			delete(ops, g)
		}
		// Only counters a barrier can share are judged: the ids the
		// hardware SyncAll uses, and those a mode-0 set of the unit uses.
		shared := map[int64]bool{}
		for g := range mode0 {
			shared[g.key.id] = true
		}
		for g := range ops {
			if !shared[g.key.id] && !cxx.ReservedBySyncAll(g.key.id) {
				delete(ops, g)
			}
		}
		vm := u.Variance(nil)
		arrivals := unit.Fact(u, arrivalSitesKey)
		funcs := u.FuncIndex()
		fb := &flagBalancer{u: u, vm: vm, funcs: funcs, arrivals: arrivals, barriers: map[fnCores][]*grammar.Node{}, exits: map[*grammar.Node][]*grammar.Node{}}
		for g, list := range ops {
			if ctx.Err() != nil {
				return h
			}
			ok := !poisoned[g.key] && fb.matched(g.fn, list)
			if ok {
				for _, o := range list {
					h.balanced[o.site.Node] = true
				}
			}
			if prev, done := h.counters[g.key]; !done || prev {
				h.counters[g.key] = ok
			}
		}
		return h
	},
}

// flagBalancer matches a function's handshake statements.
type flagBalancer struct {
	u        *unit.Unit
	vm       *unit.VarianceModel
	funcs    *cxx.Funcs
	arrivals barrierSites
	// barriers are a function's calls that reach a barrier on some
	// cores, exits its returns, breaks, continues and gotos: each found
	// once, however many statements ask.
	barriers map[fnCores][]*grammar.Node
	exits    map[*grammar.Node][]*grammar.Node
}

type fnCores struct {
	fn    *grammar.Node
	cores grammar.Cores
}

// matched reports whether the sets and waits of one counter in fn pair
// off, each with a statement of the other side in the same place.
func (fb *flagBalancer) matched(fn *grammar.Node, list []hsOp) bool {
	count := map[string]int{}
	sets, waits := 0, 0
	for _, o := range list {
		sig, ok := fb.signature(fn, o)
		if !ok {
			return false
		}
		if o.wait {
			count[sig]--
			waits++
		} else {
			count[sig]++
			sets++
		}
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return sets > 0 && waits > 0
}

// unmatchable is the variance a test around a vector core's side must
// not have: it would count the lanes, or the cube and its lanes, apart.
const unmatchable = unit.VarLane | unit.VarData | unit.VarNamed | unit.VarOpaque

// signature says where in fn a handshake statement runs, core-type
// guards aside: its phase and the loops and tests around it, outermost
// first; ok is false when its count cannot be matched.
func (fb *flagBalancer) signature(fn *grammar.Node, o hsOp) (string, bool) {
	n := o.site.Node
	stmt := n.Parent()
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return "", false // inside an expression: its count is not the statement's
	}
	f := o.site.File
	var elems []string
	var loops []*grammar.Node
	// AscendC's GetBlockIdx() counts a mixed kernel's vector lanes apart
	// from their cube: a test of it is not the same on both sides.
	test := func(p *grammar.Node) bool {
		return fb.vm.Condition(p, o.exec)&unmatchable == 0 && !strings.Contains(fb.header(fn, p), "GetBlockIdx")
	}
	for child, p := stmt, stmt.Parent(); p != nil && p != fn; child, p = p, p.Parent() {
		switch p.Kind() {
		case "compound_statement", "else_clause", "condition_clause":
			continue
		case "if_statement":
			if _, core := grammar.CoreCondition(p.ChildByField("condition")); core {
				continue
			}
			if p.ChildOfKind("constexpr") == nil && !test(p) {
				return "", false
			}
			elems = append(elems, "if "+fb.header(fn, p)+" "+child.Field())
		case "for_statement", "while_statement", "do_statement":
			if !test(p) {
				return "", false
			}
			loops = append(loops, p)
			elems = append(elems, "loop "+fb.header(fn, p))
		case "switch_statement":
			if !test(p) {
				return "", false
			}
			elems = append(elems, "switch "+fb.header(fn, p))
		case "case_statement":
			elems = append(elems, "case "+oneLine(p.Text()[:headerLen(p)]))
		case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef":
			if coreOnlyDirective(p) {
				continue
			}
			elems = append(elems, "#"+oneLine(p.Text()[:headerLen(p)])+" "+child.Field())
		default:
			return "", false // a lambda, a try, a label: not followed
		}
	}
	phase, ok := fb.phase(fn, f, n, o.exec, loops)
	if !ok || !fb.uncut(fn, f, n, o.exec, loops) {
		return "", false
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(phase))
	for i := len(elems) - 1; i >= 0; i-- {
		b.WriteString("|")
		b.WriteString(elems[i])
	}
	return b.String(), true
}

// header is a deciding construct's header (its condition, a loop's
// clauses) on one line, each local it reads followed by its initialiser:
// two sides that name a local alike but declare it apart differ.
func (fb *flagBalancer) header(fn, p *grammar.Node) string {
	var b strings.Builder
	b.WriteString(oneLine(p.Text()[:headerLen(p)]))
	end := p.Start + uint32(headerLen(p))
	seen := map[string]bool{}
	p.Walk(func(x *grammar.Node) bool {
		if x.Start >= end {
			return false
		}
		if x.Kind() == "identifier" && !seen[x.Text()] {
			seen[x.Text()] = true
			if v := localInit(fn, x); v != nil {
				b.WriteString(" {" + x.Text() + "=" + oneLine(v.Text()) + "}")
			}
		}
		return true
	})
	return b.String()
}

// headerLen is the length of p's text before its body.
func headerLen(p *grammar.Node) int {
	for _, field := range []string{"body", "consequence"} {
		if b := p.ChildByField(field); b != nil {
			return int(b.Start - p.Start)
		}
	}
	if p.Kind() == "case_statement" {
		if v := p.ChildByField("value"); v != nil {
			return int(v.End - p.Start)
		}
	}
	if c := p.ChildByField("condition"); c != nil {
		return int(c.End - p.Start)
	}
	if n := p.ChildByField("name"); n != nil {
		return int(n.End - p.Start)
	}
	t := p.Text()
	if k := strings.IndexByte(t, '\n'); k >= 0 {
		return k
	}
	return len(t)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// coreOnlyDirective reports whether a preprocessor branch tests only the
// core type (`#if defined(__DAV_C220_VEC__)`, `#ifdef __CCE_AICORE__`,
// an `#else` of such a test).
func coreOnlyDirective(p *grammar.Node) bool {
	cond := p.ChildByField("condition")
	if cond == nil {
		cond = p.ChildByField("name")
	}
	if cond == nil {
		return p.Kind() == "preproc_else" && p.Parent() != nil && coreOnlyDirective(p.Parent())
	}
	found := false
	only := true
	cond.Walk(func(x *grammar.Node) bool {
		if x.Kind() == "identifier" {
			if _, core := grammar.CoreMacros[x.Text()]; core || x.Text() == "__CCE_AICORE__" {
				found = true
			} else if x.Text() != "defined" {
				only = false
			}
		}
		return true
	})
	return found && only
}

// phase counts the barrier-reaching calls of fn before n that cores run;
// ok is false when one is inside a loop around n (its phases repeat).
func (fb *flagBalancer) phase(fn *grammar.Node, f *grammar.File, n *grammar.Node, cores grammar.Cores, loops []*grammar.Node) (int, bool) {
	key := fnCores{fn, cores}
	calls, done := fb.barriers[key]
	if !done {
		match := func(_ *grammar.File, c cxx.Call) bool {
			b, hit := fb.arrivals[c.Node]
			return hit && b.Kind != cxx.BarrierFlagWait
		}
		fn.Walk(func(x *grammar.Node) bool {
			if x.Kind() == "lambda_expression" {
				return false
			}
			if x.Kind() == "call_expression" && f.CoresOf(x)&cores != grammar.None && fb.funcs.CallReachesAny(f, x, cores, "arrival", match, cxx.MaxCallDepth) {
				calls = append(calls, x)
			}
			return true
		})
		fb.barriers[key] = calls
	}
	k := 0
	for _, x := range calls {
		switch {
		case x == n:
		case inAny(loops, x):
			return 0, false
		case x.End <= n.Start:
			k++
		}
	}
	return k, true
}

// uncut reports whether nothing can stop cores short of n on one side
// only: no return, break, continue or goto inside a loop around n, and
// every one before n in fn runs on both core types alike.
func (fb *flagBalancer) uncut(fn *grammar.Node, f *grammar.File, n *grammar.Node, cores grammar.Cores, loops []*grammar.Node) bool {
	exits, done := fb.exits[fn]
	if !done {
		fn.Walk(func(x *grammar.Node) bool {
			switch x.Kind() {
			case "lambda_expression":
				return false
			case "return_statement", "break_statement", "continue_statement", "goto_statement":
				exits = append(exits, x)
			}
			return true
		})
		fb.exits[fn] = exits
	}
	for _, x := range exits {
		if inAny(loops, x) || x.Start < n.Start && (f.CoresOf(x) != grammar.Both || !fb.sharedExit(fn, x)) {
			return false
		}
	}
	return true
}

// sharedExit reports whether exit x leaves on the cube and its lanes
// alike: no core-type test and no test a lane or core could read apart
// around it.
func (fb *flagBalancer) sharedExit(fn, x *grammar.Node) bool {
	for p := x.Parent(); p != nil && p != fn; p = p.Parent() {
		switch p.Kind() {
		case "if_statement", "for_statement", "while_statement", "do_statement", "switch_statement":
			if _, core := grammar.CoreCondition(p.ChildByField("condition")); core {
				return false
			}
			if p.ChildOfKind("constexpr") == nil && fb.vm.Condition(p, grammar.AIV)&unmatchable != 0 {
				return false
			}
		case "preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef":
			if coreOnlyDirective(p) {
				return false
			}
		}
	}
	return true
}

// inAny reports whether one of the loops holds x.
func inAny(loops []*grammar.Node, x *grammar.Node) bool {
	for _, l := range loops {
		if l.Contains(x) && l != x {
			return true
		}
	}
	return false
}
