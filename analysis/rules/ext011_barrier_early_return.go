package rules

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// BarrierEarlyReturn flags a return that lets a core leave before a
// hardware barrier the other cores wait at.
var BarrierEarlyReturn = register(&analysis.Analyzer{
	Code:     "EXT011",
	Name:     "barrier-early-return",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Doc: analysis.Doc{
		Summary: "a `return` before a hardware barrier, or a branch around one, lets one core skip it while the others wait for it",
		What: "Flags a `return` that can run before a hardware barrier (`SyncAll`, a mode-0 cross-core flag set, also called through a " +
			"macro forwarding its arguments, `INTRINSIC_NO_ARGS(AscendC::SyncAll)`; a return " +
			"between the set and its wait has already arrived and is silent), or AscendC's software barrier `SyncAll(gmWorkspace, " +
			"ubWorkspace)` (every core must arrive at it too; with a core count other than 0 as its third argument the other cores " +
			"are left out, and it is not judged), later in the same function, or before a call that reaches one through workspace functions (a few levels " +
			"deep, in the file and its includes), or inside a loop whose body reaches one. Conditional returns are errors " +
			"unless the condition is the same on every core of the type: a core-type test, `if constexpr`, a constant, a " +
			"template argument, a tiling-key test (`TILING_KEY_IS(k)`), the launch's workspace (`GetUserWorkspace(ws)`, `GetSysWorkSpacePtr()`), or values read only from scalar `args[k]` slots, tiling fields, GM words every core reads " +
			"at the same address, and core counts (`get_block_num(args)`, `GetBlockNum()`), followed through locals, " +
			"members, helper returns and the arguments callers pass. A value derived from the block, sub-block or lane " +
			"id, from a GM word at a core's own address, from a core's own UB (`LocalTensor::GetValue`), or a parameter or " +
			"member no code of the unit sets that is named for the core's own id (`blockIdx_`, `subBlockIdx`) is not. " +
			"A condition decided only by a call the unit does not define (an SDK accessor, a helper in an include that " +
			"did not resolve) may be either: it is reported at info, naming the call, and counted in `--statistics` as " +
			"a finding said less. So is a block's share of the work outside loops (a value computed from the block id and the tiling, " +
			"`if (start >= rows)`) where the operator's host sizes its launch to the work (`SetBlockDim(n)`, n computed, not the chip's " +
			"core count alone), or, outside an operator's `op_host`, passes a tiling field set that way to the kernel's launch " +
			"(`k<<<n, …>>>`, `ACLRT_LAUNCH_KERNEL(k)(n, …)`, through a wrapper's parameter to its callers' `k_do(…, tiling.used, …)` " +
			"with `used = std::min(cores, n)`, or a rounded-up quotient of the work, `(n + S - 1) / S`): whether a launched block gets no share is the host's arithmetic, which the analysis does not follow, " +
			"and the info names that launch; with every core launched (`SetBlockDim(GetCoreNumAiv())`) it stays an error, and so it does " +
			"when the host may launch the smaller of two counts (`n = std::min(cores, rows)`) and the block's first item is its id times " +
			"the work over the launched count rounded up (`idx * ((rows + n - 1) / n) >= rows`): 5 rows on 4 blocks leave block 3 none. " +
			"Silent too: a test that the block's share of a tiling field is empty (`count <= 0`, `count == 0`, `count < 1`, " +
			"`!count`, `this->count`) where the operator keeps its kernel in a `kernel` folder and its host tiling in the " +
			"`tiling` folder beside it, and every count that tiling launches (`SetBlockDim(n)`) is 0, 1 or the count a split " +
			"function returns (through `return t.used;` or a local holding it) that, in the block storing it, first loops " +
			"`for (i = 0; i < n; i++)` storing each block's share of the field a value of at least one unit (a positive " +
			"constant, `(k + 1) * c` with k unsigned, `k * c` with `k = a / b` in the `else` of `if (a <= b)`, or a local " +
			"every pass sets to one), on every pass and with no plain store to the shares after it (`+=` only adds): every " +
			"launched block gets a share, or one block runs alone (not on the vector cores of a mixed kernel whose ids count " +
			"past the block number); a tiling that launches every core, or shares that can be 0, stays an error. " +
			"A kernel (not mixed) every host launch of which starts one block (read as for EXT013) is silent: its one core waits for nobody; " +
			"so is a helper only such kernels call. " +
			"A launch the analysis cannot read (a kernel launched through a handle looked up by name, a count computed by a call it does not know, " +
			"a wrapper called only from outside the folder above it) decides nothing: the test is judged by the kernel's code alone, and a block-id " +
			"test against a bound the kernel computes stays an error (on the measured trees such returns were real hangs far more often than not). " +
			"A statement use of a function-like macro whose body returns under a test (`RETURN_IF_IDLE(used);` with `do { if " +
			"(GetBlockIdx() >= (used)) { return; } } while (0)`) is judged at the use, by the body's test: reported when the test " +
			"differs per core (the block or lane id, a core's own data) and not when it cannot hold (the launch's block count passed " +
			"for the bound) or only code the analysis cannot see into decides it. A `break` out of `do { ... } while (0)` skips the rest " +
			"of that body like a return (`if (!op.Init(...)) break; op.Process();`, written out or in a macro) and is judged against " +
			"the barriers in the body alone: one after the loop is met by every core. " +
			"An unconditional `return` before a barrier is reported as a " +
			"debugging probe left in (warning), unless its only guard is a preprocessor switch (`#ifdef STOP_AFTER_X`, `#if defined(X)`, " +
			"`#if X`, one term of an `&&` of them) that no build of the unit defines: no file of the tree or the unit #defines it, and no build " +
			"or Python file of the roots names it (`-DSTOP_AFTER_X`, `add_compile_definitions`, a list of names; a pl.jit.extern stub has no " +
			"compile options). Such a probe is off, and on, every core would return alike and none would wait. It stays a warning when a " +
			"build definition's name is not plain text (`-D${STAGE}`, `f\"-D{stage}\"`: `--statistics` lists them as unread build -D), " +
			"the unit includes a project header no file of the tree is (it could define the switch), or the index did not walk the roots whole. A return after the last barrier, or on a branch that passed its own " +
			"barrier, is silent. A return ending one branch of an `if` whose other branch reaches the barrier is judged by " +
			"that `if`'s condition (a dispatch on a tiling key every core shares is silent: no core meets that barrier while another can take the return, " +
			"so a barrier only in the other branch of an `if constexpr` or a shared mode is not after it), and every cube core leaving " +
			"before a bare `SyncAll()`, which only the vector cores wait in, is silent, as is a return whose block ends in a " +
			"`return` the other cores take before the barrier. Also silent: a return that cannot run, under a test that a " +
			"block id reaches the block count (`GetBlockIdx() >= GetBlockNum()`, the task's `get_block_idx(args) >= get_block_num(args)`, `idx + 1 > num`, a kernel parameter every host launch " +
			"passes its own block count, `k<<<n, …>>>(x, n)` (or a wrapper's two parameters every caller passes one value), followed through the members and helper parameters it is passed to by the " +
			"kernels that run the return (not by a kernel launched on one block that passes the helper another value), `idx * T >= n` where every " +
			"host launch starts a block per share of S of the n it passes, rounded up (`k<<<(n + S - 1) / S, …>>>(x, n)`, `CeilDiv(n, S)`, " +
			"constants with T <= S), a constant no host launch of the kernels running the return exceeds (`idx >= 8` with `k<<<8, …>>>` " +
			"or `ACLRT_LAUNCH_KERNEL(k)(8, …)`), or a tiling field the operator's " +
			"host code launches that many blocks by: `SetBlockDim(n)` with `set_usedCoreNum(n)` in the `op_host` folder beside the " +
			"kernel's, `SetBlockDim(a * b)` with both stored, or `idx * per >= total` where that host launches at most the tiles rounded up, `(total + per - 1) / per`; " +
			"host files under an `archNN` folder tile only the kernels under `op_kernel/archNN`, or those in no such folder when it does not exist; " +
			"a launching host file that stores the field but launches another count makes it none, and the finding names that launch, " +
			"or says less (info) when that count is the field passed through a call whose arithmetic the analysis does not know " +
			"(`SetBlockDim(CalcTschBlockDim(coreNum, ...))`, not `std::max`); through locals and members " +
			"of the class set only from those getters, and a member named for the block id that no code of the unit sets (a base class whose header did not resolve); not on the vector cores of a mixed kernel, whose ids count past " +
			"the block number, unless only the cube cores call the code, the test is against twice the block number, the id is the builtin " +
			"`block_idx` (the cluster's id on every core), or every task type the entry declares runs at most one vector core a block " +
			"(`KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1)`, `KERNEL_TYPE_AIV_ONLY`, `KERNEL_TYPE_MIX_AIV_1_0`)); or under a member nothing sets that is declared `false` or 0; a term of an `||` test that cannot hold " +
			"that way does not decide it (`if (!ready || idx >= launched)` is judged by `ready`); or ending the final `else` of a dispatch comparing one shared value with constants (the " +
			"fallback for a value the host never writes); a barrier the leaving core still owes (right after it the " +
			"function decrements a counter its caller passed by reference, and a later loop pays it); a barrier under " +
			"`if (i == 0)` on the first pass of the loop holding the return; and two returns whose tests differ in one " +
			"taken each way (`if (idx >= n && atomic) return;` and `if (idx < n) { if (atomic) return; }`): together every " +
			"core leaves. Without a return, a `SyncAll` (hardware or software) in one branch of an `if` whose test differs between cores is " +
			"flagged at the barrier when the test reads the block id (`GetBlockIdx()`, or a local or member holding only " +
			"that, a constructor's `idx_(GetBlockIdx())` too), or a local initialized from it or a helper whose returned value is computed from it " +
			"(`first = FirstColumn(k)` returning `base + idx_`; not a flag a helper decides by tests and returns as `true`/`false`), and neither the other branch nor, " +
			"for a branch that can leave otherwise (a `return`, `break`, `continue`), the code after the `if` in that function reaches a barrier " +
			"(`if (idx < a) { SyncAll(); } else if (idx < b) { SyncAll(); }` with no `else`): a branch that falls through to a barrier after the `if` " +
			"arrives there too, one arrival more than the cores that skipped it (an SVD kernel's history hung on `if (first < n) { ...; " +
			"SyncAll(gm, ub); }` in a loop, and fixed it by moving the barrier out of the `if`); " +
			"a test against a tiling field the host launches another count by is named or said less, as for returns.",
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

// barrierSites are the hardware barrier calls of a unit's files, by node
// (a node listed twice: the later listing wins).
type barrierSites map[*grammar.Node]cxx.Barrier

// allBarrierSites indexes the hardware barrier sites of the file and its
// includes.
func allBarrierSites(pass *analysis.Pass) barrierSites {
	return unit.Fact(pass.Closure(), barrierSitesKey)
}

// arrivalSites are the hardware barrier sites and the software barriers
// every core must also reach (AscendC's `SyncAll(gm, ub)`): what a core
// that leaves early, or skips a branch, makes the others wait at.
func arrivalSites(pass *analysis.Pass) barrierSites {
	return unit.Fact(pass.Closure(), arrivalSitesKey)
}

var arrivalSitesKey = &unit.UnitKey[barrierSites]{
	Name: "rules.arrivalSites",
	Compute: func(ctx context.Context, u *unit.Unit) barrierSites {
		out := barrierSites{}
		for n, b := range unit.Fact(u, barrierSitesKey) {
			out[n] = b
		}
		for _, f := range u.CodeFiles() {
			for _, n := range u.Calls(f).Named("SyncAll") {
				if c, ok := cxx.AsCall(n); ok && f.CoresOf(n) != grammar.None && cxx.IsSoftwareSyncAll(c, u.Consts()) {
					out[n] = cxx.Barrier{Node: n, Kind: cxx.BarrierSoftware}
				}
			}
		}
		return out
	},
}

// barrierNoun names a barrier site for a message.
func barrierNoun(b cxx.Barrier) string {
	if b.Kind == cxx.BarrierSoftware {
		return "software barrier"
	}
	return "hardware barrier"
}

var barrierSitesKey = &unit.UnitKey[barrierSites]{
	Name: "rules.barrierSites",
	Compute: func(ctx context.Context, u *unit.Unit) barrierSites {
		out := barrierSites{}
		// The file's, then headers and macro bodies: a barrier a macro
		// hides is reached through its uses.
		for _, f := range u.CodeFiles() {
			for _, b := range cxx.HardwareBarriers(u, f, u.Consts()) {
				out[b.Node] = b
			}
		}
		return out
	},
}

func runBarrierEarlyReturn(pass *analysis.Pass) {
	returns := pass.Nodes("return_statement")
	// A break out of `do { ... } while (0)` skips the rest of its body like
	// a return: judged against the barriers inside that body.
	var breaks []*grammar.Node
	for _, b := range pass.Nodes("break_statement") {
		if cxx.OnceLoopOf(b) != nil {
			breaks = append(breaks, b)
		}
	}
	syncAlls := pass.Closure().Calls(pass.File).Named("SyncAll")
	if len(returns) == 0 && len(syncAlls) == 0 {
		return
	}
	sites := arrivalSites(pass)
	if len(sites) == 0 || !pass.Mixed() && launchedBlocks(pass, "") == 1 {
		// A kernel every host launch starts on one block has no other
		// core to wait for.
		return
	}
	funcs := pass.Closure().FuncIndex()
	// A core that skips only a wait has already signalled its arrival:
	// nobody waits for it, so only the arriving half of a barrier counts.
	isBarrier := func(f *grammar.File, c cxx.Call) bool {
		b, ok := sites[c.Node]
		return ok && b.Kind != cxx.BarrierFlagWait
	}
	vm := pass.Closure().Variance(pass.Spend)
	// What a header's members are set to can be in the headers its
	// includer read first.
	reachVM := sync.OnceValue(func() *unit.VarianceModel { return pass.Reach().Variance(pass.Spend) })
	fx := &fnIndexes{pass: pass, funcs: funcs, isBarrier: isBarrier, vm: vm, reachVM: reachVM, loops: newLoopAncestry(), byFn: map[*grammar.Node]*fnIndex{}, exits: newBlockReturns()}
	skippedBarriers(pass, fx, sites, syncAlls)
	macroReturns(pass, fx, sites)
	// Many returns before one barrier share their message: one copy.
	var texts sharedText
	lits := map[*grammar.Node]unit.Literals{}
	for _, r := range slices.Concat(returns, breaks) {
		if pass.Stopped() {
			return
		}
		fn := cxx.EnclosingFunction(r)
		cores := pass.Cores(r)
		if fn == nil || cores == grammar.None || hostFunc(pass.File, fn) {
			// The host's returns (before a `<<<>>>` launch, say) leave
			// no core behind.
			continue
		}
		ix := fx.of(fn)
		call, chain := ix.barrierAfter(r, cores)
		if chain == nil || !skipsBarrier(r, call) {
			continue
		}
		if !pass.Mixed() && reachVM().LaunchedBlocks(r) == 1 {
			// Only kernels every host launch starts on one block run it.
			continue
		}
		if ix.neverTaken(r, cores) || dispatchDefault(pass, vm, r, cores) || owedBarrier(chain, fn) {
			continue
		}
		dc := ix.decidingAbove(r, call)
		if ix.balancedBranch(dc, r, cores) {
			continue
		}
		d := ix.varianceAbove(r, call, cores)
		if d.outerRuntime != nil && call.Start >= fx.exits.exitAfter(fn, d.outerRuntime) {
			// The cores that stay leave too, by a return of the block
			// that holds the test, before the barrier:
			// `if (mine == 0) return; work(); return;`.
			continue
		}
		leaf := chain[len(chain)-1]
		if b := sites[leaf.Call]; d.outerRuntime == nil && b.Kind == cxx.BarrierSyncAll && b.AIVOnlyKnown && b.AIVOnly && cores&grammar.AIV == 0 {
			// Every cube core leaves before a barrier of the vector cores
			// (`SyncAll()`): no cube waits in it for another, and no
			// vector core for a cube.
			continue
		}
		if dc.any && d.outerRuntime == nil {
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
		if complementedReturn(returns, lits, r, call, fn) {
			continue
		}
		if d.outerRuntime != nil && !doubledVectorIDs(pass, cores) && emptySplitShare(reachVM(), cxx.ConditionOf(d.outerRuntime)) {
			// The host's split gives every launched block a share.
			continue
		}
		target := "the " + barrierNoun(sites[leaf.Call]) + " `" + shortText(leaf.Call) + "`" + lineRef(pass, leaf)
		if len(chain) > 1 {
			target = "`" + shortText(call) + "`" + lineRef(pass, chain[0]) + ", which reaches the " + barrierNoun(sites[leaf.Call]) + " `" +
				shortText(leaf.Call) + "`" + lineRef(pass, leaf)
		}
		diag := analysis.Diagnostic{
			Start:   r.Start,
			End:     r.End,
			Related: []analysis.Related{{File: leaf.File.Path, Start: leaf.Call.Start, End: leaf.Call.End, Message: "the barrier the other cores wait at"}},
		}
		if d.outerRuntime == nil {
			if name := probeSwitch(r, fn); name != "" {
				if s := pass.Reach().MacroSwitch(name); !s.Defined && s.Unread == "" {
					// A probe behind a switch no build defines is off; on,
					// every core would return alike and none would wait.
					continue
				}
			}
			diag.Severity = analysis.SeverityWarning
			diag.Message = "unconditional `" + exitWord(r) + "` before " + target + ": nothing after it runs, the barrier included; " +
				"a debugging probe left in (guide §7)?"
		} else {
			diag.Message = "`" + exitWord(r) + "` under `" + conditionText(d.outerRuntime) + "` can leave before " + target +
				": the cores that stay wait there for one that never arrives and the kernel hangs" + hangCode(pass, r.Start) + "; " +
				"skip the work, not the barrier"
			if d.seen&unit.PerCore == 0 {
				// Only code the analysis cannot see into decides: the
				// value may well be the same on every core (a tiling
				// accessor of the SDK), so this is not a known hang.
				live, _ := ix.liveTerms(cxx.ConditionOf(d.outerRuntime), cores)
				opaqueCondition(&diag, d.outerRuntime, funcs, live)
			} else if c, ok := ix.sizedShare(d, r, cores); ok && c.Min && ceilShare(ix.reachVM(), cxx.ConditionOf(d.outerRuntime)) {
				rel, _ := filepath.Rel(filepath.Dir(pass.File.Path), c.File)
				diag.Message += fmt.Sprintf("; the host launches the smaller of two counts (%s) and each block starts at its id times the work "+
					"over that count rounded up: the last blocks can start past the work (5 rows on 4 blocks: shares of 2, block 3 from row 6)",
					filepath.ToSlash(rel)+fmt.Sprintf(":%d", c.Line))
			} else if ok {
				// Only the host's arithmetic says whether a launched
				// block can get an empty share.
				rel, _ := filepath.Rel(filepath.Dir(pass.File.Path), c.File)
				diag.Severity = analysis.SeverityInfo
				diag.SaidLess = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), c.Line)
				diag.Message += fmt.Sprintf("; unless every block the host launches gets a share: it sizes the launch to the work (%s), "+
					"by arithmetic the analysis does not follow", diag.SaidLess)
			} else {
				launchedPast(pass, vm, cxx.ConditionOf(d.outerRuntime), &diag)
			}
		}
		diag.Message = texts.get(diag.Message, nil)
		pass.Report(diag)
	}
}

// macroReturns judges the statement uses of a macro whose body returns
// under a test (`RETURN_IF_IDLE(used);` with `do { if (GetBlockIdx() >=
// used) { return; } } while (0)`): the use leaves the function on the
// cores the test holds for. Only a test that differs per core (the
// block id, the lane, per-core data) is judged; one the analysis cannot
// see into says nothing.
func macroReturns(pass *analysis.Pass, fx *fnIndexes, sites barrierSites) {
	var macros *unit.UnitMacros
	for _, st := range pass.Nodes("expression_statement") {
		if pass.Stopped() {
			return
		}
		name := cxx.StatementMacro(st)
		if name == "" {
			continue
		}
		if macros == nil {
			macros = pass.Reach().Macros()
		}
		cores := pass.Cores(st)
		var m *cxx.Macro
		for _, c := range macros.ByName[name] {
			if c.FuncLike && c.Def != nil && c.Cores&cores != grammar.None {
				if m != nil {
					m = nil // defined apart per build: not judged
					break
				}
				m = c
			}
		}
		fn := cxx.EnclosingFunction(st)
		if m == nil || fn == nil || cores == grammar.None || hostFunc(pass.File, fn) {
			continue
		}
		rets := m.Def.Inside(m.Def.Tree().OfKind("return_statement"))
		for _, b := range m.Def.Inside(m.Def.Tree().OfKind("break_statement")) {
			if l := cxx.OnceLoopOf(b); l != nil && m.Def.Contains(l) {
				rets = append(rets, b)
			}
		}
		if len(rets) == 0 {
			continue
		}
		ix := fx.of(fn)
		if !pass.Mixed() && fx.reachVM().LaunchedBlocks(st) == 1 || ix.neverTaken(st, cores) || dispatchDefault(pass, fx.vm, st, cores) {
			continue
		}
		body := fx.of(m.Def)
		for _, r := range rets {
			// A return leaves the function: the barriers after the use
			// count. A break leaves the macro's `do { } while (0)`: only
			// those in the body after it do.
			var call *grammar.Node
			var chain []cxx.Hop
			if r.Kind() == "return_statement" {
				call, chain = ix.barrierAfter(st, cores)
				if chain == nil || owedBarrier(chain, fn) || ix.balancedBranch(ix.decidingAbove(st, call), st, cores) {
					continue
				}
			} else if call, chain = body.barrierAfter(r, cores); chain == nil || !skipsBarrier(r, call) {
				continue
			}
			d := body.varianceAbove(r, call, cores)
			if d.outerRuntime == nil || !useVaries(ix, m, st, cxx.ConditionOf(d.outerRuntime), cores) || body.neverTaken(r, cores) ||
				body.balancedBranch(body.decidingAbove(r, call), r, cores) || countArgument(m, st, cxx.ConditionOf(d.outerRuntime)) {
				continue
			}
			leaf := chain[len(chain)-1]
			target := "the " + barrierNoun(sites[leaf.Call]) + " `" + shortText(leaf.Call) + "`" + lineRef(pass, leaf)
			if len(chain) > 1 {
				target = "`" + shortText(call) + "`" + lineRef(pass, chain[0]) + ", which reaches the " + barrierNoun(sites[leaf.Call]) + " `" +
					shortText(leaf.Call) + "`" + lineRef(pass, leaf)
			}
			leaves := "returns"
			if r.Kind() == "break_statement" {
				leaves = "breaks out of its `do { } while (0)`"
			}
			at := ""
			if m.File != nil {
				rel, _ := filepath.Rel(filepath.Dir(pass.File.Path), m.File.Path)
				line, _ := m.File.Lines.Position(m.At)
				at = fmt.Sprintf(" (%s:%d)", filepath.ToSlash(rel), line+1)
			}
			diag := analysis.Diagnostic{
				Start: st.Start,
				End:   st.End,
				Message: "`" + shortText(st.NamedChildren()[0]) + "` " + leaves + " under `" + conditionText(d.outerRuntime) + "`, in the body of `" + name + "`" + at +
					", and can skip " + target + ": the cores that stay wait there for one that never arrives and the kernel hangs" + hangCode(pass, st.Start) + "; " +
					"skip the work, not the barrier",
				Related: []analysis.Related{{File: leaf.File.Path, Start: leaf.Call.Start, End: leaf.Call.End, Message: "the barrier the other cores wait at"}},
			}
			if m.File != nil {
				diag.Related = append(diag.Related, analysis.Related{File: m.File.Path, Start: r.Start, End: r.End, Message: "the return in the macro"})
			}
			launchedPast(pass, fx.vm, cxx.ConditionOf(d.outerRuntime), &diag)
			pass.Report(diag)
			break
		}
	}
}

// useVaries reports whether the body's test differs per core at the use
// st: it reads the block id itself, or a parameter the use passes a
// per-core value for (judged where the use is, not by every use of the
// macro: `CHECK(rows > 0)` and `CHECK(lane == 0)` are two tests).
func useVaries(ix *fnIndex, m *cxx.Macro, st, test *grammar.Node, cores grammar.Cores) bool {
	call := st.NamedChildren()[0]
	var as []*grammar.Node
	if args := call.ChildByField("arguments"); call.Kind() == "call_expression" && args != nil {
		as = args.NamedChildren()
	}
	names := false
	test.Walk(func(n *grammar.Node) bool {
		names = names || n.Kind() == "identifier" && slices.Contains(m.Params, n.Text())
		return !names
	})
	if !names {
		// `if (!op.Init(...)) break;` of an object the body declares: as
		// the body computes it.
		return ix.vm.Expr(test, cores)&unit.PerCore != 0
	}
	varies := false
	test.Walk(func(n *grammar.Node) bool {
		if varies {
			return false
		}
		switch n.Kind() {
		case "identifier":
			if i := slices.Index(m.Params, n.Text()); i >= 0 {
				if declaresName(m.Def, n.Text()) {
					// `EXT_RANGE_OR_RETURN(rng, total, args)` declaring
					// `TaskRange rng = Split(total, args);`: the body's
					// own variable, valued where the body sets it.
					varies = ix.vm.Expr(n, cores)&unit.PerCore != 0
				} else {
					varies = i < len(as) && ix.vm.Expr(as[i], cores)&unit.PerCore != 0
				}
				return false
			}
		case "call_expression":
			// The block id itself, or a call whose result differs per
			// core (`op.Init(rows)` returning whether this core has rows).
			varies = blockIdxGetters[ix.vm.Getter(n)] || ix.vm.Expr(n, cores)&unit.PerCore != 0
			return false
		}
		return true
	})
	return varies
}

// declaresName reports whether fn declares a variable name.
func declaresName(fn *grammar.Node, name string) bool {
	for _, d := range fn.Inside(fn.Tree().OfKind("declaration")) {
		for _, dl := range d.ChildrenByField("declarator") {
			if cxx.DeclaredName(dl) == name {
				return true
			}
		}
	}
	return false
}

// exitWord names the statement r leaves by.
func exitWord(r *grammar.Node) string {
	if r.Kind() == "break_statement" {
		return "break"
	}
	return "return"
}

// skipsBarrier reports whether leaving at r skips the barrier-reaching
// call after it: always for a return, for a break out of `do { } while
// (0)` when the call is in that body.
func skipsBarrier(r, call *grammar.Node) bool {
	if r.Kind() != "break_statement" {
		return true
	}
	l := cxx.OnceLoopOf(r)
	return l != nil && call != nil && l.Contains(call)
}

// countArgument reports whether the use st of macro m passes the launch's
// block count (`GetBlockNum()`) for a parameter test names: a block id
// at or past it holds on no launched core.
func countArgument(m *cxx.Macro, st *grammar.Node, test *grammar.Node) bool {
	call := st.NamedChildren()[0]
	args := call.ChildByField("arguments")
	if call.Kind() != "call_expression" || args == nil || test == nil {
		return false
	}
	as := args.NamedChildren()
	found := false
	test.Walk(func(n *grammar.Node) bool {
		if found {
			return false
		}
		if n.Kind() == "identifier" {
			if i := slices.Index(m.Params, n.Text()); i >= 0 && i < len(as) {
				t := as[i].Text()
				found = strings.Contains(t, "GetBlockNum") || strings.Contains(t, "get_block_num") || strings.Contains(t, "block_num")
			}
		}
		return true
	})
	return found
}

// probeSwitch returns the macro an enclosing preprocessor branch of r
// (inside fn) compiles only when defined: `#ifdef NAME`, `#if
// defined(NAME)`, `#if NAME` or `#elif` of those, or one term of an `&&`
// of them; "" for none (an `#else`, an `#ifndef`, a test with `||` or
// `!`).
func probeSwitch(r, fn *grammar.Node) string {
	for child, p := r, r.Parent(); p != nil && p != fn; child, p = p, p.Parent() {
		if child.Field() == "alternative" {
			continue
		}
		switch p.Kind() {
		case "preproc_ifdef":
			n := p.ChildByField("name")
			if n != nil && child != n && strings.HasPrefix(strings.Join(strings.Fields(p.Text()), ""), "#ifdef") {
				return n.Text()
			}
		case "preproc_if", "preproc_elif":
			if c := p.ChildByField("condition"); c != nil && child != c {
				if name := neededMacro(c.Text()); name != "" {
					return name
				}
			}
		}
	}
	return ""
}

// neededMacro is the first macro condition text needs defined: a term of
// an `&&` chain that is `defined(NAME)`, `defined NAME` or `NAME`.
func neededMacro(cond string) string {
	if strings.ContainsAny(cond, "|!") {
		return ""
	}
	for _, t := range strings.Split(cond, "&&") {
		t = strings.Trim(strings.TrimSpace(t), "()")
		if rest, ok := strings.CutPrefix(t, "defined"); ok {
			t = strings.Trim(strings.TrimSpace(rest), "() \t")
		}
		if t != "" && strings.TrimFunc(t, func(c rune) bool { return c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) }) == "" && !unicode.IsDigit(rune(t[0])) {
			return t
		}
	}
	return ""
}

// launchedPast says where the operator's host launches past the tiling
// field a block id is compared with in test e (`idx >= tiling.used`
// where the host stores used but calls SetBlockDim with another count).
// Launched through a call whose arithmetic the analysis does not know
// (`SetBlockDim(CalcTschBlockDim(used, ...))`), it says less: info.
func launchedPast(pass *analysis.Pass, vm *unit.VarianceModel, e *grammar.Node, d *analysis.Diagnostic) {
	done := false
	if e != nil {
		e.Walk(func(n *grammar.Node) bool {
			if done || n.Kind() != "binary_expression" {
				return !done
			}
			l, r := n.ChildByField("left"), n.ChildByField("right")
			for _, side := range [][2]*grammar.Node{{l, r}, {r, l}} {
				g := vm.Getter(side[1])
				c, ok := vm.LaunchedPast(strings.TrimPrefix(g, "."))
				if !ok || !strings.HasPrefix(g, ".") || done || !readsBlockID(vm, side[0]) {
					continue
				}
				rel, _ := filepath.Rel(filepath.Dir(pass.File.Path), c.File)
				at := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), c.Line)
				done = true
				if c.Through == "" {
					d.Message += fmt.Sprintf("; the host stores `%s` but launches another block count (%s): blocks at or past it can be launched", g[1:], at)
					continue
				}
				d.Severity, d.SaidLess = analysis.SeverityInfo, "`"+c.Through+"`"
				d.Message += fmt.Sprintf("; unless the blocks the host launches stay within `%s`: it launches a count `%s` computes from it (%s), "+
					"which the analysis cannot see into", g[1:], c.Through, at)
			}
			return !done
		})
	}
}

