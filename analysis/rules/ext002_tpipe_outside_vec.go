package rules

import (
	"context"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// TPipeOutsideVec flags an AscendC TPipe that the cube core of a mixed
// extern constructs.
var TPipeOutsideVec = register(&analysis.Analyzer{
	Code:     "EXT002",
	Name:     "tpipe-outside-vec",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "in a mixed extern, create an `AscendC::TPipe` under a vector guard: its constructor on the cube core can hang it",
		What: "Flags an `AscendC::TPipe` object — `AscendC::TPipe pipe;`, an unqualified `TPipe` under `using namespace " +
			"AscendC` / `using AscendC::TPipe` or through an alias, `new AscendC::TPipe`, or an object of a class that " +
			"holds a TPipe member — created in a mixed extern where the cube core compiles it (no core guard, or a " +
			"cube guard). Silent under a vector-only guard, in AIV-only externs, for `pto::TPipe`, and for the " +
			"create-then-`Destroy()` idiom (`TPipe pipe; pipe.Destroy();`, also a class member destroyed in the constructor, and a pipe whose only uses before its `Destroy()` are `InitBuffer` calls handing out cube buffers, with no `M_MTE1` event set or waited in between: catlass's `Arch::Resource`). " +
			"A function whose every call in the extern's files sits under a vector guard, and code after a cube-only " +
			"`return` (`if ASCEND_IS_AIC { ...; return; }`), count as vector-only, and so does the branch of an `if constexpr` on a " +
			"template parameter, the function's or its class's, that only the vector core's calls or declarations instantiate " +
			"(`RunHead<false>()` under `if ASCEND_IS_AIV`, `Phase<true> ph;` under `#ifdef __DAV_C220_VEC__`). A guard on a macro a header of the unit " +
			"defines per core type (`#if defined(__DAV_C220_VEC__) || defined(__DAV_VEC__)` / `#define ON_VEC 1` / `#else` / " +
			"`#define ON_VEC 0`, then `#if ON_VEC`) selects the core like the macros it was made from. An extern is mixed when " +
			"its stub says `core_type=\"mixed\"`, when a runtime kernel configuration lists its source for both the cube " +
			"and the vector (`\"core_type\": \"aic\"` and `\"aiv\"`; one core type decides alone), and otherwise when its " +
			"files hold both cores' calls. Only where the TPipe meets something on the cube: code of the unit the cube compiles " +
			"sets or waits the `M_MTE1` events 0–2 itself (`SetFlag<HardEvent::M_MTE1>(EVENT_ID0)`, `set_flag(PIPE_M, " +
			"PIPE_MTE1, 1)`, or such an event whose id it cannot tell), or the cube runs the pipe's `InitBuffer` into a vector " +
			"buffer (`TBuf<TPosition::VECCALC>`, `TQue<VECIN, n>`: vector-only UB setup on the cube). A cube TPipe handing out " +
			"the matmul's own L1/L0 buffers, in a kernel that leaves those events to it, meets nothing.",
		Why: "The TPipe constructor on the cube core pre-sets the `M_MTE1` events 0–2; a kernel that manages those " +
			"events itself (the cube attention of a fused extern) then waits on events that never arrive, and the cube " +
			"hangs (507018). A pure-vector phase such as RoPE must keep its TPipe and UB setup vector-only, created under " +
			"`#ifdef __DAV_C220_VEC__`; do not create it on the cube \"to be symmetric\". `Destroy()` waits on those " +
			"events and adds a `PIPE_ALL` barrier, so creating a pipe and destroying it at once (catlass " +
			"`Arch::Resource`) is deliberate and fine.",
		Example: "AscendC::TPipe pipe;                 // mixed extern, no guard: the cube builds it too\n" +
			"pipe.InitBuffer(ropeBuf, kUbBytes);",
		UseInstead: "#ifdef __DAV_C220_VEC__\n" +
			"AscendC::TPipe pipe;\n" +
			"pipe.InitBuffer(ropeBuf, kUbBytes);\n" +
			"#endif",
		FixSafety: "Unsafe: wraps the declaration and the statements after it in the same block that use the pipe (or " +
			"names declared alongside it) in `#ifdef __DAV_C220_VEC__` … `#endif` (`__DAV_VEC__` when the file uses " +
			"pto's macro family only). Not offered when those statements hold cube work, or call into it a few levels deep " +
			"(`op.Process()` reaching `Mmad`/`Fixpipe`/`LoadData`, or a call only the cube compiles, `if ASCEND_IS_AIC { " +
			"op.ProcessCube(); }`): the guard would take it from the cube. Otherwise check the range.",
		Guide: "§3",
	},
	Run: runTPipeOutsideVec,
})

