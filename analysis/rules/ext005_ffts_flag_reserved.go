package rules

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// FFTSFlagReserved flags cross-core flags on ids the hardware SyncAll owns,
// and ids that do not fit the FFTS flag field.
var FFTSFlagReserved = register(&analysis.Analyzer{
	Code:     "EXT005",
	Name:     "ffts-flag-reserved",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a cross-core flag id the chip does not have, or one the hardware `SyncAll` uses (11–14), or mode 4 on A2/A3",
		What: "Flags `CrossCoreSetFlag`, `CrossCoreWaitFlag`, `NotifyEvent` and `WaitEvent` whose flag id resolves " +
			"(literals, `constexpr`/`const` variables, `static constexpr` members, `enum` members including implicit " +
			"values, object-like `#define`s, in the file or a header it includes, and locals initialised once and never " +
			"assigned after, `int id = 12;`) to 11–14, and raw " +
			"`ffts_cross_core_sync(pipe, cfg)` / `wait_flag_dev(id)` whose id decodes to 11–14 (`(cfg >> 8) & 0xF`, or " +
			"`GetffstMsg(mode, id)`), when the extern calls the hardware `SyncAll()` / `SyncAll<...>()` in this file, a " +
			"file it includes, or any file of the same extern unit (the entry and everything it includes). The " +
			"three-argument software `SyncAll(gm, ub, cores)` does not reserve flags. A SyncAll reserves ids only for flags " +
			"it can run with: not for a flag in the other branch of a compile-time choice (`if constexpr`, an `if` on " +
			"template parameters or constants alone, a `TILING_KEY_IS` dispatch, an `#if`/`#else` group), judged along " +
			"the calls that reach each (a method through an object declared of its class), nor for one in another " +
			"`__global__` kernel of the file. On A2/A3 a call is judged by the counter it touches, not the id " +
			"alone: every core has its own flag counters, a wait consumes the waiting core's, a mode-0 set counts on the " +
			"setting type's cores, a mode-1 set on a vector core and a mode-2 set on the other type of the cluster; the " +
			"mixed `SyncAll<false>()` has the cube cores wait on 11 and 12 and the vector cores on 13, the vector-only " +
			"form the cores that run it on 14 (a cube running it is read as using 11–14), so a vector core's wait on 12 " +
			"for its cube's mode-2 set, or anything on 14 beside `SyncAll<false>()` alone, meets no count of the barrier " +
			"and is a warning, not an error (the ids 11–14 stay the barrier's whatever the mode: another form of the barrier, " +
			"another chip or a CANN update uses them); the core type comes from the guards around the call (`if ASCEND_IS_AIV`, the dav-c220 " +
			"macros), and unguarded code runs on both. A handshake on a counter the barrier waits on is such a warning when, between two barriers, " +
			"the receiving cores' own waits take every count its sets give them (the model EXT014 shares): the sets and waits of that " +
			"counter in one function pair off, each set with a wait in the same place (the same loops and tests, written alike, core-type " +
			"guards aside; as many barrier-reaching calls before each; no return, break or continue that can cut one side short; no test " +
			"around a vector core's side that reads the lane, its own UB, AscendC's `GetBlockIdx()` or a call the unit does not define), " +
			"e.g. `if ASCEND_IS_AIV { CrossCoreSetFlag<2, PIPE_MTE3>(11); } if ASCEND_IS_AIC { CrossCoreWaitFlag(11); }` beside " +
			"`SyncAll<false>()`: the mode-2 set both lanes make is one count on their cube, its wait takes it before the barrier, and the " +
			"barrier's own count on 11 arrives only when every cube is in the barrier. A loop on one side only, a set under a lane test, a " +
			"wait after a barrier or no wait at all stays flagged. A raw config a helper returns (`GetSyncConf(mode, id)` returning " +
			"`1 | (mode << 4) | (id << 8)`) is decoded with the arguments bound. An id above 15 is always flagged, " +
			"as are ids listed in the project's `reserved-flags` setting. An id that can take several values " +
			"(`c ? 12 : 3`) is flagged when one of them is reserved: a ring's slot ids too (`kReady[slot]`, `Ring::Free(slot)` " +
			"returning `kFreeBase + slot`, with `slot = it % kStages` standing for 0..kStages-1). When the id is a parameter of a helper defined in " +
			"the same file or a header of the unit (`notify(uint16_t id) { CrossCoreSetFlag<2, PIPE_MTE3>(id); }`, also through an " +
			"integer cast, `static_cast<uint16_t>(id)`), each call of the helper in the file is " +
			"checked with its argument instead (a local set once there too, `int id = 12; notify(id);`), one level deep. Related information points at the SyncAll that " +
			"reserves the id. Calls only the simulator compiles (`__CPU_SIM`) or that an `if constexpr` on a constant " +
			"discards are skipped, and so is such a SyncAll in the file itself. " +
			"Ids and modes are judged for the extern's target chip: the `arch` setting (`\"a2a3\"` or `\"a5\"`, or " +
			"`check --arch`), else the chip its conditionals name (a branch only one chip compiles: `#ifdef " +
			"__DAV_C220_CUBE__`, `#if __NPU_ARCH__ == 2201` for A2/A3; `#if defined(__DAV_C310__)`, `#if __NPU_ARCH__ == " +
			"3510` for A5; an `#if`/`#else` that serves both chips names neither), else the chip the build pins (the " +
			"nearest folder's `SOC_VERSION`, or a `CMakePresets.json`'s `ASCEND_COMPUTE_UNIT`: an Ascend 950 is A5, an Ascend 910B or 910_93 A2/A3), narrowed at each call by the " +
			"conditionals around it. On A5 (Ascend 950) mode 4 (`CrossCoreSetFlag<4, pipe>`) is a handshake between a " +
			"cube and one of its vector cores with ids 0–10, and 16–26 for the cube's side of the second vector core; " +
			"an id past 26 there is flagged, and with a hardware SyncAll so are 12, 13, 28 and 29. On A2/A3 a mode-4 " +
			"set is flagged. When the target is unknown and the chips disagree (mode 4 with id 18, or an id of 16–26 " +
			"with a mode that is not a constant) nothing is reported; `check --statistics` counts such units.",
		Why: "The hardware `SyncAll` is built from FFTS cross-core flags 11 (cube), 12 (vector), 13 (cube→vector) and " +
			"14 (vector-only), named for who sets them; who waits is what collides (asc-devkit's dav-c220 SyncAllImpl): " +
			"in `SyncAll<false>()` the cube waits on 12 (its vector cores' mode-2 arrival) and on 11 (every cube's " +
			"mode-0 set), the vector cores on 13 (the cube's mode-2 release); in the vector-only form they wait on 14. " +
			"A user flag on a counter the barrier waits on adds or consumes a count it relies on: the barrier " +
			"releases early (the consumer reads GM before it is written) or never releases (507018 hang). Flag ids are " +
			"a 4-bit field of the FFTS config, so an id above 15 spills into other bits and signals a different flag " +
			"(`GetffstMsg` masks it with `& 0xf` on A2/A3 and on Ascend 950 alike). Mode 4 exists only on Ascend 950, " +
			"where `CrossCoreSetFlag<4, pipe>` becomes an intra-block set (the CANN CrossCoreSetFlag(ISASI) reference: " +
			"AIV0's ids 0–10 reach the cube's 0–10, AIV1's reach the cube's 16–26, and the cube's 16–26 reach AIV1's " +
			"0–10); that chip's mixed SyncAll uses intra-block flags 12 and 13 and their second-vector twins 28 and 29 " +
			"(asc-devkit, dav_3510 sync implementation). On A2/A3 the config keeps two mode bits (`(mode & 3) << 4`), " +
			"so mode 4 is sent as mode 0: a barrier of every cube or every vector core instead of a handshake. " +
			"Whether ids 11–15 can carry a user's mode-4 handshake on Ascend 950 is not documented: only the " +
			"SyncAll's 12 and 13 are flagged, and only next to a hardware SyncAll.",
		Example:    "AscendC::SyncAll<false>();\nAscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(12);",
		UseInstead: "AscendC::SyncAll<false>();\nAscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(0);   // an id in 0–10 no other flag uses",
		FixSafety: "Unsafe: a mode-4 set on A2/A3 gets no fix (the handshake must be redesigned). Otherwise replaces the " +
			"id with the lowest id in 0–10 that no flag call of the file (or its extern unit) " +
			"uses and the project does not reserve; distinct reserved ids get distinct replacements, and a set and its " +
			"wait on the same id get the same one: a literal id's fix also rewrites the other flagged calls of that literal in the " +
			"same function, so applying one finding's fix moves the whole handshake (a suppressed call is left alone). When the id is a named constant the fix edits the constant's " +
			"definition (in the header that defines it, if so), which changes every use of the constant; an enumerator " +
			"after an edited one is pinned to its old value. Libraries own ids too (Matmul objects 0..2N-1, catlass " +
			"barriers 8–10): check the new id against them, or list them in `reserved-flags`.",
		Guide: "§5",
	},
	Run: runFFTSFlagReserved,
})

