package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// SyncAllAIVOnly flags the vector-only hardware barrier where the cube core
// of a mixed extern compiles it.
var SyncAllAIVOnly = register(&analysis.Analyzer{
	Code:     "EXT004",
	Name:     "syncall-aiv-only",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "`SyncAll()` defaults to a vector-only barrier; a mixed extern needs `SyncAll<false>()`",
		What: "Flags the hardware barrier `SyncAll()`, `SyncAll<>()` or `SyncAll<true>()` (with or without `AscendC::`; " +
			"a template argument that is a named constant is resolved, and so is a template parameter of the function around the call when " +
			"every call of that function leaves it to a true default or passes true: `template <bool kAivOnly = true> void StageFence() " +
			"{ SyncAll<kAivOnly>(); }` called as `StageFence()`, or a parameter of the class template around it when every instance " +
			"the unit writes leaves it to a true default or passes true: `HwBarrier<>::Arrive()`, also as a policy's default " +
			"template argument; the fix is then unsafe) when the extern is mixed and the cube core " +
			"compiles the call: no core guard around it, or a cube guard (`#ifdef __DAV_C220_CUBE__`, `if ASCEND_IS_AIC`, " +
			"`if (g_coreType == AscendC::AIC)`, ...). Silent under a vector-only guard, in AIV-only externs, in " +
			"`__CPU_SIM` branches, in an `if constexpr` branch whose condition is a constant that discards it, and for " +
			"the three-argument software `SyncAll(gm, ub, cores)`. A call under an `if constexpr` whose condition " +
			"cannot be evaluated (a template parameter) is reported at info. A use of a macro whose body is the vector-only " +
			"barrier (`#define PHASE_BARRIER() AscendC::SyncAll()`) is reported at the use, without a fix: the macro may serve " +
			"other externs. In a kernel that owns its launch (a standalone `__global__` kernel, or one of unknown launch) " +
			"only a barrier both core types' guarded branches reach is reported: a helper or a macro that the cube's branch " +
			"(`if ASCEND_IS_AIC`, through its callers) and the vector's branch both use as their fence, or a barrier no guard keeps " +
			"off either core type that sits, in its function or through unguarded calls in a caller's, between a branch only one core " +
			"type runs and a later branch only the other runs (`if ASCEND_IS_AIV { dequant(); } Fence(); if ASCEND_IS_AIC { matmul(); }`): " +
			"a phase of one type ordered before the other's. Otherwise an unguarded " +
			"barrier may sit in vector code the launch keeps off the cube, and a barrier each branch calls on its own may " +
			"order that core type alone on purpose (cube split-K partials, vector row sums).",
		Why: "`template <bool isAIVOnly = true> void SyncAll()`: the default orders the vector cores only, while the cube " +
			"cores run a cube-only barrier. Nothing orders cube against vector, so GM written by the vector phase is read " +
			"early by the cube (wrong data), and if another path calls `SyncAll<false>()` the kernel hangs (507018). " +
			"The guide (§5) puts it as \"it never releases the cube cores\"; the hang or the wrong data is what you see. " +
			"Under a vector-only guard the vector barrier is correct, and AIV-only externs have no cube to release.",
		Example:    "AscendC::SyncAll();          // in a mixed extern, unguarded",
		UseInstead: "AscendC::SyncAll<false>();   // whole-core barrier: per-type syncs, then cube<->vector",
		FixSafety: "Safe: rewrites the call to `SyncAll<false>()`, the barrier a mixed kernel means. A call inside an " +
			"`if constexpr` whose condition cannot be evaluated is reported at info, as the branch may never be taken. " +
			"The cube leaving the function first (`if ASCEND_IS_AIC { return; }`, or a macro of the unit whose body does " +
			"that) makes the rest vector-only and the call correct. After a macro extern-lsp cannot read (its definition " +
			"is in no file of the extern, or a use of a pasting macro whose expansion it could not read whole or that " +
			"returns) or a condition on an unknown template argument, the fix is offered as unsafe: " +
			"if the cube already left there, `SyncAll<false>()` would wait for it forever. A barrier a helper's template default " +
			"makes vector-only is not rewritten when the helper's file is compiled into other kernels too (a shared header): " +
			"a vector-only kernel calling it means the vector barrier. In a kernel that owns its launch " +
			"the fix is unsafe too: the cross-core barrier needs the FFTS base the kernel sets itself (`SetSyncBaseAddr`).",
		Guide: "§5",
		Applies: "Whole on units the pypto/simpler runtime calls per task (entries an `@pl.jit.extern` stub links, " +
			"runtime-ABI kernels, kernels a runtime kernel configuration names). On standalone `__global__` kernels and " +
			"units of unknown launch, only where both core types' guarded branches use the barrier as their fence, or it " +
			"separates one core type's branch from the other's. " +
			"Not on CPU-simulator or host-only code.",
	},
	Run: runSyncAllAIVOnly,
})