// opaqueCondition says less about a return whose condition is decided
// only by code the analysis cannot see into: info, naming the call when
// the test makes it itself. live are the test's terms that can hold
// (liveTerms): one alone decides it.
func opaqueCondition(d *analysis.Diagnostic, c *grammar.Node, funcs *cxx.Funcs, live []*grammar.Node) {
	d.Severity = analysis.SeverityInfo
	what := "`" + conditionText(c) + "`"
	if cond := cxx.ConditionOf(c); cond != nil {
		if len(live) == 1 && live[0] != cxx.Unparen(cond) {
			cond, what = live[0], "`"+shortText(live[0])+"`"
		}
		found := false
		cond.Walk(func(n *grammar.Node) bool {
			call, ok := cxx.AsCall(n)
			if found || !ok || unit.KnownCall(call.Name) || len(funcs.Callees(call)) > 0 {
				return true
			}
			what, found = "`"+shortText(n)+"`", true
			return false
		})
	}
	d.SaidLess = what
	d.Message += "; unless " + what + " is the same on every core: it comes from code the analysis cannot see into"
}

// sizedShare returns the host's launch when r's tests are a block's share
// of the work, not the block id itself (`if (rStart >= rows)` with rStart
// computed from the id and the tiling), outside any loop, and the host
// sizes its launch to the work (VarianceModel.SizedLaunch): whether a
// launched block gets an empty share is then the host's arithmetic. A
// launch of every core (`SetBlockDim(GetCoreNumAiv())`) leaves the blocks
// past the work with none: still a hang.
func (ix *fnIndex) sizedShare(d runtimeTests, r *grammar.Node, cores grammar.Cores) (workspace.LaunchCount, bool) {
	seen := d.seen
	if seen&unit.VarBlock == 0 && seen&unit.VarNamed != 0 {
		// A header's parameter named for the block id: what the
		// includer's kernels pass it says whether it is the block id.
		seen = ix.reachVM().Condition(d.outerRuntime, cores)
	}
	if d.readsID || seen&unit.VarBlock == 0 || seen&(unit.VarLane|unit.VarData) != 0 || ix.loops.enclosingLoop(r, ix.fn) != nil {
		return workspace.LaunchCount{}, false
	}
	return ix.reachVM().SizedLaunch()
}