func runTPipeOutsideVec(pass *analysis.Pass) {
	if !pass.Mixed() {
		return
	}
	sites := pass.Closure().TPipes()
	if len(sites) == 0 {
		return
	}
	events := managesCubeEvents(pass)
	cores := &coresMemo{pass: pass}
	for _, s := range sites {
		if pass.Stopped() {
			return
		}
		if s.Idiom || s.Cores&cores.fnCores(s.Fn, 0)&cores.constexprBranch(s.Node, s.Fn)&grammar.AIC == 0 {
			continue
		}
		if s.SetupOnly && !cubeEventsBefore(s) && cubeBuffersOnly(s) {
			// Cube buffers handed out, then the pipe released before the
			// cube's own M_MTE1 events: Destroy() waits the preset ones.
			continue
		}
		if !events && !vectorSetupOnCube(pass, cores, s) {
			// A cube TPipe meets nothing when no cube code sets or waits
			// the M_MTE1 events 0-2 its constructor presets, and the
			// cube sets up no vector buffers with it: one handing out
			// the matmul's own L1/L0 buffers is how cube code is written.
			continue
		}
		what := "`AscendC::TPipe` `" + s.Name + "`"
		if s.Class != "" {
			what = "`" + s.Name + "` (a `" + s.Class + "`, whose member `" + s.Member.Text() + "` is an `AscendC::TPipe`)"
		} else if s.Name == "" {
			what = "`new AscendC::TPipe`"
		}
		msg := what + " is created where the cube core of this mixed extern compiles it: the TPipe constructor " +
			"pre-sets the cube's M_MTE1 events and can hang the cube; create it under a vector guard"
		if s.Destroy != nil {
			msg += " (it is used before its `Destroy()`, so this is not the create-then-destroy idiom)"
		}
		d := analysis.Diagnostic{Start: s.Node.Start, End: s.Node.End, Message: msg}
		if s.Member != nil && s.MemberFile != nil {
			d.Related = append(d.Related, analysis.RelatedAt(s.MemberFile, s.Member, "the TPipe member"))
		}
		if edits, ok := vecGuardEdits(pass, s); ok {
			d.Fixes = []analysis.Fix{{
				Title:         "Wrap in `#ifdef " + vecMacro(pass.File) + "` … `#endif`",
				Applicability: analysis.Unsafe,
				Edits:         edits,
			}}
		}
		pass.Report(d)
	}
}

// constexprBranch narrows the cores that run n to the calls of fn whose
// template argument takes n's branch of an `if constexpr` on fn's template
// parameter (`if constexpr (kCube) {...} else { TPipe pipe; }` with
// `RunHead<true>` called on the cube and `RunHead<false>` on the vector
// core: the pipe is the vector's). Both when nothing narrows it.
func (m *coresMemo) constexprBranch(n, fn *grammar.Node) grammar.Cores {
	if fn == nil {
		return grammar.Both
	}
	out := grammar.Both
	for child, p := n, n.Parent(); p != nil && p != fn; child, p = p, p.Parent() {
		if p.Kind() != "if_statement" || !strings.HasPrefix(p.Text(), "if constexpr") {
			continue
		}
		cond := cxx.ConditionOf(p)
		want := child.Field() == "consequence"
		if child.Field() != "consequence" && child.Field() != "alternative" || cond == nil {
			continue
		}
		if cond.Kind() == "unary_expression" && cond.ChildByField("operator") != nil && cond.ChildByField("operator").Text() == "!" {
			cond, want = cxx.Unparen(cond.ChildByField("argument")), !want
		}
		if cond == nil || cond.Kind() != "identifier" {
			continue
		}
		if pos, _ := cxx.TemplateParam(fn, cond.Text()); pos >= 0 {
			out &= m.callsTaking(fn, pos, want)
		} else if cls := cxx.ClassNode(fn); cls != nil {
			// A class template's parameter (`template <bool kIsVec> class
			// Phase`): the instantiations' places decide.
			if pos, _ := cxx.TemplateParam(cls, cond.Text()); pos >= 0 {
				out &= m.instancesTaking(cls, pos, want)
			}
		}
	}
	return out
}