// badFlag is one finding before its fix is built.
type badFlag struct {
	fc     *cxx.FlagCall
	ids    []int64 // the offending candidates
	reason int
	// inner is the flag call inside a helper when fc is a call of that
	// helper passing the id (see wrapperFlagCalls).
	inner *cxx.FlagCall
	// arch is the chips the verdict holds for; target says where the
	// extern's target came from.
	arch   grammar.Arch
	target unit.Target
	// site is a hardware SyncAll that can run with the flag.
	site cxx.Site
}

const (
	reasonMode4    = iota + 1 // mode 4 on A2/A3
	reasonRange               // not a flag id of the chip and mode
	reasonSyncAll             // an id the hardware SyncAll uses
	reasonSettings            // the project's reserved-flags
	// reasonReserved: an id of 11–14 beside a hardware SyncAll whose
	// counters it does not touch on A2/A3 (a vector core's 11 set by its
	// cube in mode 2): no collision with the dav-c220 barrier as written,
	// but the facts reserve the ids whatever the mode.
	reasonReserved
)

func runFFTSFlagReserved(pass *analysis.Pass) {
	direct := pass.Closure().FlagCalls()
	headers := pass.Reach().HeaderFlagCalls()
	if len(direct) == 0 && len(headers) == 0 {
		return
	}
	wrapped, inner := wrapperFlagCalls(pass, direct, headers)
	calls := append(append([]cxx.FlagCall(nil), direct...), wrapped...)
	var bad []badFlag
	var sites []cxx.Site
	var paths *unit.Exec
	checked := false
	waits := map[int64]grammar.Cores{}
	target := pass.Target()
	dead := deadConstexprs(pass.Consts)
	for i := range calls {
		if pass.Stopped() {
			return
		}
		fc := &calls[i]
		if len(fc.Flags) == 0 || pass.Cores(fc.Node) == grammar.None || dead.Of(fc.Node) {
			continue
		}
		arch := target.Arch & pass.ArchAt(pass.File, fc.Node)
		if arch == grammar.ArchNone {
			// Only a chip the extern is not built for compiles it.
			continue
		}
		var in *cxx.FlagCall
		if i >= len(direct) {
			in = inner[i-len(direct)]
		}
		// Only a call using an id the SyncAll owns is worth the scan of
		// the unit and the paths to the call.
		syncAll, site := barrierUse{}, cxx.Site{}
		for _, id := range fc.Flags {
			if !cxx.ReservedBySyncAll(id) && !cxx.ReservedBySyncAllOn(grammar.ArchA5, cxx.IntraBlockMode, id) {
				continue
			}
			if !checked {
				sites, checked = unit.Fact(pass.Reach(), syncAllSitesKey), true
				paths = pass.Reach().Exec()
				for _, s := range sites {
					for id, c := range syncAllWaits(pass, s) {
						waits[id] |= c
					}
				}
			}
			for _, s := range sites {
				if paths.Apart(fc.Node, s.Node) == unit.Together {
					syncAll.any, site = true, s
					break
				}
			}
			// The counters every SyncAll of the unit waits on, whichever
			// can run with the call: one scan of the sites.
			touched := touchedCores(pass, fc, in)
			for _, id := range fc.Flags {
				syncAll.a2a3 = syncAll.a2a3 || syncAll.any && waits[id]&touched != 0
			}
			if syncAll.a2a3 && in == nil && handshakes(pass).balanced[fc.Node] {
				// Every count the handshake gives the counter is taken by
				// its own waits before the next barrier.
				syncAll.a2a3 = false
			}
			break
		}
		// The worst reason wins: out of range, then SyncAll, then project.
		var ids []int64
		reason := 0
		for _, id := range fc.Flags {
			r := badReason(pass, fc, id, syncAll, arch)
			if r == 0 {
				continue
			}
			if reason == 0 || r < reason {
				reason, ids = r, nil
			}
			if r == reason {
				ids = append(ids, id)
			}
		}
		if reason != 0 {
			bad = append(bad, badFlag{fc, ids, reason, in, arch, target, site})
		}
	}
	if len(bad) == 0 {
		return
	}
	repl := replacements(pass, calls, len(sites) > 0, target.Arch)
	// A literal id's calls in one function move together: each finding's
	// fix renumbers every flagged call there written with that literal (a
	// set and its wait), so no fix leaves a handshake with its two sides
	// on different ids. A named id moves all its uses by its definition.
	type fnID struct {
		fn *grammar.Node
		id int64
	}
	together := map[fnID][]analysis.TextEdit{}
	literalKey := func(fc *cxx.FlagCall) (fnID, bool) {
		if len(fc.Flags) != 1 || fc.IDInCfg || fc.IDNode == nil || cxx.Unparen(fc.IDNode).Kind() != "number_literal" {
			return fnID{}, false
		}
		return fnID{cxx.EnclosingFunction(fc.Node), fc.Flags[0]}, true
	}
	for _, b := range bad {
		fc := b.fc
		k, ok := literalKey(fc)
		if !ok || b.reason == reasonMode4 || !pass.Kept(fc.Node.Start) {
			continue
		}
		if to, ok := repl[fc.Flags[0]]; ok {
			if fix, ok := flagFix(pass, fc, to); ok {
				together[k] = appendNewEdits(together[k], fix.Edits)
			}
		}
	}
	// A kernel repeats the same flag call: one copy of each message.
	var texts sharedText
	for _, b := range bad {
		fc := b.fc
		d := analysis.Diagnostic{Start: fc.Node.Start, End: fc.Node.End, Message: texts.get(flagMessage(pass, b), nil)}
		if b.reason == reasonReserved {
			d.Severity = analysis.SeverityWarning
		}
		if (b.reason == reasonSyncAll || b.reason == reasonReserved) && b.site.Node != nil {
			d.Related = []analysis.Related{analysis.RelatedAt(b.site.File, b.site.Node,
				"this hardware SyncAll uses "+syncAllFlags(b))}
		}
		if e := b.target.Evidence; b.reason == reasonMode4 && e != nil {
			d.Related = append(d.Related, analysis.Related{File: e.File, Start: e.Start, End: e.End,
				Message: "only A2/A3 (dav-c220) compiles this branch: the " + pass.Models().Noun() + "'s target"})
		}
		if b.inner != nil {
			d.Related = append(d.Related, analysis.RelatedAt(pass.File, b.inner.Node,
				"the `"+b.inner.Call().Name+"` that receives the id"))
		}
		if len(fc.Flags) == 1 && b.reason != reasonMode4 {
			if to, ok := repl[fc.Flags[0]]; ok {
				if fix, ok := flagFix(pass, fc, to); ok {
					if k, ok := literalKey(fc); ok && len(together[k]) > len(fix.Edits) {
						fix.Edits = together[k]
						fix.Title += fmt.Sprintf(" here and in the %d other call(s) of %d in `%s`", len(together[k])-1, fc.Flags[0], cxx.FunctionName(k.fn))
					}
					d.Fixes = []analysis.Fix{fix}
				}
			}
		}
		pass.Report(d)
	}
}