// ordered returns the sides of comparison e as `l op r`, reading the
// flipped operator (`r flip l`) the same way; ok is false for another
// test.
func ordered(e *grammar.Node, op, flip string) (l, r *grammar.Node, ok bool) {
	e = cxx.Unparen(e)
	if e == nil || e.Kind() != "binary_expression" || e.ChildByField("operator") == nil {
		return nil, nil, false
	}
	l, r = e.ChildByField("left"), e.ChildByField("right")
	switch e.ChildByField("operator").Text() {
	case op:
		return l, r, true
	case flip:
		return r, l, true
	}
	return nil, nil, false
}

// ceilShare reports whether test e says a block's first item, its id
// times the work over the block count rounded up, is at or past the work
// (`idx * ((rows + n - 1) / n) >= rows`, n the launched count).
func ceilShare(vm *unit.VarianceModel, e *grammar.Node) bool {
	l, r, ok := ordered(e, ">=", "<=")
	if !ok {
		return false
	}
	share := "ceil(" + vm.Getter(r) + "/GetBlockNum)"
	first := vm.Getter(l)
	return first == "GetBlockIdx*"+share || first == share+"*GetBlockIdx"
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
	vm        *unit.VarianceModel
	reachVM   func() *unit.VarianceModel // the includer's view (neverTaken)
	loops     *loopAncestry
	byFn      map[*grammar.Node]*fnIndex
	exits     blockReturns
	exec      *unit.Exec // the unit's callers, made when first asked
}