// otherLiteral reports whether template argument a is the boolean
// literal other than want (`false` where true is wanted).
func otherLiteral(a *grammar.Node, want bool) bool {
	switch strings.TrimSpace(a.Text()) {
	case "true", "1":
		return !want
	case "false", "0":
		return want
	}
	return false
}

// instancesTaking is the union of the cores that compile a use of class
// template cls (`Phase<true> ph(a);`) whose argument at pos is the
// literal want (or not a literal); Both when it has none.
func (m *coresMemo) instancesTaking(cls *grammar.Node, pos int, want bool) grammar.Cores {
	name := cls.ChildByField("name")
	if name == nil {
		return grammar.Both
	}
	c, seen := grammar.None, false
	for _, f := range append([]*grammar.File{m.pass.File}, m.pass.Reach().Headers()...) {
		for _, t := range f.Tree.OfKind("template_type") {
			if nm := t.ChildByField("name"); nm == nil || nm.Text() != name.Text() {
				continue
			}
			args := t.ChildByField("arguments")
			if args == nil || cls.Contains(t) {
				continue
			}
			seen = true
			if as := args.NamedChildren(); pos < len(as) && otherLiteral(as[pos], want) {
				continue
			}
			c |= f.CoresOf(t) & m.fnCores(cxx.EnclosingFunction(t), 1)
		}
	}
	if !seen || c == grammar.None {
		return grammar.Both
	}
	return c
}

// callsTaking is the union of the cores of fn's calls whose template
// argument at pos is the literal want (or not a literal), each call's
// cores as fnCores counts them.
func (m *coresMemo) callsTaking(fn *grammar.Node, pos int, want bool) grammar.Cores {
	m.fnCores(fn, 0) // fills callers
	funcs := m.pass.Reach().FuncIndex()
	c := grammar.None
	for _, call := range m.callers[cxx.FunctionName(fn)] {
		if !callsDef(funcs, call.n, fn) {
			continue
		}
		if ca, ok := cxx.AsCall(call.n); ok && pos < len(ca.TArgs) && otherLiteral(ca.TArgs[pos], want) {
			continue
		}
		c |= call.f.CoresOf(call.n) & m.fnCores(cxx.EnclosingFunction(call.n), 1)
	}
	if c == grammar.None {
		return grammar.Both // no call seen: say nothing narrower
	}
	return c
}

// vectorSetupOnCube reports whether the cube runs an `InitBuffer` of pipe
// s into a vector buffer (`TBuf<TPosition::VECCALC>`, `TQue<VECIN, n>`):
// vector-only UB setup on a core with no UB, which guide §3 says hangs
// the cube.
// cubeEventsBefore reports whether s's function sets or waits an M_MTE1
// event between the pipe's creation and its Destroy(), where the events
// its constructor preset are still pending.
func cubeEventsBefore(s *unit.TPipe) bool {
	if s.Fn == nil || s.Destroy == nil {
		return true
	}
	for _, c := range s.Fn.Inside(s.Fn.Tree().OfKind("call_expression")) {
		if c.Start < s.Node.End || c.Start >= s.Destroy.Start {
			continue
		}
		switch cxx.CallName(c) {
		case "SetFlag", "WaitFlag", "set_flag", "wait_flag":
			if strings.Contains(c.Text(), "M_MTE1") {
				return true
			}
		}
	}
	return false
}