func runSyncAllAIVOnly(pass *analysis.Pass) {
	if !pass.Mixed() {
		return
	}
	dead := deadConstexprs(pass.Consts)
	cores := &coresMemo{pass: pass}
	for _, n := range pass.Nodes("call_expression") {
		if pass.Stopped() {
			return
		}
		call, ok := cxx.AsCall(n)
		if !ok || !cxx.IsHardwareSyncAll(call) {
			continue
		}
		aivOnly, known := cxx.SyncAllAIVOnly(call, pass.Consts)
		viaDefault := ""
		if !known && len(call.TArgs) == 1 {
			// `template <bool kAivOnly = true> void Fence() {
			// SyncAll<kAivOnly>(); }` called as `Fence()`: the default.
			aivOnly, viaDefault = defaultedAIVOnly(pass, n, call.TArgs[0])
			known = viaDefault != ""
		}
		if !aivOnly || !known {
			continue
		}
		if pass.Cores(n)&grammar.AIC == 0 || dead.Of(n) {
			continue
		}
		written := "`" + callText(n) + "`"
		if viaDefault != "" {
			written += " (" + viaDefault + ")"
		}
		sev := analysis.Severity(0)
		msg := written + " is the vector-only barrier (isAIVOnly=true) but the cube core of this mixed extern compiles it: " +
			"nothing orders cube against vector and the kernel can hang; use `SyncAll<false>()`"
		runtime := pass.CompiledUnder(n.Start, analysis.PremiseRuntime)
		if !runtime {
			// A kernel that owns its launch: only a barrier both core
			// types' own branches reach is a phase fence between them.
			if cores.bothBranches(pass.File, n) {
				msg = written + " is the vector-only barrier (isAIVOnly=true), yet both the cube's and the vector's branches of this " +
					"mixed kernel call it as their fence: each core type runs its own barrier, nothing orders cube against vector " +
					"(the later phase reads GM the other has not written); use `SyncAll<false>()`"
			} else if pf, first, second := cores.sandwich(pass.File, n, 0); first != nil {
				msg = written + " is the vector-only barrier (isAIVOnly=true), yet this mixed kernel runs it on both core types between " +
					phaseName(pass.File, pf, first) + " and " + phaseName(pass.File, pf, second) + ": each core type runs its own barrier, " +
					"nothing orders cube against vector (the later phase reads GM the other has not written); use `SyncAll<false>()`"
			} else {
				continue
			}
		}
		if cond := unevaluableConstexpr(pass, n); cond != nil {
			sev = analysis.SeverityInfo
			msg = written + " is the vector-only barrier; it sits under `if constexpr " + cond.Text() +
				"`, which extern-lsp cannot evaluate: if the cube core takes this branch, use `SyncAll<false>()`"
		}
		fn := n.ChildByField("function")
		prefix := ""
		if call.Qualified != call.Name {
			prefix = call.Qualified[:len(call.Qualified)-len(call.Name)]
		}
		title := "Replace with `" + prefix + "SyncAll<false>()`"
		edits := []analysis.TextEdit{{Start: fn.Start, End: fn.End, NewText: prefix + "SyncAll<false>"}}
		// SyncAll<false> pairs each cube with both vector lanes: a stub
		// not declaring dual_aiv_dispatch would then hang (EXT105), so
		// the one fix declares it too.
		for _, s := range undispatchedStubs(pass) {
			edits = append(edits, dualDispatchEdit(s))
			title = "Replace with `" + prefix + "SyncAll<false>()` and declare `dual_aiv_dispatch=True`"
		}
		applicability := analysis.Safe
		if viaDefault != "" || !runtime {
			// A kernel owning its launch may not have set the FFTS base the
			// cross-core barrier needs (SetSyncBaseAddr).
			// The helper's other callers, if any appear, would get the
			// cross-core barrier too.
			applicability = analysis.Unsafe
		}
		var fixes []analysis.Fix
		if viaDefault == "" || len(pass.Units()) <= 1 {
			// A helper several kernels compile (a shared header's fence)
			// keeps its default: a vector-only kernel calling it means
			// the vector barrier.
			fixes = []analysis.Fix{{Title: title, Applicability: applicability, Edits: edits}}
		}
		pass.Report(analysis.Diagnostic{
			Start:    n.Start,
			End:      n.End,
			Severity: sev,
			Message:  msg,
			Fixes:    fixes,
		})
	}
	reportBarrierMacros(pass, dead, cores)
}