// calledOn is the cores that run ix's function (unit.Exec.CalledOn).
func (ix *fnIndex) calledOn() grammar.Cores {
	if ix.exec == nil {
		ix.exec = ix.pass.Reach().Exec()
	}
	return ix.exec.CalledOn(ix.fn)
}

type fnIndex struct {
	*fnIndexes
	fn *grammar.Node
	// calls are the calls of fn's own body (not of lambdas in it), in
	// source order.
	calls []*grammar.Node
	// reaching[cores] lists the indexes in calls of the calls that reach
	// a hardware barrier for those cores; chains[cores][i] their chains
	// longer than the call itself (most calls reaching a barrier are one:
	// their chain is made when asked).
	reaching map[grammar.Cores][]int32
	chains   map[grammar.Cores]map[int32][]cxx.Hop
	// decide and vary memoize decidingAbove and varianceAbove per
	// barrier call (and cores), for the returns nested too deep to walk.
	decide map[*grammar.Node]*grammar.Upward[deciding]
	vary   map[callCores]*grammar.Upward[runtimeTests]
	other  map[callCores]*grammar.Upward[armOf]
	// never memoizes neverTaken, [1] for the vector cores of a mixed
	// kernel: a walk per return was quadratic in an else-if chain.
	never [2]*shallowUpward[bool]
}