// cubeBuffersOnly reports whether every InitBuffer call on s's pipe
// before its Destroy() sets up a buffer its function declares at a cube
// position (`TBuf<TPosition::A1>`, `TQue<QuePosition::CO1, 1>`).
func cubeBuffersOnly(s *unit.TPipe) bool {
	for _, c := range s.Fn.Inside(s.Fn.Tree().OfKind("call_expression")) {
		if c.Start < s.Node.End || c.Start >= s.Destroy.Start {
			continue
		}
		call, ok := cxx.AsCall(c)
		if !ok || call.Name != "InitBuffer" || call.Receiver == nil || cxx.Root(call.Receiver) != s.Name {
			continue
		}
		if len(call.Args) == 0 || !cubeBuffer(s.Fn, cxx.Root(call.Args[0])) {
			return false
		}
	}
	return true
}

// cubeBuffer reports whether fn declares buffer name at a cube position.
func cubeBuffer(fn *grammar.Node, name string) bool {
	return bufferAt(fn, name, []string{"declaration"}, cubePosition)
}

// bufferAt reports whether scope declares buffer name, by a declaration
// of one of kinds whose type text at accepts.
func bufferAt(scope *grammar.Node, name string, kinds []string, at func(typ string) bool) bool {
	for _, kind := range kinds {
		for _, d := range scope.Inside(scope.Tree().OfKind(kind)) {
			t := d.ChildByField("type")
			if t == nil || !at(t.Text()) {
				continue
			}
			for _, dl := range d.ChildrenByField("declarator") {
				if cxx.DeclaredName(dl) == name || dl.Text() == name {
					return true
				}
			}
		}
	}
	return false
}

// cubePosition reports whether a buffer type names an L1, L0 or bias
// table position.
func cubePosition(t string) bool {
	for _, p := range []string{"A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2"} {
		if strings.Contains(t, "Position::"+p+">") || strings.Contains(t, "Position::"+p+",") {
			return true
		}
	}
	return false
}

func vectorSetupOnCube(pass *analysis.Pass, cores *coresMemo, s *unit.TPipe) bool {
	name, scope := s.Name, s.Fn
	if s.Member != nil {
		// The object's own member, set up in its class's methods.
		name, scope = s.Member.Text(), s.Member.Ancestor("field_declaration_list")
	}
	if name == "" || scope == nil {
		return false
	}
	f := pass.File
	if s.MemberFile != nil && s.Member != nil {
		f = s.MemberFile
	}
	for _, c := range scope.Inside(scope.Tree().OfKind("call_expression")) {
		call, ok := cxx.AsCall(c)
		if !ok || call.Name != "InitBuffer" || call.Receiver == nil || cxx.Root(call.Receiver) != name || len(call.Args) == 0 {
			continue
		}
		if f.CoresOf(c)&cores.fnCores(cxx.EnclosingFunction(c), 0)&grammar.AIC == 0 {
			continue
		}
		if vectorBuffer(scope, cxx.Root(call.Args[0])) {
			return true
		}
	}
	return false
}

// vectorBuffer reports whether scope (a function or a class body)
// declares buffer name at a vector position.
func vectorBuffer(scope *grammar.Node, name string) bool {
	return bufferAt(scope, name, []string{"declaration", "field_declaration"}, func(t string) bool {
		return strings.Contains(t, "VECIN") || strings.Contains(t, "VECOUT") || strings.Contains(t, "VECCALC")
	})
}

// managesCubeEvents reports whether code of the unit the cube compiles
// sets or waits an `M_MTE1` event with id 0, 1 or 2 itself
// (`SetFlag<HardEvent::M_MTE1>(EVENT_ID0)`, `set_flag(PIPE_M, PIPE_MTE1,
// 1)`), or one whose id it cannot tell.
func managesCubeEvents(pass *analysis.Pass) bool {
	return unit.Fact(pass.Reach(), cubeEventsKey)
}