// vectorOnlySyncAll finds a vector-only hardware barrier in a macro body:
// `SyncAll()`, `SyncAll<true>()` (not the software `SyncAll(gm, ub, n)`).
var vectorOnlySyncAll = regexp.MustCompile(`(?:\bAscendC\s*::\s*|[^:\w]|^)SyncAll\s*(?:<\s*(?:true)?\s*>)?\s*\(\s*\)`)

// reportBarrierMacros reports the file's uses of the unit's macros whose
// body is the vector-only barrier (`#define PHASE_BARRIER()
// AscendC::SyncAll()`) where the cube compiles them: each use is the call
// itself. The macro may serve other externs, so no fix rewrites it.
func reportBarrierMacros(pass *analysis.Pass, dead *shallowUpward[bool], cores *coresMemo) {
	for name, ms := range pass.Reach().Macros().ByName {
		if len(ms) != 1 || !strings.Contains(ms[0].Body, "SyncAll") || !vectorOnlySyncAll.MatchString(ms[0].Body) {
			continue
		}
		uses := macroUses(pass, ms[0])
		// Where the kernel owns its launch, the macro is a phase fence
		// only when the cube's and the vector's branches both use it.
		var guarded grammar.Cores
		for _, use := range uses {
			if !pass.CompiledUnder(use.Start, analysis.PremiseRuntime) && !dead.Of(use) {
				guarded |= cores.guardedCores(pass.File, use, 0)
			}
		}
		for _, use := range uses {
			if pass.Cores(use)&grammar.AIC == 0 || dead.Of(use) {
				continue
			}
			msg := "`" + name + "` expands to `" + strings.TrimSpace(ms[0].Body) + "`, the vector-only barrier (isAIVOnly=true), but the " +
				"cube core of this mixed extern compiles it: nothing orders cube against vector and the kernel can hang; " +
				"make the macro `SyncAll<false>()`"
			if !pass.CompiledUnder(use.Start, analysis.PremiseRuntime) {
				if guarded != grammar.Both || cores.guardedCores(pass.File, use, 0) == grammar.None {
					continue
				}
				msg = "`" + name + "` expands to `" + strings.TrimSpace(ms[0].Body) + "`, the vector-only barrier (isAIVOnly=true), yet both " +
					"the cube's and the vector's branches of this mixed kernel use it as their fence: each core type runs its own " +
					"barrier, nothing orders cube against vector; make the macro `SyncAll<false>()`"
			}
			pass.Report(analysis.Diagnostic{Start: use.Start, End: use.End, Message: msg})
		}
	}
}

// sandwich finds, for a barrier no core guard keeps off either core type,
// the phases it separates: a branch only one core type runs before the
// statement reaching it and one only the other runs after, in the same
// block (`if ASCEND_IS_AIV { dequant(); } Fence(); if ASCEND_IS_AIC {
// matmul(); }`), in its function or, through unguarded calls, its callers'.
// That barrier is meant to order one type's phase before the other's.
func (m *coresMemo) sandwich(f *grammar.File, n *grammar.Node, depth int) (in *grammar.File, first, second *grammar.Node) {
	if f.CoresOf(n) != grammar.Both {
		return nil, nil, nil
	}
	if a, b := phasesAround(f, n); a != nil {
		return f, a, b
	}
	fn := cxx.EnclosingFunction(n)
	if fn == nil || depth > 4 || cxx.IsExternC(fn) || fn.Kind() == "lambda_expression" {
		return nil, nil, nil
	}
	m.fnCores(fn, 0) // fills callers
	funcs := m.pass.Reach().FuncIndex()
	for _, call := range m.callers[cxx.FunctionName(fn)] {
		if callsDef(funcs, call.n, fn) {
			if in, a, b := m.sandwich(call.f, call.n, depth+1); a != nil {
				return in, a, b
			}
		}
	}
	return nil, nil, nil
}