func (x *fnIndexes) of(fn *grammar.Node) *fnIndex {
	if ix := x.byFn[fn]; ix != nil {
		return ix
	}
	ix := &fnIndex{fnIndexes: x, fn: fn, reaching: map[grammar.Cores][]int32{}, chains: map[grammar.Cores]map[int32][]cxx.Hop{},
		decide: map[*grammar.Node]*grammar.Upward[deciding]{}, vary: map[callCores]*grammar.Upward[runtimeTests]{},
		other: map[callCores]*grammar.Upward[armOf]{}}

	for _, n := range x.funcs.Calls(fn) {
		if cxx.EnclosingFunction(n) == fn {
			ix.calls = append(ix.calls, n)
		}
	}
	x.byFn[fn] = ix
	return ix
}

// reachingFor lists (once per cores) the calls that reach a barrier.
func (ix *fnIndex) reachingFor(cores grammar.Cores) []int32 {
	if r, ok := ix.reaching[cores]; ok {
		return r
	}
	var out []int32
	chains := map[int32][]cxx.Hop{}
	for i, n := range ix.calls {
		if ix.pass.Stopped() {
			break
		}
		if chain := ix.funcs.CallReaches(ix.pass.File, n, cores, "hardware-barrier", ix.isBarrier, cxx.MaxCallDepth); chain != nil {
			out = append(out, int32(i))
			if len(chain) > 1 {
				chains[int32(i)] = chain
			}
		}
	}
	ix.reaching[cores], ix.chains[cores] = slices.Clip(out), chains
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
	n := ix.calls[r[k]]
	if chain, ok := ix.chains[cores][r[k]]; ok {
		return n, chain
	}
	return n, []cxx.Hop{{File: ix.pass.File, Call: n}}
}

// barrierAfter finds the first call in fn that can run after the return r
// and reaches a hardware barrier: later in the source, or earlier in a loop
// enclosing r (the next iteration). It returns the call and the chain.
func (ix *fnIndex) barrierAfter(r *grammar.Node, cores grammar.Cores) (*grammar.Node, []cxx.Hop) {
	// Enclosing loops nest, so the outermost one holds every call of the
	// others: from its start on, every call can run after r.
	from := r.End
	loop := ix.loops.enclosingLoop(r, ix.fn)
	if loop != nil {
		from = loop.Start
	}
	for {
		n, chain := ix.firstReaching(from, cores)
		if p := ix.otherBranch(r, n, cores); p != nil {
			from = p.End
			continue
		}
		if n == nil || loop == nil || n.Start >= r.Start || !firstIterationOnly(loop, n) && !leavesBy(n, r) {
			return n, chain
		}
		// Run on the loop's first pass only (`if (i == 0) SyncAll();`),
		// or right before r (`{ SyncAll(); return; }`), before r: every
		// core passed it before it could return.
		from = n.End
	}
}

// otherBranch returns the if statement, outside every loop around r, one
// branch of which holds r and the other call n, when its test is the same
// on every core (`if constexpr`, a shared mode): the cores that could take
// r all skip n, and nobody waits there for them. Memoized per call, like
// varianceAbove: the returns of an else-if chain share the walk.
func (ix *fnIndex) otherBranch(r, n *grammar.Node, cores grammar.Cores) *grammar.Node {
	if n == nil {
		return nil
	}
	step := func(p, child *grammar.Node, above armOf) armOf {
		if p.Contains(n) {
			above.ifs = nil
			b := child.Field()
			if p.Kind() == "if_statement" && !above.inLoop && !child.Contains(n) && (b == "consequence" || b == "alternative") &&
				ix.vm.Condition(p, cores) == 0 {
				above.ifs = p
			}
		}
		above.inLoop = above.inLoop || isLoop(p)
		return above
	}
	if v, ok := upwardDirect(r, ix.fn, step); ok {
		return v.ifs
	}
	k := callCores{n, cores}
	u := ix.other[k]
	if u == nil {
		u = grammar.NewUpward(ix.fn, step)
		ix.other[k] = u
	}
	return u.Of(r).ifs
}

// armOf is otherBranch's walk: the if found so far, and whether a loop
// holds the node.
type armOf struct {
	ifs    *grammar.Node
	inLoop bool
}

// leavesBy reports whether call n is a statement of the block that r
// ends, with only plain statements between them: every core passing n
// leaves by r, so no later pass of the loop reaches n again.
func leavesBy(n, r *grammar.Node) bool {
	b := r.Parent()
	s := n.Parent()
	if b == nil || b.Kind() != "compound_statement" || s == nil || s.Kind() != "expression_statement" || s.Parent() != b {
		return false
	}
	for k := s.NextSibling(); k != r; k = k.NextSibling() {
		if k == nil || k.Kind() != "expression_statement" && k.Kind() != "declaration" && k.Kind() != "comment" {
			return false
		}
	}
	return true
}