func flagMessage(pass *analysis.Pass, b badFlag) string {
	fc := b.fc
	what := "`" + fc.Call().Name + "`"
	ids := joinIDs(b.ids)
	kind := "FFTS flag "
	if b.arch == grammar.ArchA5 && fc.ModeKnown && fc.Mode == cxx.IntraBlockMode {
		kind = "intra-block flag "
	}
	uses := "uses " + kind + ids
	if len(fc.Flags) > 1 {
		uses = "can use " + kind + ids
	}
	if b.inner != nil {
		uses = "passes " + kind + ids
		if len(fc.Flags) > 1 {
			uses = "can pass " + kind + ids
		}
	} else if fc.Raw && fc.Kind == cxx.FlagSet {
		uses = "config sets FFTS flag " + ids
		if len(fc.Flags) > 1 {
			uses = "config can set FFTS flag " + ids
		}
	}
	if fc.IDNode != nil {
		if t := strings.TrimSpace(fc.IDNode.Text()); t != ids && len(t) <= 40 && !strings.ContainsAny(t, "\n") {
			uses += " (`" + t + "`)"
		}
	}
	if b.inner != nil {
		uses += " to `" + b.inner.Call().Name + "`"
	}
	switch b.reason {
	case reasonMode4:
		return what + " uses cross-core mode 4, which only Ascend 950 (A5) has, but this " + pass.Models().Noun() + " targets A2/A3 (" +
			targetSource(pass, b.target) + "): the FFTS config keeps two mode bits, so mode 4 is sent as mode 0, a barrier " +
			"of every cube or every vector core of the launch instead of a handshake inside one cluster; use mode 2 " +
			"(cube and its vector cores) or mode 1 with an id in 0–10"
	case reasonRange:
		if b.arch == grammar.ArchA5 && fc.ModeKnown && fc.Mode == cxx.IntraBlockMode {
			return what + " " + uses + ", but Ascend 950's mode-4 flag ids are 0–10, and 16–26 for the cube's " +
				"handshakes with its second vector core: the id names no flag; use one of those"
		}
		if b.arch&grammar.ArchA5 != 0 && (!fc.ModeKnown || fc.Mode == cxx.IntraBlockMode) && !fc.Raw {
			return what + " " + uses + ", which is no flag id of either chip: FFTS flags are 0–15 and Ascend 950's " +
				"mode-4 flags 0–10 and 16–26; use an id in 0–10"
		}
		return what + " " + uses + ", but FFTS flag ids are 0–15 (a 4-bit field of the FFTS config): the id spills " +
			"into other bits and signals a different flag; use an id in 0–10"
	case reasonSettings:
		return what + " " + uses + ", which the project reserves (reserved-flags): a library or another phase " +
			"owns it; use a free id"
	case reasonReserved:
		return what + " " + uses + ", one of the ids the hardware `SyncAll` of this " + pass.Models().Noun() + " reserves (" +
			syncAllFlags(b) + "): the dav-c220 barrier as written does not count on the counter this call touches, so the two " +
			"do not collide there, but the ids are the barrier's whatever the mode (another form of the barrier, another " +
			"chip or a CANN update uses them); use an id in 0–10"
	}
	return what + " " + uses + ", which the hardware `SyncAll` of this " + pass.Models().Noun() + " uses (" + syncAllFlags(b) + "): the barrier " +
		"and this handshake corrupt each other's counts, so the barrier releases early or the kernel hangs; " +
		"use an id in 0–10"
}

