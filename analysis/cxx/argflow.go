package cxx

import (
	"slices"
	"sort"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Constant arguments: the values the calls of a function pass for its
// parameters, and the branches of its body those values decide. A call
// `f(nullptr)` makes `if (sync != nullptr) { ... }` in f dead for that
// call; a call `g(sync)` from a function whose every call passes nullptr
// passes nullptr on. When every call of f in the unit skips a branch, the
// branch never runs and no rule judges it.
//
// Each function's tests of its parameters are indexed once, and each
// call's dead stretches are computed once, so that asking about every node
// of a long function (an else-if chain of thousands of tests) stays
// linear.

// argState holds the memoized constant-argument facts of a unit.
type argState struct {
	// tests: per function, its tests of its parameters.
	tests map[*grammar.Node][]paramTest
	// params: per function, the values of its parameters over every
	// live call (see paramValues).
	params map[*grammar.Node]*argMemo
	// envs: per call of a callee, the values the call binds the
	// callee's parameters to; dead: the stretches of the callee it skips.
	// A call names every overload and method of its name: each is a
	// callee of its own.
	envs map[calleeCall]map[string][]int64
	dead map[calleeCall][]span
	// never: per function, the stretches no live call runs.
	never map[*grammar.Node]*neverMemo
	// locals: per function, the names declared in its body.
	locals map[*grammar.Node]map[string]bool
	// byTree: the unit's function definitions per tree, by position.
	byTree map[*grammar.Tree][]*grammar.Node
	// kept: per function, its parameters that keep the value they were
	// called with (never assigned, incremented or address-taken), by
	// position in its Params.
	kept map[*grammar.Node][]bool
	// cycles counts the lookups cut short by recursion: a result computed
	// while one was cut is not memoized, so answers do not depend on the
	// order the rules ask in. There is no depth limit: without recursion
	// every function is computed once, so a chain of helpers passing their
	// parameters on stays linear (a cut at a depth would memoize nothing
	// on the way and recompute every path).
	cycles int
	// depth counts the lookups under way. A result computed while one was
	// cut is kept until the outermost lookup returns (taint* list them),
	// and reading it counts as a cut: within one question each function
	// is computed once (computing them again made a unit with recursion,
	// or calls naming many overloads, exponential), and no answer
	// outlives the question whose cut it depends on.
	depth       int
	taintParams []*grammar.Node
	taintNever  []*grammar.Node
	taintEnv    map[calleeCall]bool
	taintDead   map[calleeCall]bool
	// bound: per function, the resolvers of its body (boundIn).
	bound map[boundKey]*Resolver
}

// enter and leave bracket a lookup; the outermost leave drops the results
// kept for its question alone.
func (a *argState) enter() { a.depth++ }

func (a *argState) leave() {
	a.depth--
	if a.depth > 0 {
		return
	}
	for _, fn := range a.taintParams {
		delete(a.params, fn)
	}
	for _, fn := range a.taintNever {
		delete(a.never, fn)
	}
	for k := range a.taintEnv {
		delete(a.envs, k)
	}
	for k := range a.taintDead {
		delete(a.dead, k)
	}
	a.taintParams, a.taintNever = a.taintParams[:0], a.taintNever[:0]
	clear(a.taintEnv)
	clear(a.taintDead)
}

// taintCall marks the result of k in set as kept for the question under
// way alone.
func taintCall(a *argState, set *map[calleeCall]bool, k calleeCall) {
	if *set == nil {
		*set = map[calleeCall]bool{}
	}
	(*set)[k] = true
}

type calleeCall struct{ fn, call *grammar.Node }

type argMemo struct {
	vals map[string][]int64
	busy bool
	// tainted: computed while a lookup was cut (argState.depth).
	tainted bool
}

type neverMemo struct {
	spans   []span
	busy    bool
	tainted bool
}

// paramTest is a condition of a function that tests one of its parameters
// and the stretch of the body it decides.
type paramTest struct {
	cond *grammar.Node
	when deadWhen
	span span
}

// deadWhen says which values of a deciding condition skip its stretch.
type deadWhen uint8

const (
	deadIfFalse deadWhen = iota + 1 // a then-branch, a loop body, the right of &&
	deadIfTrue                      // an else-branch, the right of ||, code after `if (c) return;`
)

func (s *Summaries) args() *argState {
	if s.arg == nil {
		s.arg = &argState{
			params: map[*grammar.Node]*argMemo{},
			envs:   map[calleeCall]map[string][]int64{},
			dead:   map[calleeCall][]span{},
			never:  map[*grammar.Node]*neverMemo{},
			kept:   map[*grammar.Node][]bool{},
			tests:  map[*grammar.Node][]paramTest{},
			locals: map[*grammar.Node]map[string]bool{},
		}
	}
	return s.arg
}

// paramTests indexes the tests of fn's parameters: the if, conditional,
// loop and short-circuit conditions naming one, with the branch each
// decides, and the early exits `if (c) return;` with the rest of their
// block.
func (s *Summaries) paramTests(fn *grammar.Node) []paramTest {
	a := s.args()
	if ts, ok := a.tests[fn]; ok {
		return ts
	}
	var ts []paramTest
	names := map[string]bool{}
	for _, p := range s.paramsOf(fn) {
		if p.Name != "" {
			names[p.Name] = true
		}
	}
	// `if constexpr (kInvalidate)` on a template parameter every call
	// leaves to its default: decided by the calls like an argument.
	for _, tp := range templateParams(fn) {
		if tp.name != "" {
			names[tp.name] = true
		}
	}
	if body := fn.ChildByField("body"); body != nil && len(names) > 0 {
		ds := body.Descendants()
		// Which subtrees name a parameter: children come after their
		// parent in preorder, so one backward pass marks them all. By
		// position in ds (a map by node was most of the work).
		base := body.Index()
		named := make([]bool, len(ds))
		isNamed := func(n *grammar.Node) bool {
			i := n.Index() - base
			return i >= 0 && i < len(named) && named[i]
		}
		for k := len(ds) - 1; k >= 0; k-- {
			n := &ds[k]
			if named[k] || n.Kind() == "identifier" && names[string(n.Bytes())] {
				named[k] = true
				if p := n.Parent(); p != nil && p.Index() >= base {
					named[p.Index()-base] = true
				}
			}
		}
		add := func(cond *grammar.Node, when deadWhen, start, end uint32) {
			// A test that reads a local variable is not decided by
			// the arguments alone.
			if cond != nil && isNamed(cond) && cond.Kind() != "declaration" && !s.readsLocal(fn, cond) {
				ts = append(ts, paramTest{cond: cond, when: when, span: span{start, end}})
			}
		}
		for k := range ds {
			p := &ds[k]
			if !named[k] {
				continue
			}
			switch p.Kind() {
			case "if_statement", "conditional_expression":
				cond := ConditionOf(p)
				if c := p.ChildByField("consequence"); c != nil {
					add(cond, deadIfFalse, c.Start, c.End)
				}
				if c := p.ChildByField("alternative"); c != nil {
					add(cond, deadIfTrue, c.Start, c.End)
				}
				if blk := p.Parent(); blk != nil && blk.Kind() == "compound_statement" {
					if c := earlyExitCondition(p); c != nil {
						add(c, deadIfTrue, p.End, blk.End)
					}
				}
			case "while_statement", "for_statement":
				if b := p.ChildByField("body"); b != nil {
					add(ConditionOf(p), deadIfFalse, b.Start, b.End)
				}
			case "binary_expression":
				r := p.ChildByField("right")
				if r == nil {
					continue
				}
				switch operatorText(p) {
				case "&&":
					add(p.ChildByField("left"), deadIfFalse, r.Start, r.End)
				case "||":
					add(p.ChildByField("left"), deadIfTrue, r.Start, r.End)
				}
			}
		}
	}
	ts = slices.Clip(ts)
	a.tests[fn] = ts
	return ts
}

// earlyExitCondition returns c of a statement `if (c) return ...;` (the
// branch a lone return or a block ending in one, no else).
func earlyExitCondition(st *grammar.Node) *grammar.Node {
	if st.Kind() != "if_statement" || st.ChildByField("alternative") != nil {
		return nil
	}
	body := st.ChildByField("consequence")
	if body != nil && body.Kind() == "compound_statement" {
		kids := body.NamedChildren()
		if len(kids) == 0 {
			return nil
		}
		body = kids[len(kids)-1]
	}
	if body == nil || body.Kind() != "return_statement" {
		return nil
	}
	return ConditionOf(st)
}

// keptParams reports, for each of fn's Params, whether it is named and
// holds the value of the call throughout the body: not assigned,
// incremented or address-taken in it.
func (s *Summaries) keptParams(fn *grammar.Node) []bool {
	a := s.args()
	if k, ok := a.kept[fn]; ok {
		return k
	}
	params := s.paramsOf(fn)
	k := make([]bool, len(params))
	named := false
	for i, p := range params {
		k[i] = p.Name != ""
		named = named || k[i]
	}
	if body := fn.ChildByField("body"); body != nil && named {
		ds := body.Descendants()
		for i := range ds {
			if target := Unparen(writtenTarget(&ds[i])); target != nil && target.Kind() == "identifier" {
				name := target.Text()
				for i, p := range params {
					if k[i] && p.Name == name {
						k[i] = false
					}
				}
			}
		}
	}
	a.kept[fn] = k
	return k
}

// writtenTarget is what expression n writes or lets be written: the left
// side of an assignment, the operand of `++`/`--`, the operand whose
// address `&` takes; nil for any other node.
func writtenTarget(n *grammar.Node) *grammar.Node {
	switch n.Kind() {
	case "assignment_expression":
		return n.ChildByField("left")
	case "update_expression":
		return n.ChildByField("argument")
	case "pointer_expression":
		if operatorText(n) == "&" {
			return n.ChildByField("argument")
		}
	}
	return nil
}

// paramValues returns, for each kept parameter of fn, the values the live
// calls of fn in the unit pass for it (the union over the calls). A
// parameter is absent when some call passes a value that is not constant;
// the map is empty when fn has no live call.
func (s *Summaries) paramValues(fn *grammar.Node) map[string][]int64 {
	a := s.args()
	if m, ok := a.params[fn]; ok {
		if m.busy || m.tainted {
			a.cycles++
		}
		return m.vals
	}
	a.enter()
	defer a.leave()
	cycles := a.cycles
	m := &argMemo{busy: true}
	a.params[fn] = m
	vals := map[string][]int64{}
	var live []CallSite
	for _, cs := range s.sitesOf(fn, true) {
		if !s.deadForEveryCall(cs.Caller.Node, cs.Call) {
			live = append(live, cs)
		}
	}
	if len(live) > 0 {
		params := s.paramsOf(fn)
		for i, kept := range s.keptParams(fn) {
			if !kept {
				continue
			}
			name := params[i].Name
			// More values than MaxValues over the calls: not a constant.
			var all valueSet
			for _, cs := range live {
				vs := s.callEnv(fn, cs.Call, cs.Caller.Node)[name]
				if len(vs) == 0 {
					all.over = true
				}
				for _, v := range vs {
					if !all.add(v) {
						break
					}
				}
				if all.over {
					break
				}
			}
			if vs := all.values(); len(vs) > 0 {
				vals[name] = vs
			}
		}
	}
	m.vals, m.busy = vals, false
	if a.cycles != cycles {
		m.tainted = true
		a.taintParams = append(a.taintParams, fn)
	}
	return vals
}

// callEnv returns the values the call (a call of fn in caller) binds fn's
// parameters to: a constant argument (nullptr, a literal, a named
// constant), a default argument, or a parameter of the caller whose every
// call passes a constant. Parameters it cannot bind are present with no
// value, so that a constant of the same name does not stand in for them.
func (s *Summaries) callEnv(fn, call, caller *grammar.Node) map[string][]int64 {
	a := s.args()
	k := calleeCall{fn, call}
	if env, ok := a.envs[k]; ok {
		if a.taintEnv[k] {
			a.cycles++
		}
		return env
	}
	a.enter()
	defer a.leave()
	cycles := a.cycles
	c, _ := AsCall(call)
	kept := s.keptParams(fn)
	env := map[string][]int64{}
	for i, p := range s.paramsOf(fn) {
		if p.Name == "" {
			continue
		}
		switch {
		case !kept[i]:
			env[p.Name] = nil
		case int(p.Index) < len(c.Args):
			env[p.Name] = s.valuesIn(caller, c.Args[p.Index])
		case p.Node.Kind() == "optional_parameter_declaration":
			env[p.Name] = s.valuesIn(nil, p.Node.ChildByField("default_value"))
		default:
			env[p.Name] = nil
		}
	}
	for i, tp := range templateParams(fn) {
		switch {
		case tp.name == "":
		case i < len(c.TArgs):
			env[tp.name] = s.valuesIn(caller, c.TArgs[i])
		case tp.def != nil:
			env[tp.name] = s.valuesIn(nil, tp.def)
		default:
			env[tp.name] = nil
		}
	}
	known := false
	for _, vs := range env {
		known = known || len(vs) > 0
	}
	if !known {
		// Nothing bound: every reader (a name's values, the tests the
		// call decides) answers as for no binding, so keep none: most
		// calls pass no constant, and the unit keeps one per call.
		env = nil
	}
	a.envs[k] = env
	if a.cycles != cycles {
		taintCall(a, &a.taintEnv, k)
	}
	return env
}

// valuesIn evaluates e, an expression of fn's body (or of a declaration,
// fn nil), to its possible constant values, with fn's parameters bound to
// the values its calls pass. A null pointer constant is 0. It returns nil
// when e reads a local variable or anything not constant.
func (s *Summaries) valuesIn(fn, e *grammar.Node) []int64 {
	if e == nil {
		return nil
	}
	if isNullConst(e) {
		return []int64{0}
	}
	if s.readsLocal(fn, e) {
		return nil
	}
	if fn == nil || fn.Kind() != "function_definition" {
		return s.res.EvalAll(e)
	}
	params := s.paramsOf(fn)
	mentioned := false
	for _, p := range params {
		if p.Name != "" && mentionsName(e, p.Name) {
			mentioned = true
			break
		}
	}
	return s.boundIn(fn, params, mentioned).EvalAll(e)
}

// boundIn is the resolver of fn's body: its parameters bound to the values
// its calls pass (withVals) or to none, shadowing constants of their names
// either way. Made once per function and kind: a resolver binding every
// parameter, made for each expression evaluated, was most of the time of
// a large unit.
func (s *Summaries) boundIn(fn *grammar.Node, params []Param, withVals bool) *Resolver {
	a := s.args()
	k := boundKey{fn, withVals}
	if r, ok := a.bound[k]; ok {
		return r
	}
	var vals map[string][]int64
	keep := true
	if withVals {
		cycles := a.cycles
		vals = s.paramValues(fn)
		// Values cut by recursion hold for this question alone.
		keep = a.cycles == cycles
	}
	env := make(map[string][]int64, len(params))
	for _, p := range params {
		if p.Name != "" {
			env[p.Name] = vals[p.Name]
		}
	}
	r := s.res.Bind(env)
	if keep {
		if a.bound == nil {
			a.bound = map[boundKey]*Resolver{}
		}
		a.bound[k] = r
	}
	return r
}

type boundKey struct {
	fn       *grammar.Node
	withVals bool
}

// readsLocal reports whether e names a variable declared in fn's body (or
// a parameter of a lambda there): its value is not tracked here.
func (s *Summaries) readsLocal(fn, e *grammar.Node) bool {
	if fn == nil {
		return false
	}
	return namesAny(e, s.localNames(fn))
}

// namesAny reports whether an identifier of e is one of names.
func namesAny(e *grammar.Node, names map[string]bool) bool {
	if e == nil || len(names) == 0 {
		return false
	}
	ds := e.Descendants()
	for i := range ds {
		if ds[i].Kind() == "identifier" && names[ds[i].Text()] {
			return true
		}
	}
	return false
}

// localNames returns the names declared anywhere in fn's body, whatever
// the scope: a parameter shadowed by one is not trusted either.
func (s *Summaries) localNames(fn *grammar.Node) map[string]bool {
	a := s.args()
	if l, ok := a.locals[fn]; ok {
		return l
	}
	var l map[string]bool
	if body := fn.ChildByField("body"); body != nil {
		ds := body.Descendants()
		for i := range ds {
			switch ds[i].Kind() {
			case "declaration", "for_range_loop", "parameter_declaration", "optional_parameter_declaration", "field_declaration":
				for _, d := range ds[i].ChildrenByField("declarator") {
					if name := DeclaredName(d); name != "" {
						if l == nil {
							l = map[string]bool{}
						}
						l[name] = true
					}
				}
			}
		}
	}
	a.locals[fn] = l
	return l
}

// functionAt returns the innermost function definition of the unit that
// holds n, found by position (a walk up from n is as long as the else-if
// chain around it).
func (s *Summaries) functionAt(n *grammar.Node) *grammar.Node {
	a := s.args()
	if a.byTree == nil {
		a.byTree = map[*grammar.Tree][]*grammar.Node{}
		for _, d := range s.funcs.All() {
			t := d.Node.Tree()
			a.byTree[t] = append(a.byTree[t], d.Node)
		}
		for _, fs := range a.byTree {
			sort.Slice(fs, func(i, j int) bool { return fs[i].Start < fs[j].Start })
		}
	}
	fs := a.byTree[n.Tree()]
	k := sort.Search(len(fs), func(k int) bool { return fs[k].Start > n.Start })
	for k--; k >= 0; k-- {
		if fs[k].Start <= n.Start && n.End <= fs[k].End {
			return fs[k]
		}
	}
	return nil
}

// mentionsName reports whether e names the identifier name.
func mentionsName(e *grammar.Node, name string) bool {
	ds := e.Descendants()
	for i := range ds {
		if ds[i].Kind() == "identifier" && ds[i].Text() == name {
			return true
		}
	}
	return false
}

// callDead returns the stretches of fn (sorted, disjoint) that the call
// (a call node of fn) skips for the constants it passes.
func (s *Summaries) callDead(fn, call, caller *grammar.Node) []span {
	a := s.args()
	k := calleeCall{fn, call}
	if sp, ok := a.dead[k]; ok {
		if a.taintDead[k] {
			a.cycles++
		}
		return sp
	}
	a.enter()
	defer a.leave()
	cycles := a.cycles
	tests := s.paramTests(fn)
	if len(tests) == 0 {
		return nil
	}
	env := s.callEnv(fn, call, caller)
	known := false
	for _, vs := range env {
		known = known || len(vs) > 0
	}
	if !known {
		// Answered again from the memos of the tests and the binding:
		// most calls pass no constant, and the unit kept an entry per
		// call.
		return nil
	}
	var out []span
	r := s.res.Bind(env)
	for _, t := range tests {
		if s.decides(r, t) {
			out = append(out, t.span)
		}
	}
	out = mergeSpans(out)
	a.dead[k] = out
	if a.cycles != cycles {
		taintCall(a, &a.taintDead, k)
	}
	return out
}

// decides reports whether test t, evaluated by r, always skips its
// stretch.
func (s *Summaries) decides(r *Resolver, t paramTest) bool {
	vs := r.EvalAll(t.cond)
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		if (v != 0) != (t.when == deadIfTrue) {
			return false
		}
	}
	return true
}