// firstIterationOnly reports whether call n runs only on the first pass
// of for loop `loop`: under `if (i == init)` on the loop's counter.
func firstIterationOnly(loop, n *grammar.Node) bool {
	init := loop.ChildByField("initializer")
	if loop.Kind() != "for_statement" || init == nil || init.Kind() != "declaration" {
		return false
	}
	var counter, start string
	for _, d := range init.NamedChildren() {
		if d.Kind() == "init_declarator" && d.ChildByField("value") != nil {
			counter, start = cxx.DeclaredName(d.ChildByField("declarator")), d.ChildByField("value").Text()
		}
	}
	for child, p := n, n.Parent(); p != nil && p != loop; child, p = p, p.Parent() {
		if p.Kind() != "if_statement" || child.Field() != "consequence" {
			continue
		}
		if c := cxx.Unparen(cxx.ConditionOf(p)); c != nil && c.Kind() == "binary_expression" && c.ChildByField("operator") != nil &&
			c.ChildByField("operator").Kind() == "==" {
			l, r := c.ChildByField("left").Text(), c.ChildByField("right").Text()
			if counter != "" && (l == counter && r == start || r == counter && l == start) {
				return true
			}
		}
	}
	return false
}

// deciding sums up the constructs that decide whether a return runs
// and do not hold the barrier call after it (cxx.Conditions of the return
// up to its function, less those containing the call).
type deciding struct {
	any bool
	// outerIf is the outermost deciding if statement, outerBranch its
	// branch that holds the return.
	outerIf, outerBranch *grammar.Node
}

// decidingAbove sums up the deciding constructs of r for the barrier call
// call; memoized along the ancestors, so the returns of an else-if chain
// do not each walk every test before them.
func (ix *fnIndex) decidingAbove(r, call *grammar.Node) deciding {
	u := ix.decide[call]
	if u != nil {
		return u.Of(r)
	}
	step := func(p, child *grammar.Node, above deciding) deciding {
		if !cxx.IsConditionOf(p, child) || child.Contains(call) {
			return above
		}
		above.any = true
		if above.outerIf == nil && p.Kind() == "if_statement" {
			above.outerIf, above.outerBranch = p, child
		}
		return above
	}
	if d, ok := upwardDirect(r, ix.fn, step); ok {
		return d
	}
	u = grammar.NewUpward(ix.fn, step)
	ix.decide[call] = u
	return u.Of(r)
}

// runtimeTests sums up the variances of the deciding constructs: the
// outermost one whose test is not the same on every core, and what all
// of them depend on.
type runtimeTests struct {
	outerRuntime *grammar.Node
	seen         unit.Variance
	// readsID: a test reads the block id itself, in a term that can hold.
	readsID bool
}

type callCores struct {
	call  *grammar.Node
	cores grammar.Cores
}

// varianceAbove is decidingAbove's variances on cores.
func (ix *fnIndex) varianceAbove(r, call *grammar.Node, cores grammar.Cores) runtimeTests {
	k := callCores{call, cores}
	u := ix.vary[k]
	if u != nil {
		return u.Of(r)
	}
	step := func(p, child *grammar.Node, above runtimeTests) runtimeTests {
		if !cxx.IsConditionOf(p, child) || child.Contains(call) {
			return above
		}
		if v := ix.testVariance(p, cores); v != 0 {
			if above.outerRuntime == nil {
				above.outerRuntime = p
			}
			above.seen |= v
			live, _ := ix.liveTerms(cxx.ConditionOf(p), cores)
			for _, t := range live {
				above.readsID = above.readsID || readsBlockID(ix.vm, t)
			}
		}
		return above
	}
	if d, ok := upwardDirect(r, ix.fn, step); ok {
		return d
	}
	u = grammar.NewUpward(ix.fn, step)
	ix.vary[k] = u
	return u.Of(r)
}

// balancedBranch reports whether r sits in a branch that already went
// through a barrier before r (`if (idle) { SyncAll(); return; }`): the core
// that returns there has arrived at its barrier. The branches holding r
// nest, so the outermost one sees the earliest barrier call: if that call
// is not before r, no branch's is.
func (ix *fnIndex) balancedBranch(d deciding, r *grammar.Node, cores grammar.Cores) bool {
	if d.outerIf == nil {
		return false
	}
	n, _ := ix.firstReaching(d.outerBranch.Start, cores)
	return n != nil && n.Start < r.Start && d.outerBranch.Contains(n)
}

// neverTaken reports whether r sits under a test that cannot hold: a
// block id reaching the launch's block count (`if (GetBlockIdx() >=
// GetBlockNum())`: a block id is below the block number on every core;
// not on the vector cores of a mixed kernel, which count to the block
// number times the vector cores per cube), or a member nothing sets that
// is declared false (`bool enabled = false;` ... `if (op.enabled)`).
func (ix *fnIndex) neverTaken(r *grammar.Node, cores grammar.Cores) bool {
	vecOfMixed := ix.vecOfMixed(cores)
	k := 0
	if vecOfMixed {
		k = 1
	}
	if ix.never[k] == nil {
		vm := ix.reachVM
		ix.never[k] = newShallowUpward(ix.fn, func(p, child *grammar.Node, above bool) bool {
			return above || p.Kind() == "if_statement" && child.Field() == "consequence" &&
				(blockPastCount(vm(), cxx.ConditionOf(p), vecOfMixed) || vm().ZeroMember(cxx.ConditionOf(p)))
		})
	}
	return ix.never[k].Of(r)
}

// vecOfMixed reports whether ix's function runs on vector cores whose ids
// count past the block number (a mixed kernel's); code only the cube
// cores call is judged as theirs.
func (ix *fnIndex) vecOfMixed(cores grammar.Cores) bool {
	return doubledVectorIDs(ix.pass, cores) && ix.calledOn()&grammar.AIV != 0
}

// testVariance is the variance of p's test on cores, less the terms of a
// disjunction that hold on no launched core (a block id at or past the
// launched count, blockPastCount): `if (!ready || idx >= launched)` is
// decided by `ready` alone.
func (ix *fnIndex) testVariance(p *grammar.Node, cores grammar.Cores) unit.Variance {
	v := ix.vm.Condition(p, cores)
	if v == 0 {
		return v
	}
	live, n := ix.liveTerms(cxx.ConditionOf(p), cores)
	if n < 2 || len(live) == n {
		return v
	}
	var out unit.Variance
	for _, t := range live {
		out |= ix.vm.Expr(t, cores)
	}
	return out
}

// liveTerms are the terms of test cond's `a || b || ...` that can hold on
// a launched core of cores (not a block id at or past the launched
// count, blockPastCount), and how many terms it has.
func (ix *fnIndex) liveTerms(cond *grammar.Node, cores grammar.Cores) ([]*grammar.Node, int) {
	if cond == nil {
		return nil, 0
	}
	terms := disjuncts(cond, nil)
	vec := ix.vecOfMixed(cores)
	var live []*grammar.Node
	for _, t := range terms {
		if !blockPastCount(ix.reachVM(), t, vec) {
			live = append(live, t)
		}
	}
	return live, len(terms)
}

// disjuncts appends the terms of an `a || b || ...` test to out.
func disjuncts(e *grammar.Node, out []*grammar.Node) []*grammar.Node {
	e = cxx.Unparen(e)
	if e != nil && e.Kind() == "binary_expression" && e.ChildByField("operator") != nil && e.ChildByField("operator").Kind() == "||" {
		return disjuncts(e.ChildByField("right"), disjuncts(e.ChildByField("left"), out))
	}
	return append(out, e)
}

// doubledVectorIDs reports whether GetBlockIdx() on the vector cores
// among cores can count to twice the block count: a mixed kernel some
// entry compiling the file launches with two vector cores a block (its
// task type, or none declared).
func doubledVectorIDs(pass *analysis.Pass, cores grammar.Cores) bool {
	if !pass.Mixed() || cores&grammar.AIV == 0 {
		return false
	}
	for _, u := range pass.Units() {
		if u.Pseudo || pass.WS.EntryShape(u.Entry).VectorPair {
			return true
		}
	}
	return false
}

var (
	blockIdxGetters = map[string]bool{"GetBlockIdx": true, "get_block_idx": true, "block_idx": true}
	blockNumGetters = map[string]bool{"GetBlockNum": true, "get_block_num": true}
)