// syncAllFlags names the flags the hardware SyncAll uses in the finding's
// flag space.
func syncAllFlags(b badFlag) string {
	if b.arch == grammar.ArchA5 && b.fc.ModeKnown && b.fc.Mode == cxx.IntraBlockMode {
		return "intra-block flags 12, 13, 28 and 29 on Ascend 950"
	}
	return "flags 11–14"
}

// chipTitle names a known chip for messages.
func chipTitle(a grammar.Arch) string {
	if a == grammar.ArchA5 {
		return "A5 (Ascend 950, dav-c310)"
	}
	return "A2/A3 (dav-c220)"
}

// targetSource says where a known target came from, for messages.
func targetSource(pass *analysis.Pass, t unit.Target) string {
	switch {
	case t.Source == "config":
		return "the configured `arch`"
	case t.Source == "build":
		return "the build's " + t.Build
	case t.Evidence != nil:
		where := filepath.Base(t.Evidence.File)
		if f := pass.Reach().File(t.Evidence.File); f != nil {
			line, _ := f.Lines.Position(t.Evidence.Start)
			where += fmt.Sprintf(":%d", line+1)
		}
		return "`#" + t.Evidence.Kind + " " + t.Evidence.Cond + "` at " + where
	}
	return "code only A2/A3 compiles"
}