// phasesAround returns the last branch for one core type before n's
// statement in its block and the first for the other type after it.
func phasesAround(f *grammar.File, n *grammar.Node) (first, second *grammar.Node) {
	stmt := cxx.BlockStatementOf(n)
	if stmt == nil || stmt.Parent() == nil {
		return nil, nil
	}
	var before grammar.Cores
	for c := stmt.Parent().FirstChild(); c != nil; c = c.NextSibling() {
		if !c.IsNamed() {
			continue
		}
		if c.Start < stmt.Start {
			if t := phaseCores(f, c); t != grammar.None {
				first, before = c, t
			}
			continue
		}
		if c.Start > stmt.Start && first != nil {
			if t := phaseCores(f, c); t != grammar.None && t != before {
				return first, c
			}
		}
	}
	return nil, nil
}

// phaseCores is the one core type a statement's code runs on when it is a
// branch for that type alone: `if ASCEND_IS_AIV { ... }` (without an
// else), `#if defined(__DAV_C220_CUBE__) ... #endif` (without an #elif or
// #else); None for anything else.
func phaseCores(f *grammar.File, s *grammar.Node) grammar.Cores {
	switch {
	case s.Kind() == "if_statement":
		if s.ChildByField("alternative") != nil {
			return grammar.None
		}
		if c, ok := grammar.CoreCondition(s.ChildByField("condition")); ok && (c == grammar.AIC || c == grammar.AIV) {
			return c
		}
	case cxx.IsPreprocBranch(s.Kind()):
		out := grammar.None
		for c := s.FirstChild(); c != nil; c = c.NextSibling() {
			if !c.IsNamed() || c.Field() == "condition" || c.Field() == "name" || c.Kind() == "comment" {
				continue
			}
			if cxx.IsPreprocBranch(c.Kind()) && c.Field() == "alternative" {
				return grammar.None
			}
			out |= f.CoresOf(c)
		}
		if out == grammar.AIC || out == grammar.AIV {
			return out
		}
	}
	return grammar.None
}

// phaseName names a core type's branch of file in, for a message in
// from's: "the vector's branch (line 12)", or (entry.cpp:12) in another
// file.
func phaseName(from, in *grammar.File, s *grammar.Node) string {
	who := "the cube's"
	if phaseCores(in, s) == grammar.AIV {
		who = "the vector's"
	}
	line, _ := in.Lines.Position(s.Start)
	if in == from {
		return fmt.Sprintf("%s branch (line %d)", who, line+1)
	}
	rel, _ := filepath.Rel(filepath.Dir(from.Path), in.Path)
	return fmt.Sprintf("%s branch (%s:%d)", who, filepath.ToSlash(rel), line+1)
}

// bothBranches reports whether the cube's and the vector's guarded
// branches both reach n (coresMemo.guardedCores).
func (m *coresMemo) bothBranches(f *grammar.File, n *grammar.Node) bool {
	return m.guardedCores(f, n, 0) == grammar.Both
}

// defaultedAIVOnly reads a SyncAll template argument that names a template
// parameter of the function around the call: when every call of that
// function in the unit leaves the parameter to its default (or passes a
// constant), the barrier is vector-only if each of those values is true.
// how says where the value came from ("" when it cannot be told).
func defaultedAIVOnly(pass *analysis.Pass, n, arg *grammar.Node) (aivOnly bool, how string) {
	fn := cxx.EnclosingFunction(n)
	arg = cxx.Unparen(arg)
	// A name in a template argument list reads as a type (`SyncAll<kAivOnly>`).
	if fn == nil || arg == nil || arg.Kind() != "identifier" && arg.Kind() != "type_descriptor" {
		return false, ""
	}
	pos, def := cxx.TemplateParam(fn, arg.Text())
	name := cxx.FunctionName(fn)
	if pos < 0 {
		return classDefaultedAIVOnly(pass, fn, arg.Text())
	}
	if name == "" {
		return false, ""
	}
	calls := 0
	for _, f := range pass.Reach().Files {
		for _, c := range pass.Reach().Calls(f).Named(name) {
			call, ok := cxx.AsCall(c)
			if !ok || !trueAt(pass, call.TArgs, pos, def) {
				return false, ""
			}
			calls++
		}
	}
	// `#define PHASE_FENCE() phase::Fence()`: a macro's call is a call
	// at each use.
	for _, ms := range pass.Reach().Macros().ByName {
		for _, m := range ms {
			if m.Def == nil || !strings.Contains(m.Body, name) {
				continue
			}
			for _, c := range m.Def.Inside(m.Def.Tree().OfKind("call_expression")) {
				call, ok := cxx.AsCall(c)
				if !ok || call.Name != name {
					continue
				}
				if !trueAt(pass, call.TArgs, pos, def) {
					return false, ""
				}
				calls++
			}
		}
	}
	if calls == 0 {
		return false, ""
	}
	return true, "`" + arg.Text() + "` is true in every call of `" + name + "`"
}