var cubeEventsKey = &unit.UnitKey[bool]{
	Name: "rules.ext002.cubeEvents",
	Compute: func(_ context.Context, u *unit.Unit) bool {
		for _, f := range u.CodeFiles() {
			for _, n := range f.Tree.OfKind("call_expression") {
				switch cxx.CallName(n) {
				case "SetFlag", "WaitFlag", "set_flag", "wait_flag":
				default:
					continue
				}
				op, ok := cxx.AsEventOp(n, u.Consts())
				if !ok || op.Pair != "M_MTE1" || f.CoresOf(n)&grammar.AIC == 0 {
					continue
				}
				if len(op.IDs) == 0 || slices.ContainsFunc(op.IDs, func(id int64) bool { return id >= 0 && id <= 2 }) {
					return true
				}
			}
		}
		return false
	},
}

type fileCall struct {
	f *grammar.File
	n *grammar.Node
}

// coresMemo answers fnCores for one pass. The calls of a function depend on
// the pass (a header's come from the files that include it, which change
// while the header's closure, and so its shared model, stays), so they are
// not part of the model.
type coresMemo struct {
	pass *analysis.Pass
	// callers maps a function name to the calls of it in the extern's
	// files (built on first use).
	callers map[string][]fileCall
	cores   map[*grammar.Node]grammar.Cores
	// guarded memoizes guardedCores per function.
	guarded map[*grammar.Node]grammar.Cores
}

// fnCores returns the cores that can run fn: both for the extern entry, a
// function nobody in the extern's files calls (it may be called from
// elsewhere) and file scope; otherwise the union, over its calls, of the
// cores that compile the call and run its caller. A TPipe in a helper only
// called under a vector guard is never constructed on the cube.
func (m *coresMemo) fnCores(fn *grammar.Node, depth int) grammar.Cores {
	pass := m.pass
	if fn == nil || depth > 6 {
		return grammar.Both
	}
	if fn.Kind() == "lambda_expression" {
		return m.fnCores(cxx.EnclosingFunction(fn), depth+1)
	}
	if c, ok := m.cores[fn]; ok {
		return c
	}
	if cxx.IsExternC(fn) {
		return grammar.Both
	}
	if m.callers == nil {
		m.callers = map[string][]fileCall{}
		for _, n := range pass.Nodes("call_expression") {
			name := cxx.CallName(n)
			m.callers[name] = append(m.callers[name], fileCall{pass.File, n})
		}
		// An entry's own functions are called from the entry; a header's
		// from the files that include it.
		if !isUnitEntry(pass) {
			for _, f := range pass.Reach().Headers() {
				for i := range f.Tree.Nodes {
					if n := &f.Tree.Nodes[i]; n.Kind() == "call_expression" {
						name := cxx.CallName(n)
						m.callers[name] = append(m.callers[name], fileCall{f, n})
					}
				}
			}
		}
		m.cores = map[*grammar.Node]grammar.Cores{}
	}
	calls := m.callers[cxx.FunctionName(fn)]
	if len(calls) == 0 {
		return grammar.Both
	}
	m.cores[fn] = grammar.None // a recursive call adds nothing
	c := grammar.None
	funcs := pass.Reach().FuncIndex()
	for _, call := range calls {
		if !callsDef(funcs, call.n, fn) {
			continue // another class's method of that name
		}
		c |= call.f.CoresOf(call.n) & m.fnCores(cxx.EnclosingFunction(call.n), depth+1)
	}
	m.cores[fn] = c
	return c
}