// blockPastCount reports whether test e says a block id is at or past the
// block count: `idx >= num`, `idx > num - 1`, `idx + 1 > num`, `idx > num`
// (either way round), or a conjunction with such a term. On the vector cores of a
// mixed kernel (vec), whose ids count to twice the block number at most,
// the count is `num * 2`.
func blockPastCount(vm *unit.VarianceModel, e *grammar.Node, vec bool) bool {
	e = cxx.Unparen(e)
	if e == nil || e.Kind() != "binary_expression" || e.ChildByField("operator") == nil {
		return false
	}
	l, r := e.ChildByField("left"), e.ChildByField("right")
	op := e.ChildByField("operator").Kind()
	switch op {
	case "&&":
		return blockPastCount(vm, l, vec) || blockPastCount(vm, r, vec)
	case "||":
		return blockPastCount(vm, l, vec) && blockPastCount(vm, r, vec)
	case "<=":
		l, r, op = r, l, ">="
	case "<":
		l, r, op = r, l, ">"
	}
	// The builtin `block_idx` is the cluster's id on every core (the
	// vector cores' GetBlockIdx() is block_idx * 2 + lane): below the
	// block count on a mixed kernel's vector cores too.
	cluster := false
	idx := func(x *grammar.Node) bool {
		g := ""
		if x != nil {
			g = vm.Getter(x)
		}
		cluster = cluster || g == "block_idx"
		return blockIdxGetters[g]
	}
	num := func(x *grammar.Node) bool {
		if x == nil {
			return false
		}
		g := vm.Getter(x)
		if vec && !cluster {
			twice := strings.TrimSuffix(strings.TrimPrefix(g, "2*"), "*2")
			if twice == g {
				return false
			}
			g = twice
		}
		return blockNumGetters[g]
	}
	switch op {
	case ">=":
		// `idx * per >= total` where the host launches at most
		// ceil(total / per) blocks: a block's first item is below total.
		first, total := vm.Getter(l), vm.Getter(r)
		for g := range blockIdxGetters {
			per, ok := strings.CutPrefix(first, g+"*.")
			if !ok {
				per, ok = strings.CutSuffix(strings.TrimPrefix(first, "."), "*"+g)
			}
			if ok && !vec && strings.HasPrefix(total, ".") && vm.LaunchedUnder(total[1:], per) {
				return true
			}
			// `idx * T >= n` where every launch starts ceil(n / S)
			// blocks and passes n: idx < n / S, so idx * T < n for T <= S.
			if share, ok := strings.CutPrefix(total, "work/"); ok && !vec && tileWithin(first, g, share) {
				return true
			}
		}
		if idx(l) && (!vec || cluster) && vm.LaunchedWithin(e, r) {
			// `idx >= 8` where every launch starts 8 blocks at most.
			return true
		}
		return idx(l) && num(r)
	case ">":
		// idx runs before num in each term: num reads what it saw.
		// `idx > num` holds on no more cores than `idx >= num`.
		return idx(l) && num(r) || idx(offByOne(l, "+")) && num(r) || idx(l) && num(offByOne(r, "-"))
	}
	return false
}

// tileWithin reports whether first, a getter's product of block id g and
// a constant T (`g*T` or `T*g`), starts each block at most share apart.
func tileWithin(first, g, share string) bool {
	t, ok := strings.CutPrefix(first, g+"*")
	if !ok {
		t, ok = strings.CutSuffix(first, "*"+g)
	}
	tn, err1 := strconv.ParseInt(t, 10, 64)
	sn, err2 := strconv.ParseInt(share, 10, 64)
	return ok && err1 == nil && err2 == nil && tn > 0 && tn <= sn
}

// readsBlockID reports whether test e reads the block id itself: a call
// of its getter, or a local or member holding only that.
func readsBlockID(vm *unit.VarianceModel, e *grammar.Node) bool {
	found := false
	if e != nil {
		e.Walk(func(n *grammar.Node) bool {
			switch n.Kind() {
			case "call_expression", "identifier", "field_expression":
				found = found || blockIdxGetters[vm.Getter(n)]
				return !found && n.Kind() != "field_expression"
			}
			return !found
		})
	}
	return found
}

// blockBelowCount reports whether test e says a block id is below the
// block count (`idx < GetBlockNum()`, either way round): true on every
// core outside a mixed kernel's vector cores.
func blockBelowCount(vm *unit.VarianceModel, e *grammar.Node) bool {
	l, r, ok := ordered(e, "<", ">")
	return ok && blockIdxGetters[vm.Getter(l)] && blockNumGetters[vm.Getter(r)]
}

// offByOne returns x of `x op 1`, nil for anything else.
func offByOne(e *grammar.Node, op string) *grammar.Node {
	e = cxx.Unparen(e)
	if e == nil || e.Kind() != "binary_expression" || e.ChildByField("operator") == nil || e.ChildByField("operator").Kind() != op {
		return nil
	}
	if one := e.ChildByField("right"); one == nil || one.Text() != "1" {
		return nil
	}
	return e.ChildByField("left")
}

// dispatchDefault reports whether r is the whole final `else` of a
// dispatch on one value every core shares (`if (layout == 0) ... else if
// (layout == 1) ... else { return; }`): the fallback for a value the host
// never writes, not a path some cores take.
func dispatchDefault(pass *analysis.Pass, vm *unit.VarianceModel, r *grammar.Node, cores grammar.Cores) bool {
	s := r
	if p := s.Parent(); p != nil && p.Kind() == "compound_statement" && nextStatement(p.FirstChild()) == r && nextStatement(r.NextSibling()) == nil {
		s = p
	}
	if p := s.Parent(); p != nil && p.Kind() == "else_clause" {
		s = p
	}
	if s.Field() != "alternative" {
		return false
	}
	subject, tests := "", 0
	for p := s.Parent(); p != nil && p.Kind() == "if_statement"; {
		name, ok := constantTests(pass.Consts, cxx.ConditionOf(p))
		if !ok || subject != "" && name != subject || vm.Condition(p, cores) != 0 {
			return false
		}
		subject, tests = name, tests+1
		up := p.Parent()
		if up == nil || up.Kind() != "else_clause" {
			break
		}
		p = up.Parent()
	}
	return tests >= 2
}

// constantTests returns the name a test compares with constants alone
// (`x == 0`, `x == 0 || x == 3`).
func constantTests(consts *cxx.Resolver, e *grammar.Node) (string, bool) {
	e = cxx.Unparen(e)
	if e == nil || e.Kind() != "binary_expression" || e.ChildByField("operator") == nil {
		return "", false
	}
	l, r := e.ChildByField("left"), e.ChildByField("right")
	switch e.ChildByField("operator").Kind() {
	case "||":
		a, ok1 := constantTests(consts, l)
		b, ok2 := constantTests(consts, r)
		return a, ok1 && ok2 && a == b
	case "==":
		if _, ok := consts.Eval(r); ok && l != nil {
			return cxx.Uncast(l).Text(), true
		}
	}
	return "", false
}

// owedBarrier reports whether the barrier the return skips is counted:
// right after it the function decrements a counter its caller passed by
// reference (`SyncAll(); pending -= 1;`), so a core that leaves keeps
// the barrier owed and a later loop pays it (`while (pending > 0)
// SyncAll();`).
func owedBarrier(chain []cxx.Hop, fn *grammar.Node) bool {
	if len(chain) != 1 {
		return false
	}
	stmt := chain[0].Call.Parent()
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return false
	}
	next := nextStatement(stmt.NextSibling())
	if next == nil || next.Kind() != "expression_statement" || len(next.NamedChildren()) == 0 {
		return false
	}
	x := next.NamedChildren()[0]
	var target *grammar.Node
	switch {
	case x.Kind() == "update_expression" && strings.Contains(x.Text(), "--"):
		target = x.ChildByField("argument")
	case x.Kind() == "assignment_expression" && x.ChildByField("operator") != nil && x.ChildByField("operator").Text() == "-=":
		target = x.ChildByField("left")
	}
	if target == nil || target.Kind() != "identifier" {
		return false
	}
	for _, p := range cxx.Params(fn) {
		if p.Name == target.Text() {
			d := p.Node.ChildByField("declarator")
			return d != nil && d.Kind() == "reference_declarator"
		}
	}
	return false
}

// nextStatement is n or the first named sibling after it that is no
// comment.
func nextStatement(n *grammar.Node) *grammar.Node {
	for n != nil && (!n.IsNamed() || n.Kind() == "comment") {
		n = n.NextSibling()
	}
	return n
}