// neverSpans returns the stretches of fn (sorted, disjoint) that no live
// call of fn in the unit runs; nil when fn has no live call.
func (s *Summaries) neverSpans(fn *grammar.Node) []span {
	a := s.args()
	if m, ok := a.never[fn]; ok {
		if m.busy || m.tainted {
			a.cycles++
		}
		return m.spans
	}
	a.enter()
	defer a.leave()
	cycles := a.cycles
	m := &neverMemo{busy: true}
	a.never[fn] = m
	var acc []span
	first := true
	// A recursive call counts: its arguments are the ones that change.
	for _, cs := range s.sitesOf(fn, true) {
		if s.deadForEveryCall(cs.Caller.Node, cs.Call) {
			continue // a call that never runs passes nothing
		}
		sp := s.callDead(fn, cs.Call, cs.Caller.Node)
		if first {
			acc, first = sp, false
		} else {
			acc = intersectSpans(acc, sp)
		}
		if len(acc) == 0 {
			break
		}
	}
	m.spans, m.busy = acc, false
	if a.cycles != cycles {
		m.tainted = true
		a.taintNever = append(a.taintNever, fn)
	}
	return acc
}

// deadForCall reports whether node n of fn's body is skipped when fn is
// called by the call node call of caller.
func (s *Summaries) deadForCall(fn, n, call, caller *grammar.Node) bool {
	if n.Tree() != fn.Tree() || len(s.paramTests(fn)) == 0 {
		return false
	}
	return inSpans(s.callDead(fn, call, caller), n.Start)
}