// wrapperFlagCalls follows flag ids through a parameter of a helper
// defined in the file or a header of its unit, one level deep: for `notify(12)` where `notify(
// uint16_t id)` calls `CrossCoreSetFlag<2, PIPE_MTE3>(id)`, each call of
// the helper becomes a flag call at the call site whose id is the
// argument. inner[i] is the helper's flag call behind out[i].
func wrapperFlagCalls(pass *analysis.Pass, calls, headerCalls []cxx.FlagCall) (out []cxx.FlagCall, inner []*cxx.FlagCall) {
	var byName map[string][]*grammar.Node
	// A helper of a header the file includes (`AllVectorRendezvous(flag)`
	// in sync_ids.h) is followed from the file's calls of it too.
	own := len(calls)
	calls = append(slices.Clip(calls), headerCalls...)
	for i := range calls {
		fc := &calls[i]
		if len(fc.Flags) != 0 || fc.IDNode == nil || i < own && pass.Cores(fc.Node) == grammar.None {
			continue
		}
		// `static_cast<uint16_t>(flag)` reads the parameter flag.
		id := cxx.Uncast(fc.IDNode)
		fn := cxx.EnclosingFunction(fc.Node)
		if id == nil || fn == nil || fn.Kind() != "function_definition" {
			continue
		}
		if cls := cxx.ClassTemplateOf(fn); cls != nil {
			// A method of a class template whose id reads the class's
			// parameters (`Channel<12>::Set()`, `ring_.Set()`).
			for _, n := range pass.Closure().Calls(pass.File).Named(cxx.FunctionName(fn)) {
				c, ok := cxx.AsCall(n)
				if !ok || fn.Contains(n) {
					continue
				}
				args, ok := cxx.InstanceArgs(pass.Reach().Files, c, cls, pass.Consts)
				if !ok {
					continue
				}
				w := *fc
				w.Node, w.IDNode = n, nil
				w.Flags = pass.Consts.Bind(cxx.BindClassTemplate(cls, args, pass.Consts)).EvalAll(fc.IDNode)
				if fc.IDInCfg {
					raw := w.Flags
					w.Flags = nil
					for _, v := range raw {
						w.Flags = appendID(w.Flags, (v>>8)&0xF)
					}
				}
				if len(w.Flags) > 0 {
					out = append(out, w)
					inner = append(inner, fc)
				}
			}
			continue
		}
		if id.Kind() != "identifier" {
			continue
		}
		params := cxx.Params(fn)
		idx := -1
		for _, p := range params {
			if p.Name == id.Text() {
				idx = int(p.Index)
			}
		}
		name := cxx.FunctionName(fn)
		if idx < 0 || name == "" {
			continue
		}
		if byName == nil {
			byName = map[string][]*grammar.Node{}
			for _, n := range pass.Nodes("call_expression") {
				if c, ok := cxx.AsCall(n); ok && c.Receiver == nil {
					byName[c.Name] = append(byName[c.Name], n)
				}
			}
		}
		for _, n := range byName[name] {
			c, _ := cxx.AsCall(n)
			if len(c.Args) <= idx || len(c.Args) > len(params) || fn.Contains(n) {
				continue
			}
			w := *fc
			w.Node, w.IDNode, w.Flags = n, c.Args[idx], nil
			// A local initialised once at the call site is its constant.
			vals := cxx.BindLocals(n, pass.Consts).EvalAll(c.Args[idx])
			if fc.IDInCfg {
				// The parameter is a whole raw config.
				for _, v := range vals {
					w.Flags = appendID(w.Flags, (v>>8)&0xF)
				}
			} else {
				w.Flags = vals
			}
			if len(w.Flags) > 0 {
				out = append(out, w)
				inner = append(inner, fc)
			}
		}
	}
	return out, inner
}