// guardedCores returns the cores a core guard puts n on: the guards
// around n (less the cores that left its function before it), else the
// union over its function's calls in the unit: AIC for a helper only the
// cube's branch calls (`if ASCEND_IS_AIC { PhaseBarrier(); }`), both for
// one the cube's and the vector's branches each call. None where no guard
// on the way decides: unguarded code of an entry, of a function nobody in
// the unit calls, or past a few levels of calls.
func (m *coresMemo) guardedCores(f *grammar.File, n *grammar.Node, depth int) grammar.Cores {
	c := f.CoresOf(n) &^ m.pass.Reach().ExitedBefore(f, n)
	if c != grammar.Both {
		return c
	}
	fn := cxx.EnclosingFunction(n)
	if fn == nil || depth > 6 || cxx.IsExternC(fn) {
		return grammar.None
	}
	if fn.Kind() == "lambda_expression" {
		return m.guardedCores(f, fn, depth+1)
	}
	if g, ok := m.guarded[fn]; ok {
		return g
	}
	m.fnCores(fn, 0) // fills callers
	if m.guarded == nil {
		m.guarded = map[*grammar.Node]grammar.Cores{}
	}
	m.guarded[fn] = grammar.None // a recursive call adds nothing
	g := grammar.None
	funcs := m.pass.Reach().FuncIndex()
	for _, call := range m.callers[cxx.FunctionName(fn)] {
		if callsDef(funcs, call.n, fn) {
			g |= m.guardedCores(call.f, call.n, depth+1)
		}
	}
	m.guarded[fn] = g
	return g
}

// callsDef reports whether call n may run definition fn: its callees, a
// method call narrowed to its receiver's class (cxx.Funcs.OfClass), hold
// fn, or the unit defines none of them.
func callsDef(funcs *cxx.Funcs, n, fn *grammar.Node) bool {
	c, ok := cxx.AsCall(n)
	if !ok {
		return true
	}
	defs := funcs.Callees(c)
	if len(defs) == 0 {
		return true
	}
	for _, d := range funcs.OfClass(n, c, defs) {
		if d.Node == fn {
			return true
		}
	}
	return false
}

// isUnitEntry reports whether the file is an extern entry that no other
// entry includes: nothing outside it calls its functions.
func isUnitEntry(pass *analysis.Pass) bool {
	return pass.Ctx == nil || len(pass.Ctx.Units) == 1 && pass.Ctx.Units[0] == pass.File.Path
}

// vecMacro is the vector guard macro the fix writes: pto's `__DAV_VEC__`
// when the file keys on that family only, else the C220 one extern code
// uses.
func vecMacro(f *grammar.File) string {
	c220, pto := false, false
	for _, d := range f.Guards.Directives {
		for _, m := range d.Macros {
			switch m.Name {
			case "__DAV_C220_VEC__", "__DAV_C220_CUBE__":
				c220 = true
			case "__DAV_VEC__", "__DAV_CUBE__":
				pto = true
			}
		}
	}
	if pto && !c220 {
		return "__DAV_VEC__"
	}
	return "__DAV_C220_VEC__"
}

// vecGuardEdits wraps the site's statement, and the statements after it in
// the same block that use what it declares, in a vector guard.
// cubeWork reports whether n holds, or calls into (a few levels deep), a
// call only the cube compiles or a cube instruction (`Mmad`, `Fixpipe`,
// `LoadData`): work a vector guard would take from the cube.
func cubeWork(pass *analysis.Pass, f *grammar.File, n *grammar.Node, depth int) bool {
	found := false
	funcs := pass.Reach().FuncIndex()
	n.Walk(func(x *grammar.Node) bool {
		if found {
			return false
		}
		if x.Kind() != "call_expression" {
			return true
		}
		c, ok := cxx.AsCall(x)
		if !ok {
			return true
		}
		switch c.Name {
		case "Mmad", "Fixpipe", "LoadData", "LoadDataWithTranspose", "MmadWithSparse":
			found = true
			return false
		}
		if f.CoresOf(x) == grammar.AIC && (depth > 0 || c.Name != "InitBuffer" && c.Name != "Destroy") {
			// A call only the cube compiles (`if ASCEND_IS_AIC {
			// op.ProcessCube(); }`), not the pipe's own setup.
			found = true
			return false
		}
		if depth < 3 {
			for _, d := range funcs.Callees(c) {
				if body := d.Node.ChildByField("body"); body != nil && !d.Node.Contains(x) && cubeWork(pass, d.File, body, depth+1) {
					found = true
					return false
				}
			}
		}
		return true
	})
	return found
}