// deadForEveryCall reports whether node n of fn never runs: fn has calls
// in the unit, and each either never runs itself or passes arguments that
// skip n.
func (s *Summaries) deadForEveryCall(fn, n *grammar.Node) bool {
	if fn == nil || fn.Kind() != "function_definition" || n.Tree() != fn.Tree() || len(s.paramTests(fn)) == 0 {
		return false
	}
	return inSpans(s.neverSpans(fn), n.Start)
}

// DeadForEveryCall reports whether node n of fn never runs: every call of
// fn in the unit passes constants (directly, through default arguments, or
// through its own caller's constant arguments) that skip n, or is itself
// code that never runs (`if (sync != nullptr) { ... }` in a helper every
// caller gives nullptr).
func (s *Summaries) DeadForEveryCall(fn, n *grammar.Node) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deadForEveryCall(fn, n)
}

// NeverRuns reports whether node n, anywhere in a function of the unit,
// never runs for the constant arguments of its function's calls.
func (s *Summaries) NeverRuns(n *grammar.Node) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn := s.functionAt(n)
	if fn == nil {
		return false
	}
	return s.deadForEveryCall(fn, n)
}

// mergeSpans sorts spans and joins the overlapping ones.
func mergeSpans(sp []span) []span {
	sort.Slice(sp, func(a, b int) bool {
		return sp[a].start < sp[b].start || sp[a].start == sp[b].start && sp[a].end > sp[b].end
	})
	out := sp[:0]
	for _, x := range sp {
		if l := len(out); l > 0 && x.start <= out[l-1].end {
			out[l-1].end = max(out[l-1].end, x.end)
			continue
		}
		out = append(out, x)
	}
	return out
}

// intersectSpans intersects two sorted, disjoint span lists.
func intersectSpans(a, b []span) []span {
	var out []span
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if lo < hi {
			out = append(out, span{lo, hi})
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return out
}

// inSpans reports whether off lies in one of the sorted, disjoint spans.
func inSpans(sp []span, off uint32) bool {
	k := sort.Search(len(sp), func(k int) bool { return sp[k].end > off })
	return k < len(sp) && sp[k].start <= off
}

// isNullConst reports whether e is a null pointer constant: nullptr, NULL,
// 0, possibly cast.
func isNullConst(e *grammar.Node) bool {
	e = Unparen(e)
	for e != nil && (e.Kind() == "cast_expression" || castType(e) != nil) {
		if e.Kind() == "cast_expression" {
			e = Unparen(e.ChildByField("value"))
		} else {
			a := e.ChildByField("arguments").NamedChildren()
			if len(a) == 0 {
				return false
			}
			e = Unparen(a[0])
		}
	}
	if e == nil {
		return false
	}
	switch e.Kind() {
	case "nullptr", "null":
		return true
	case "number_literal":
		return e.Text() == "0"
	case "identifier":
		return e.Text() == "NULL"
	}
	return false
}