func appendID(ids []int64, id int64) []int64 {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, " or ")
}

// replacements maps each offending id to a free id in 0–10: lowest first,
// distinct offending ids to distinct free ids, so a set and its wait keep
// matching and two handshakes stay apart. The map is computed over the
// whole extern unit, so a set in the entry and its wait in a header get
// the same replacement.
func replacements(pass *analysis.Pass, calls []cxx.FlagCall, syncAll bool, arch grammar.Arch) map[int64]int64 {
	all := append(append([]cxx.FlagCall(nil), calls...), unitFlagCalls(pass)...)
	used, bad := map[int64]bool{}, map[int64]bool{}
	var from []int64
	for i := range all {
		fc := &all[i]
		for _, id := range fc.Flags {
			// An id may be bad in one call and right in another (mode 4
			// on Ascend 950 has ids past 15): judge each call.
			if r := badReason(pass, fc, id, barrierUse{syncAll, syncAll}, arch); !bad[id] && len(fc.Flags) == 1 && r != 0 && r != reasonMode4 {
				bad[id] = true
				from = append(from, id)
			}
			used[id] = true
		}
	}
	sort.Slice(from, func(i, j int) bool { return from[i] < from[j] })
	out := map[int64]int64{}
	next := int64(0)
	for _, id := range from {
		if _, done := out[id]; done {
			continue
		}
		for next <= 10 && (used[next] || pass.Settings.Reserved(next)) {
			next++
		}
		if next > 10 {
			break
		}
		out[id] = next
		next++
	}
	return out
}

// badReason says why flag id of fc must not be used (0: it may) on every
// chip of arch and in every mode fc can have. When the chips or modes
// disagree (mode 4 with id 18 is fine on Ascend 950, wrong on A2/A3) it
// says nothing: the target decides, and it is not known.
func badReason(pass *analysis.Pass, fc *cxx.FlagCall, id int64, syncAll barrierUse, arch grammar.Arch) int {
	reason := -1
	for _, chip := range []grammar.Arch{grammar.ArchA2A3, grammar.ArchA5} {
		if arch&chip == 0 {
			continue
		}
		modes := []int64{fc.Mode}
		if !fc.ModeKnown && !fc.Raw && chip == grammar.ArchA5 {
			// An unknown mode of an AscendC call may be an FFTS mode or
			// Ascend 950's intra-block mode 4.
			modes = []int64{0, cxx.IntraBlockMode}
		}
		for _, mode := range modes {
			// A2/A3's wait ignores the mode: only a mode-4 set is wrong.
			mode4Set := fc.Kind == cxx.FlagSet && fc.ModeKnown && mode == cxx.IntraBlockMode
			r := chipReason(pass, chip, mode4Set, mode, id, syncAll.on(chip))
			if r == 0 && syncAll.any && chip == grammar.ArchA2A3 && cxx.ReservedBySyncAllOn(chip, mode, id) {
				r = reasonReserved
			}
			if r == 0 || reason > 0 && r != reason && !sameVerdict(r, reason) {
				return 0
			}
			if reason <= 0 || r == reasonReserved {
				// Where the chips disagree on the counter, the weaker
				// verdict stands.
				reason = r
			}
		}
	}
	return max(reason, 0)
}

// sameVerdict reports whether two chips' reasons say the same thing of an
// id: the barrier's, whether or not its counter collides.
func sameVerdict(a, b int) bool {
	return a == b || min(a, b) == reasonSyncAll && max(a, b) == reasonReserved
}

// barrierUse says whether a hardware SyncAll that can run with a flag
// call uses the counter the call touches: on A2/A3 judged by the core
// types that wait on each id (syncAllWaits), on Ascend 950 by the id
// alone (which cores wait on its FFTS ids there is not documented).
type barrierUse struct{ any, a2a3 bool }