func vecGuardEdits(pass *analysis.Pass, s *unit.TPipe) ([]analysis.TextEdit, bool) {
	if s.Stmt == nil || s.Scope == nil {
		return nil, false
	}
	block := s.Stmt.Parent()
	if block == nil {
		return nil, false
	}
	var stmts []*grammar.Node
	for _, c := range block.NamedChildren() {
		if c.Start >= s.Stmt.Start && c.Kind() != "comment" {
			stmts = append(stmts, c)
		}
	}
	if len(stmts) == 0 {
		return nil, false
	}
	names := map[string]bool{}
	declared := func(st *grammar.Node) {
		ds := st.Descendants()
		for i := range ds {
			if ds[i].Kind() == "identifier" && isDeclaratorOf(&ds[i]) {
				names[ds[i].Text()] = true
			}
		}
	}
	if s.Name != "" {
		names[s.Name] = true
	}
	declared(stmts[0])
	last := 0
	for changed := true; changed; {
		changed = false
		for i := last + 1; i < len(stmts); i++ {
			if mentions(stmts[i], names) {
				for j := last + 1; j <= i; j++ {
					declared(stmts[j])
				}
				last = i
				changed = true
			}
		}
	}
	if s.Fn != nil {
		// A use of the wrapped names after the range (the block is an
		// #if branch, `rope.Run()` after its #endif) would not compile
		// where the guard drops the declaration.
		end := stmts[last].End
		for _, id := range s.Fn.Inside(s.Fn.Tree().OfKind("identifier")) {
			if id.Start >= end && names[id.Text()] {
				return nil, false
			}
		}
	}
	for _, st := range stmts[:last+1] {
		if cubeWork(pass, pass.File, st, 0) {
			// `op.Process()` running the cube's matmul too: under a
			// vector guard the cube would lose its work.
			return nil, false
		}
	}
	first, end := stmts[0], stmts[last]
	src := pass.File.Src
	indent, alone := cxx.LineIndent(src, first.Start)
	macro := vecMacro(pass.File)
	var edits []analysis.TextEdit
	if alone {
		ls := cxx.LineStart(src, first.Start)
		edits = append(edits, analysis.TextEdit{Start: ls, End: ls, NewText: indent + "#ifdef " + macro + "\n"})
	} else {
		edits = append(edits, analysis.TextEdit{Start: first.Start, End: first.Start, NewText: "\n" + indent + "#ifdef " + macro + "\n" + indent})
	}
	le := cxx.LineEnd(src, end.End) // just past the newline
	if onlyCommentOrSpace(string(src[end.End:le])) {
		if le > 0 && src[le-1] == '\n' {
			edits = append(edits, analysis.TextEdit{Start: le, End: le, NewText: indent + "#endif\n"})
		} else {
			edits = append(edits, analysis.TextEdit{Start: le, End: le, NewText: "\n" + indent + "#endif\n"})
		}
	} else {
		edits = append(edits, analysis.TextEdit{Start: end.End, End: end.End, NewText: "\n" + indent + "#endif\n" + indent})
	}
	return edits, true
}

// isDeclaratorOf reports whether an identifier is the name a declaration
// declares.
func isDeclaratorOf(id *grammar.Node) bool {
	for c, p := id, id.Parent(); p != nil; c, p = p, p.Parent() {
		switch p.Kind() {
		case "init_declarator", "pointer_declarator", "reference_declarator", "array_declarator":
			if c.Field() != "declarator" {
				return false
			}
			continue
		case "declaration":
			return c.Field() == "declarator"
		}
		return false
	}
	return false
}

func mentions(st *grammar.Node, names map[string]bool) bool {
	ds := st.Descendants()
	for i := range ds {
		if ds[i].Kind() == "identifier" && names[ds[i].Text()] {
			return true
		}
	}
	return false
}