// complementedReturn reports whether the cores that do not take r leave
// before the barrier call too, by another return whose tests are r's with
// one negated (`if (idx >= n && !det) return;` and `if (idx < n) { if
// (!det) return; }`): where the tests they share hold, every core leaves
// and none waits; where they do not, neither return runs. returns are the
// file's in source order; the nearest few before the call are asked, each
// once (lits), so a function of thousands of returns stays linear.
func complementedReturn(returns []*grammar.Node, lits map[*grammar.Node]unit.Literals, r, call, fn *grammar.Node) bool {
	of := func(n *grammar.Node) unit.Literals {
		l, ok := lits[n]
		if !ok {
			l = unit.LiteralsOf(n, fn)
			lits[n] = l
		}
		return l
	}
	mine := of(r)
	if len(mine) == 0 || call.Tree() != r.Tree() {
		return false
	}
	k := sort.Search(len(returns), func(k int) bool { return returns[k].Start >= call.Start })
	for asked := 0; k > 0 && asked < 32; asked++ {
		k--
		n := returns[k]
		if n.Start < fn.Start {
			break
		}
		if n != r && mine.Complements(of(n)) {
			return true
		}
	}
	return false
}

// skippedBarriers reports a SyncAll only some cores reach: in one branch
// of an if whose test differs between cores, the other branch (or its
// absence) reaching no barrier, so the cores taking the other path never
// arrive (`if (idx < a) { ...; SyncAll(); } else if (idx < b) { SyncAll();
// }` leaves the cores past b out). A path that returns before the barrier
// is the return's finding; one that meets a barrier after the if is left
// alone (`if (idle) { SyncAll(); return; }`).
func skippedBarriers(pass *analysis.Pass, fx *fnIndexes, sites barrierSites, calls []*grammar.Node) {
	for _, n := range calls {
		b, ok := sites[n]
		fn := cxx.EnclosingFunction(n)
		cores := pass.Cores(n)
		if !ok || b.Kind != cxx.BarrierSyncAll && b.Kind != cxx.BarrierSoftware || fn == nil || cores == grammar.None || pass.Stopped() {
			continue
		}
		ix := fx.of(fn)
		for child, p := n, n.Parent(); p != nil && p != fn && !isLoop(p); child, p = p, p.Parent() {
			branch := child.Field()
			if p.Kind() != "if_statement" || branch != "consequence" && branch != "alternative" {
				continue
			}
			other := p.ChildByField("alternative")
			if branch == "alternative" {
				other = p.ChildByField("consequence")
			}
			if other != nil {
				if m, _ := ix.firstReaching(other.Start, cores); m != nil && other.Contains(m) {
					continue // every path here reaches a barrier
				}
				if other.End <= n.Start && len(other.Inside(other.Tree().OfKind("return_statement"))) > 0 {
					break
				}
			}
			if m, _ := ix.firstReaching(p.End, cores); m != nil && leavesBranch(child) {
				// The other cores meet a barrier after the if, which the
				// cores in the branch do not reach: one arrival each. A
				// branch that falls through to it arrives twice.
				break
			}
			if !readsBlockID(fx.vm, cxx.ConditionOf(p)) && !fx.blockDerived(fn, cxx.ConditionOf(p), 0) ||
				branch == "consequence" && !doubledVectorIDs(pass, cores) && blockBelowCount(fx.vm, cxx.ConditionOf(p)) {
				// Not a test of the block id itself (values derived from it
				// may still be alike on every core), or true on every
				// core: one path here.
				continue
			}
			diag := analysis.Diagnostic{
				Start: n.Start,
				End:   n.End,
				Message: "only the cores for which `" + conditionText(p) + "` takes this branch reach the " + barrierNoun(b) + " `" +
					shortText(n) + "`: the others skip it, and the cores that reach it wait for them forever" + hangCode(pass, n.Start) + "; " +
					"give every path the barrier",
				Related: []analysis.Related{analysis.RelatedAt(pass.File, p, "the test the cores take apart")},
			}
			launchedPast(pass, fx.vm, cxx.ConditionOf(p), &diag)
			pass.Report(diag)
			break
		}
	}
}

// emptySplitShare reports whether test e only says the block's share of a
// tiling field is empty (`share <= 0`, `share == 0`, `share < 1`,
// `!share`, also `this->share`) where the host tiling beside the kernel
// gives every block it launches at least one unit of that field
// (VarianceModel.SplitShare): no launched block takes the return.
func emptySplitShare(vm *unit.VarianceModel, e *grammar.Node) bool {
	e = cxx.Unparen(e)
	if e == nil {
		return false
	}
	var share *grammar.Node
	switch e.Kind() {
	case "unary_expression":
		if op := e.ChildByField("operator"); op != nil && op.Text() == "!" {
			share = e.ChildByField("argument")
		}
	case "binary_expression":
		for _, t := range []struct{ op, flip, lit string }{{"<=", ">=", "0"}, {"==", "==", "0"}, {"<", ">", "1"}} {
			if l, r, ok := ordered(e, t.op, t.flip); ok && strings.TrimRight(strings.TrimSpace(r.Text()), "uUlL") == t.lit {
				share = l
				break
			}
		}
	}
	share = cxx.Unparen(share)
	if share == nil {
		return false
	}
	name := ""
	switch share.Kind() {
	case "identifier":
		name = share.Text()
	case "field_expression":
		if arg := share.ChildByField("argument"); arg != nil && arg.Text() == "this" {
			if f := share.ChildByField("field"); f != nil {
				name = f.Text()
			}
		}
	}
	return name != "" && vm.SplitShare(name)
}

// leavesBranch reports whether a branch can end other than by falling
// through to the code after its if: it holds a return, break, continue or
// goto (a branch that returns after its barrier arrives once, as the
// cores that skip it do at a barrier after the if).
func leavesBranch(b *grammar.Node) bool {
	found := false
	b.Walk(func(n *grammar.Node) bool {
		switch n.Kind() {
		case "return_statement", "break_statement", "continue_statement", "goto_statement", "co_return_statement":
			found = true
		case "lambda_expression":
			return false
		}
		return !found
	})
	return found
}

// blockDerived reports whether e computes its value from the block id:
// reads a name holding it (readsBlockID: `GetBlockIdx()`, a local or
// member holding only that, a constructor's `idx_(GetBlockIdx())`), or a
// local of fn initialized from such a value, or calls a helper of the
// unit whose returned value is (`first = FirstColumn(k)` returning `base
// + idx_`), a few levels deep. Not a value a test decides in the helper
// (`if (n == 0) return false; ... return true;`): only what is returned.
func (fx *fnIndexes) blockDerived(fn, e *grammar.Node, depth int) bool {
	if e == nil || fn == nil || depth > 3 {
		return false
	}
	if readsBlockID(fx.vm, e) {
		return true
	}
	found := false
	e.Walk(func(n *grammar.Node) bool {
		if found {
			return false
		}
		switch n.Kind() {
		case "identifier":
			if v := localInit(fn, n); v != nil && v != e && !v.Contains(n) && fx.blockDerived(fn, v, depth+1) {
				found = true
			}
		case "call_expression":
			c, ok := cxx.AsCall(n)
			if !ok {
				return true
			}
			for _, d := range fx.funcs.OfClass(n, c, fx.funcs.Callees(c)) {
				if d.Node == fn {
					continue
				}
				for _, r := range ownReturns(d.Node) {
					if v := r.NamedChildren(); len(v) == 1 && fx.blockDerived(d.Node, v[0], depth+1) {
						found = true
					}
				}
			}
		case "lambda_expression":
			return false
		}
		return !found
	})
	return found
}

// localInit is the initializer of the local of fn that identifier n
// names: the last declaration before n in a block holding n (nil for a
// parameter or a member).
func localInit(fn, n *grammar.Node) *grammar.Node {
	var init *grammar.Node
	fn.Walk(func(d *grammar.Node) bool {
		if d.Start >= n.Start {
			return false
		}
		if d.Kind() == "init_declarator" && cxx.DeclaredName(d) == n.Text() {
			if b := d.Ancestor("compound_statement", "for_statement"); b != nil && b.Contains(n) {
				init = d.ChildByField("value")
			}
		}
		return d.Kind() != "lambda_expression"
	})
	return init
}

// ownReturns are fn's return statements, not those of a lambda in it.
func ownReturns(fn *grammar.Node) []*grammar.Node {
	var out []*grammar.Node
	if body := fn.ChildByField("body"); body != nil {
		body.Walk(func(n *grammar.Node) bool {
			if n.Kind() == "return_statement" {
				out = append(out, n)
			}
			return n.Kind() != "lambda_expression"
		})
	}
	return out
}