func (b barrierUse) on(chip grammar.Arch) bool {
	if chip == grammar.ArchA2A3 {
		return b.a2a3
	}
	return b.any
}

// touchedCores are the core types whose counter of the flag fc touches:
// each core has its own 16 flag counters, and a wait consumes the
// waiting core's own; a mode-0 set counts on the setting type's cores, a
// mode-1 set on the other vector core, a mode-2 set on the other type of
// the cluster (a cube's reaches its vector cores, theirs the cube). Code
// no core-type guard narrows runs on both.
func touchedCores(pass *analysis.Pass, fc, inner *cxx.FlagCall) grammar.Cores {
	caller := pass.Cores(fc.Node)
	if inner != nil {
		if c := caller & pass.File.CoresOf(inner.Node); c != grammar.None {
			caller = c
		}
	}
	if fc.Kind == cxx.FlagWait {
		return caller
	}
	if !fc.ModeKnown {
		return grammar.Both
	}
	if t := flagTarget(caller, fc.Mode); t != grammar.None {
		return t
	}
	return grammar.Both
}

// syncAllWaits maps each flag id a hardware SyncAll site uses on A2/A3 to
// the core types that wait on it (asc-devkit's dav-c220 SyncAllImpl):
// the mixed `SyncAll<false>()` has the cube wait on 12 (its vector cores'
// mode-2 arrival) and 11 (every cube's mode-0 set), and the vector cores
// on 13 (the cube's mode-2 release); the vector-only form has the cores
// that run it wait on 14 (a cube running it is read as using 11–14, the
// cube-only barrier's ids not being documented); a form not known is
// read as both.
func syncAllWaits(pass *analysis.Pass, s cxx.Site) map[int64]grammar.Cores {
	c, _ := cxx.AsCall(s.Node)
	aivOnly, known := cxx.SyncAllAIVOnly(c, pass.Consts)
	cores := s.File.CoresOf(s.Node)
	out := map[int64]grammar.Cores{}
	if !known || !aivOnly {
		out[11] |= grammar.AIC
		out[12] |= grammar.AIC
		out[13] |= grammar.AIV
	}
	if !known || aivOnly {
		out[14] |= cores & grammar.AIV
		if cores&grammar.AIC != 0 || !known {
			for id := int64(11); id <= 14; id++ {
				out[id] |= grammar.AIC
			}
		}
		if !known {
			for id := int64(11); id <= 14; id++ {
				out[id] |= grammar.AIV
			}
		}
	}
	return out
}

// chipReason judges one id on one chip in one mode.
func chipReason(pass *analysis.Pass, chip grammar.Arch, mode4Set bool, mode, id int64, syncAll bool) int {
	switch {
	case chip == grammar.ArchA2A3 && mode4Set:
		return reasonMode4
	case !cxx.FlagIDFits(chip, mode, id):
		return reasonRange
	case cxx.ReservedBySyncAllOn(chip, mode, id):
		if syncAll {
			return reasonSyncAll
		}
	}
	if pass.Settings.Reserved(id) {
		return reasonSettings
	}
	return 0
}