// classDefaultedAIVOnly is defaultedAIVOnly for a parameter of the class
// template around fn (`template <bool kAivOnly = true> struct HwBarrier {
// static void Arrive() { SyncAll<kAivOnly>(); } }`): the barrier is
// vector-only when every instance the unit writes (`HwBarrier<>`, a policy's
// default template argument, an alias) leaves the parameter to a true
// default or passes true.
func classDefaultedAIVOnly(pass *analysis.Pass, fn *grammar.Node, param string) (aivOnly bool, how string) {
	cls := fn.Ancestor("class_specifier", "struct_specifier")
	if cls == nil {
		return false, ""
	}
	nameNode := cls.ChildByField("name")
	pos, def := cxx.TemplateParam(cls, param)
	if nameNode == nil || pos < 0 {
		return false, ""
	}
	name := nameNode.Text()
	instances := 0
	for _, f := range pass.Reach().Files {
		if !bytes.Contains(f.Src, []byte(name)) {
			continue
		}
		for _, t := range f.Tree.OfKind("template_type") {
			tn := t.ChildByField("name")
			if tn == nil || tn.Text() != name || cls.Contains(t) {
				// The class naming itself (`using Self = HwBarrier<kAivOnly>`)
				// is no instance.
				continue
			}
			var targs []*grammar.Node
			if l := t.ChildByField("arguments"); l != nil {
				targs = cxx.NamedNonComments(l)
			}
			if !trueAt(pass, targs, pos, def) {
				return false, ""
			}
			instances++
		}
	}
	if instances == 0 {
		return false, ""
	}
	return true, "`" + param + "` is true in every instance of `" + name + "`"
}

// trueAt reports whether the template argument at pos of targs, or the
// parameter's default def where none is written, is a constant true.
func trueAt(pass *analysis.Pass, targs []*grammar.Node, pos int, def *grammar.Node) bool {
	v := def
	if pos < len(targs) {
		v = targs[pos]
	}
	if v == nil {
		return false
	}
	x, ok := pass.Consts.Eval(v)
	return ok && x != 0
}

// callText is a call as written, with runs of white space folded so a call
// split over lines reads on one.
func callText(n *grammar.Node) string {
	return strings.Join(strings.Fields(n.Text()), " ")
}

// unevaluableConstexpr returns the condition of an enclosing `if constexpr`
// that neither the guard model nor the constant resolver can decide.
func unevaluableConstexpr(pass *analysis.Pass, n *grammar.Node) *grammar.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() != "if_statement" || p.ChildOfKind("constexpr") == nil {
			continue
		}
		cond := p.ChildByField("condition")
		if _, ok := grammar.CoreCondition(cond); ok {
			continue
		}
		if _, ok := pass.Consts.Eval(cond); ok {
			continue
		}
		return cond
	}
	return nil
}

// deadConstexprs answers whether a node sits in a branch of an `if
// constexpr` that the constant resolver proves is never taken (a template
// flag or constexpr set the other way): that code is discarded, not
// compiled. Core-type conditions are left to the guard model. Memoized
// along the ancestors past a few levels: a rule asks per call, and a call
// deep in an else-if chain has thousands.
func deadConstexprs(consts *cxx.Resolver) *shallowUpward[bool] {
	return newShallowUpward(nil, func(p, child *grammar.Node, above bool) bool {
		if above || p.Kind() != "if_statement" || p.ChildOfKind("constexpr") == nil {
			return above
		}
		cond := p.ChildByField("condition")
		if _, ok := grammar.CoreCondition(cond); ok {
			return false
		}
		v, ok := consts.Eval(cond)
		return ok && (child.Field() == "consequence" && v == 0 || child.Field() == "alternative" && v != 0)
	})
}

// undispatchedStubs are the mixed stubs of the file's externs declared
// without dual_aiv_dispatch=True.
func undispatchedStubs(pass *analysis.Pass) []*abi.Stub {
	if pass.Ctx == nil {
		return nil
	}
	var out []*abi.Stub
	seen := map[*abi.Stub]bool{}
	for _, u := range pass.Ctx.Units {
		for _, s := range pass.WS.StubsForEntry(u) {
			if !seen[s] && s.Mixed() && !s.DualAIVDispatch && s.HasArgs && !s.SyntaxErrors {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