// flagFix rewrites the id of fc to `to`: at the call, or at the named
// constant's definition.
// appendNewEdits appends the edits of add that out does not hold yet (a
// constant's definition edited for two calls is one edit).
func appendNewEdits(out, add []analysis.TextEdit) []analysis.TextEdit {
	for _, e := range add {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func flagFix(pass *analysis.Pass, fc *cxx.FlagCall, to int64) (analysis.Fix, bool) {
	if fc.IDNode == nil {
		return analysis.Fix{}, false
	}
	edits, name, ok := idEdits(pass, pass.File, fc.IDNode, fc.IDInCfg, to, 0)
	if !ok {
		return analysis.Fix{}, false
	}
	title := fmt.Sprintf("Use flag id %d instead of %d", to, fc.Flags[0])
	if name != "" {
		title = fmt.Sprintf("Change `%s` to flag id %d (was %d)", name, to, fc.Flags[0])
	}
	return analysis.Fix{Title: title, Applicability: analysis.Unsafe, Edits: edits}, true
}

// idEdits builds the edits that make expression n (in file f) hold flag id
// `to`. inCfg says n is a whole raw FFTS config rather than an id. name is
// the constant whose definition is edited, if any.
func idEdits(pass *analysis.Pass, f *grammar.File, n *grammar.Node, inCfg bool, to int64, depth int) ([]analysis.TextEdit, string, bool) {
	if depth > 8 {
		return nil, "", false
	}
	n = cxx.Unparen(n)
	if init := cxx.LocalInit(n); init != nil {
		// `int id = 12;`: the local's initialiser, so every use changes.
		edits, _, ok := idEdits(pass, f, init, inCfg, to, depth+1)
		return edits, n.Text(), ok
	}
	if def := cxx.NamedConstant(pass.Consts, n); def != nil {
		edits, ok := defEdits(pass, def, inCfg, to, depth)
		return edits, def.Name, ok
	}
	if !inCfg {
		return []analysis.TextEdit{{File: f.Path, Start: n.Start, End: n.End, NewText: strconv.FormatInt(to, 10)}}, "", true
	}
	if x := cxx.ShiftedTerm(n, 8); x != nil {
		return idEdits(pass, f, x, false, to, depth+1)
	}
	cfg, ok := pass.Consts.Eval(n)
	if !ok {
		return nil, "", false
	}
	return []analysis.TextEdit{{File: f.Path, Start: n.Start, End: n.End, NewText: cfgText(n.Text(), cfg, to)}}, "", true
}

// cfgText is cfg with its flag field set to `to`, in the base the original
// was written in.
func cfgText(orig string, cfg, to int64) string {
	v := cfg&^(0xF<<8) | to<<8
	if strings.HasPrefix(strings.TrimSpace(orig), "0x") || strings.HasPrefix(strings.TrimSpace(orig), "0X") {
		return fmt.Sprintf("0x%X", v)
	}
	return strconv.FormatInt(v, 10)
}

// defEdits edits a constant's definition so it holds `to` (or a config
// whose flag is `to`).
func defEdits(pass *analysis.Pass, def *cxx.Def, inCfg bool, to int64, depth int) ([]analysis.TextEdit, bool) {
	f := def.File
	var edits []analysis.TextEdit
	switch {
	case def.Node != nil:
		target, cfgMode := def.Node, inCfg
		if inCfg {
			// `constexpr int kCfg = 0x1 | (kFlag << 8);` edits kFlag or the term.
			if x := cxx.ShiftedTerm(def.Node, 8); x != nil {
				target, cfgMode = x, false
			}
		}
		e, _, ok := idEdits(pass, f, target, cfgMode, to, depth+1)
		if !ok {
			return nil, false
		}
		edits = e
	case def.Decl != nil && def.Decl.Kind() == "preproc_def":
		val := def.Decl.ChildByField("value")
		if val == nil {
			return nil, false
		}
		text := val.Text()
		body := cxx.MacroValue(text)
		start := strings.Index(text, body)
		if body == "" || start < 0 {
			return nil, false
		}
		newText := strconv.FormatInt(to, 10)
		if inCfg {
			cfg, ok := pass.Consts.EvalText(body)
			if !ok {
				return nil, false
			}
			newText = cfgText(body, cfg, to)
		}
		s := val.Start + uint32(start)
		edits = []analysis.TextEdit{{File: f.Path, Start: s, End: s + uint32(len(body)), NewText: newText}}
	case def.Impl && def.Decl != nil && def.Decl.Kind() == "enumerator" && !inCfg:
		name := def.Decl.ChildByField("name")
		if name == nil {
			return nil, false
		}
		edits = []analysis.TextEdit{{File: f.Path, Start: name.End, End: name.End, NewText: " = " + strconv.FormatInt(to, 10)}}
	default:
		return nil, false
	}
	// The next enumerator counted on from this one: pin its value.
	if def.Decl != nil && def.Decl.Kind() == "enumerator" && def.Impl {
		for s := def.Decl.NextSibling(); s != nil; s = s.NextSibling() {
			if s.Kind() != "enumerator" {
				continue
			}
			if s.ChildByField("value") == nil {
				if name := s.ChildByField("name"); name != nil {
					edits = append(edits, analysis.TextEdit{File: f.Path, Start: name.End, End: name.End,
						NewText: " = " + strconv.FormatInt(def.Value+1, 10)})
				}
			}
			break
		}
	}
	return edits, true
}

// syncAllSitesKey lists the live hardware SyncAlls of a unit's files,
// the file's own first: one an `if constexpr` on a constant discards
// reserves nothing.
var syncAllSitesKey = &unit.UnitKey[[]cxx.Site]{
	Name: "rules.ext005.syncAllSites",
	Compute: func(_ context.Context, u *unit.Unit) []cxx.Site {
		dead := deadConstexprs(u.Consts())
		var out []cxx.Site
		for _, f := range u.CodeFiles() {
			for _, n := range u.Calls(f).Named("SyncAll") {
				if c, ok := cxx.AsCall(n); ok && cxx.IsHardwareSyncAll(c) && f.CoresOf(n) != grammar.None && !dead.Of(n) {
					out = append(out, cxx.Site{File: f, Node: n})
				}
			}
		}
		return out
	},
}
