package rules

import (
	"fmt"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// GMScalarWrite flags scalar stores to GM that are never written back out
// of the core's data cache.
var GMScalarWrite = register(&analysis.Analyzer{
	Code:     "EXT009",
	Name:     "gm-scalar-write",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseCache,
	Shares:   analysis.SharesGM,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a scalar store through a `__gm__` pointer stays in the core's data cache until `dcci(..., CACHELINE_OUT)` + `dsb(DSB_DDR)`",
		What: "Flags scalar stores through a `__gm__` pointer (`p[i] = v`, `*p = v`, `p->f = v`, `p[i] += v`, `++*p`, " +
			"`GlobalTensor::SetValue`) in an extern when the same function does not, after the store and before the next " +
			"hardware barrier, write the line out with `dcci(ptr, ..., CACHELINE_OUT)` (or `DataCacheCleanAndInvalid<..., " +
			"CACHELINE_OUT>`, the two-argument `dcci(ptr, mode)` which cleans every destination, `ENTIRE_DATA_CACHE`, " +
			"or a helper that does it, transitively, such as a loop over integer cache-line addresses; the asc C API's " +
			"`asc_dcci_single(p)`, `asc_dcci_entire_out()` and `asc_dcci_entire_all()` are such dccis) and then " +
			"`dsb` (`DSB_DDR`, `DSB_ALL`, a cast constant like `dsb((mem_dsb_t)0)`, `asc_sync_data_barrier(...)`; directly, in a helper, or in the " +
			"same helper that writes back). The write-back may go through any pointer derived from the stored one (a " +
			"cast, an offset, an integer address, a GlobalTensor view; a region carved at another named offset, `sym + ctl->rows_off`, is other memory). A store through a helper's pointer parameter is " +
			"silent when every caller writes the line out after the call (directly, or through its own callers), and an `info` " +
			"when every caller writes it out but no `dsb` follows there (a ring entry a helper fills and its poster writes " +
			"out). `addr / K * K` aligns an address down to its line whatever K's value. A write-back ending its " +
			"function is waited for when every caller follows the call, on the call's path, with a `dsb` before any " +
			"signal, wait or barrier (`for (...) { Publish(r); } dsb(DSB_DDR);`). A write-back " +
			"without `dsb` is reported once, at the write-back, with every store it covers as related information " +
			"(one missing `dsb`, one finding), and is a `warning` when a " +
			"cross-core signal, a barrier, a store to a flag that is itself written back, or this core's own DMA read " +
			"of the memory through the store's own view (`DataCopy(ub, g, n)`; through another view of the buffer, whose offset from the store's it cannot tell, the info names that read) follows before a `dsb`, or the write-back ends its function and a caller in the " +
			"file signals or meets a barrier after the call, before any `dsb`, then reads the memory (by name, there or in a " +
			"function it calls: `Partial(); SyncAll(); Combine();`), " +
			"and `info` otherwise (a signal past a `return` that ends the write-back's path is on another path, a flag stored before it is not; " +
			"in a build whose kernel end writes lines back, a flag store where one block alone runs the code, the host " +
			"launching one block or the kernel opening with `if (GetBlockIdx() != 0) return;`, is read by no core of the launch); signals that cannot hand the store to a reader are passed over (the message names " +
			"them): a flag or signal wait, which tells no one to read, and a pto::comm `TNOTIFY` into a rank's comm " +
			"window (its address computed from the CommContext's `windowsIn` bases, as `CommRemotePtr` does) when the " +
			"store is to other memory, since the woken rank reads its own window, not this task's tensors. A " +
			"warning becomes an `info` saying `unless f() writes it back` when a call of a project function whose " +
			"definition is in an `#include` that did not resolve follows the store before the signal or the end (for a store " +
			"that reaches its function's end: in every caller, after the call, before the caller's next barrier), one saying " +
			"`unless the callers of f write it back or tell no other core to read it` for such a store in a function (not a kernel or `extern \"C\"` entry) no file of the unit " +
			"calls while an `#include` of the unit resolved to no file (its callers may be there), or in library code (every unit of the file is of " +
			"unknown launch: no kernel) when nothing after the store, in the function or in its callers up to functions no code calls, hands it on, one saying " +
			"`unless NAME(...) expands without evaluating its arguments` for a store in the arguments of a macro-like name " +
			"(capitals) no file of the unit defines. Stores into local arrays of GM pointers (`GM_ADDR bufs[N]`, also as members of a " +
			"local struct) set pointers, not GM. Where the build keeps the compiler's scalar `dcci` insertion (a " +
			"standalone kernel with default flags; see the build model) only a write-back the author wrote without its " +
			"`dsb` is reported, and a store into a buffer the same function also writes or reads by DMA that a later signal can hand to another block (a neighbour block's DMA into " +
			"the same line is dropped when the dirty line is written back; inter-block `IBSet`/`IBWait` and the software " +
			"`SyncAll(gm, ub, cores)` count as signals and waits; not a table every core running the function fills alike " +
			"whose only readers are the same cores' scalar loads after the store, its own or a helper's through its " +
			"parameter: each core reads the line it stored, and DMA into the workspace around it under other names is theirs), " +
			"and a store to a member or global this core's own DMA reads back later in another function (`Init` seeds a matrix by scalar " +
			"stores, `Process` copies it in: after the store, in the functions called after it and after the call in the callers up to the " +
			"kernel, on a path no `return` ends, methods of the caller's class only) with no write-back covering it on the way: the " +
			"compiler's insertion does not write a dirty line out before an MTE2 read (an SVD kernel's history, in a default build, fixed " +
			"this with a whole-cache write-back before the copy-in); nor a write-back without `dsb` followed by a signal or barrier when every read of the stored word " +
			"that can run after it (the rest of the function, from the start of a loop around it, what it calls there, and what follows the call in each caller up to " +
			"the kernel) polls it: a DMA read in a loop that ends only on what it read (`while (true) { DataCopy(ub, status[i], n); if (ub.GetValue(0) == want) break; }`), " +
			"or a scalar read its loop invalidates before — the word at a data member of the file, the readers of the file (a read through a parameter counts as one of the word; " +
			"code of another file there reads no GM), found through the tensors and pointers the unit binds " +
			"once (`statusGm_ = win_ + dataSize_; status_.SetGlobalBuffer((__gm__ int32_t *)statusGm_);` reads the memory `win_ + dataSize_` a local tensor stored): a write-back " +
			"landing late only delays such readers; and where it keeps `dcci-before-kernel-end` a store at the end of a `__global__` " +
			"kernel, with no barrier after it, is written back as the kernel ends (so is a helper's store that nothing " +
			"after it, in the helper and in every caller up to the kernel, follows with a signal or a wait that can hand " +
			"it to a reader: what follows a `return` ending the store's path, a flag wait that signals nothing and a " +
			"`TNOTIFY` into a rank's comm window through a helper never handed the stored memory are passed over; and a " +
			"store every core makes alike — `=` of a value through an address no core's identity reaches, not under a " +
			"test or after a return that differs between cores, nothing after it in its function telling another core " +
			"or rank to read it nor DMA reading it back — such as an epoch word each core advances in step: whichever " +
			"copy a core reads holds that value; and a word of named memory (a member or global) that carries state to the next " +
			"launch — every scalar read of it in the file is taken into a member or global the stored value is computed from, as a magic counter or a ping-pong " +
			"buffer id read at Init and advanced after the work, and no DMA reads it — whatever barrier follows: nothing in " +
			"this launch reads it after the store, and the next launch starts after the kernel-end write-back; a build " +
			"that turns that write-back off gets the finding, saying so; so does `--cce-no-dcache-flush`, which ends the kernel with a " +
			"DCI instead of the default DCCI). A kernel ascendc.cmake's `ascendc_library` compiles (a call in a build file of its folder, " +
			"or one anywhere naming its path) is built with `-cce-aicore-dcci-insert-for-scalar=false` on both chips, and on A5 " +
			"(dav-c310) has no kernel-end write-back at all: the wrapper that build generates runs the kernel, then " +
			"`pipe_barrier(PIPE_ALL); dsb(DSB_ALL); dci();`, and the `dci` drops the lines the kernel left dirty, so a store that " +
			"reaches the kernel's end with no `dcci(..., CACHELINE_OUT)` of its own is lost (the message says so). It counts as A5 when the configured `arch` says so, a SOC_VERSION " +
			"the build files set as plain text names an Ascend 950 (`Ascend910B1` says A2/A3), the unit's `#if` guards name dav-c310 alone, " +
			"or, where none of these names a chip (SOC_VERSION from the environment), a README beside the build or the kernel lists an " +
			"Ascend 950 product, as a sample's table of supported products does; the source that decided is in the message, the " +
			"hover on the kernel and `--statistics` (\"units no end write-back\"). A write-back in a branch the unit's chip " +
			"compiles out (`#if !defined(__DAV_C310__)` in a unit whose build pins an Ascend 950) does not count; the message names it. " +
			"SIMT vector functions (`__simt_vf__`) " +
			"store through the vector unit's SIMT path, not the scalar cache, and host functions a device file holds " +
			"(no `__aicore__` or macro that may stand for it) do not run on the core: neither is reported, nor is a store in " +
			"the arguments of a macro whose every definition the unit compiles expands without them (never evaluated). " +
			"A function's callers include the unit's object-like macros whose body is statements, at their uses " +
			"(`#define INIT_AND_PROCESS op.Init(x); op.Process()` in the kernel, then `INIT_AND_PROCESS;`).",
		Why: "Scalar stores go through the core's scalar data cache, which is write-back and not coherent with DMA or " +
			"other cores: the value sits in this core's cache line until it is evicted. Other cores, a DataCopy (MTE2) " +
			"of the buffer and the next task read the old bytes from GM, and when the line is finally written back it " +
			"replaces the whole cache line, so a neighbour that wrote other bytes of the same line (another core's " +
			"slot, a DMA result) loses its write. Nothing writes the line out at the end of your task. `dcci(ptr, " +
			"SINGLE_CACHE_LINE, CACHELINE_OUT)` writes the line out and `dsb(DSB_DDR)` waits until it reached GM. " +
			"A barrier after the write-back is not counted as that wait: `DataCacheCleanAndInvalid` is the bare `dcci`, " +
			"and the hardware `SyncAll` (asc-devkit's A2/A3 and 950 `SyncAllImpl`) starts with `PipeBarrier<PIPE_ALL>` " +
			"and then sets and waits FFTS flags, with no `dsb`; the software `SyncAll(gm, ub, n)` likewise starts with " +
			"`PipeBarrier<PIPE_ALL>` and exchanges its counters by DMA. Whether `PIPE_ALL` waits for an issued write-back " +
			"to reach GM is not documented (the guide, §5, calls that barrier an implementation detail, not a GM memory-model " +
			"guarantee), although the toolkit's own super-kernel barrier writes a word, writes its line out and enters the " +
			"barrier without a `dsb`. The end of the kernel depends on the build: the compiler's default ends it with a DCCI " +
			"(asc-devkit's guide for Ascend 950, \"设置DCI编译选项来减少算子尾开销\"), `--cce-no-dcache-flush` with a DCI that writes " +
			"nothing back, and asc-devkit's `ascendc_library` build for dav-c310 wraps the kernel in a function ending with " +
			"`dsb(DSB_ALL); dci();` (cmake/asc/legacy_modules/util/extract_host_stub.py) — a runtime's samples fixed the zeros " +
			"that left on A5 with an explicit `dcci(..., ENTIRE_DATA_CACHE, CACHELINE_OUT)`.",
		Example:    "flags[blk] = 1;                      // __gm__ int32_t *flags",
		UseInstead: "flags[blk] = 1;\ndcci(&flags[blk], SINGLE_CACHE_LINE, CACHELINE_OUT);\ndsb(DSB_DDR);",
		FixSafety: "Unsafe: inserts `dcci(<address>, SINGLE_CACHE_LINE, CACHELINE_OUT);` and `dsb(DSB_DDR);` after the " +
			"statement (`ENTIRE_DATA_CACHE` when the address uses a name local to that statement, e.g. a loop index). " +
			"It makes the store visible but costs a write-back per execution; a run of stores to one buffer is better " +
			"flushed once after the loop, or written with a DataCopy from UB.",
		Guide: "§4, §5 (dcci/dsb), facts: Scalar reads from GM",
	},
	Run: runGMScalarWrite,
})

func runGMScalarWrite(pass *analysis.Pass) {
	gm := pass.Closure().GM()
	accs := gm.Accesses()
	if len(accs) == 0 {
		return
	}
	funcs := pass.Closure().FuncIndex()
	sites := allBarrierSites(pass)
	isBarrier := func(f *grammar.File, c cxx.Call) bool { _, ok := sites[c.Node]; return ok }
	barriers := newCallScan(pass.File, funcs, "hardware-barrier", isBarrier)
	dsbs := newCallScan(pass.File, funcs, "dsb-ddr", isDsbDDR)
	seen := map[string]bool{}
	byFlush := map[flushKey]*flushGroup{}
	var flushOrder []flushKey
	callersMemo := &callersFlushMemo{byKey: map[nameCores]bool{}, exits: newBlockReturns()}
	coherent, endWriteBack, drops := pass.Models().Coherent(), pass.Models().EndWriteBack(), pass.Models().EndDrops()
	var vm *unit.VarianceModel
	var states launchStates
	var readers rootReaders
	var polls pollReaders
	for i := range accs {
		if pass.Stopped() {
			return
		}
		a := &accs[i]
		if a.Kind == cxx.Read || a.Func() == nil || a.Func().Kind() != "function_definition" || notScalarCode(pass.File, a.Func()) {
			continue
		}
		cores := pass.Cores(a.Node)
		if cores == grammar.None {
			continue
		}
		scope := a.Node
		if a.Stmt() != nil {
			scope = a.Stmt()
		}
		key := fmt.Sprintf("%d/%s", scope.Index(), a.Root())
		if seen[key] {
			continue
		}
		// The window the write-back must happen in: up to the next barrier.
		limit := a.Func().End
		barrierCall := barriers.next(a.Func(), cores, a.Node.End)
		for barrierCall != nil && otherBranch(callersMemo.exits.chains, a.Node, barrierCall) {
			// On the other side of an if around the store: another run.
			barrierCall = barriers.next(a.Func(), cores, barrierCall.End)
		}
		if barrierCall != nil {
			limit = barrierCall.Start
		}
		flush := gm.FlushedBefore(*a, limit)
		var chipDropped *grammar.Node
		if flush != nil && !pass.Compiles(pass.File, flush.Call) {
			// Another chip's branch: this unit's build compiles it out.
			chipDropped, flush = flush.Call, nil
		}
		// The unit's summaries see write-backs the syntax does not: through
		// derived pointers, in helpers, whole-cache and two-argument forms.
		sum := pass.Reach().Summaries()
		if sum.DeadForEveryCall(a.Func(), a.Node) {
			// Every call passes null for the pointer guarding the store.
			continue
		}
		index := sum.Index(a.Func())
		o := sum.OriginOf(a.Ptr())
		// Nor does a write-back there (`if (rank == 0) { *t = v; } else {
		// dcci(t + k, ...); }`).
		var flushCall *grammar.Node
		if flush != nil && otherBranch(callersMemo.exits.chains, a.Node, flush.Call) {
			flush = nil
		} else if flush != nil {
			flushCall = flush.Call
		}
		wb := index.NextCovering(cxx.WriteBack, o, cores, a.Node.End, limit, flushCall)
		for wb >= 0 && otherBranch(callersMemo.exits.chains, a.Node, index.Effect(wb).At) {
			wb = index.NextCovering(cxx.WriteBack, o, cores, index.Effect(wb).At.End, limit, nil)
		}
		var after *afterWriteBack
		if wb >= 0 {
			if at := index.Effect(wb).At; flush == nil || flush.Call != at {
				flush = &cxx.Dcci{Call: at, Func: a.Func()}
			}
			next, dsb := index.AfterWriteBack(wb, o, cores)
			// What follows a `return` closing the write-back's path
			// (`if (own) { *slot = v; dcci(slot, ...); return; }
			// notify(peer);`) is on another path.
			exit := callersMemo.exits.exitAfter(a.Func(), index.Effect(wb).At)
			if stop := index.NextStop(wb, cores); stop < index.Len() && index.Effect(stop).At.Start >= exit {
				// A flag stored before the return still follows.
				dsb = false
				if next >= 0 && index.Effect(next).At.Start >= exit {
					next = -1
				}
			}
			if dsb {
				continue
			}
			after = &afterWriteBack{}
			// Signals that cannot hand this store to a reader are passed
			// over: the first one that can, or a dsb, decides.
			for next >= 0 && cannotPublish(sum, pass.Reach().FuncIndex(), index, next, o) {
				after.passed = append(after.passed, index.Effect(next))
				stop := index.NextStop(next, cores)
				next = -1
				if stop < index.Len() && index.Effect(stop).At.Start < exit {
					if index.Effect(stop).Kind == cxx.Dsb {
						dsb = true
					} else {
						next = stop
					}
				}
			}
			if dsb {
				continue
			}
			if next >= 0 && index.Effect(next).Kind == cxx.ScalarWrite && endWriteBack && oneBlock(pass, a, &vm) {
				// One block runs this code: no core of the launch can
				// poll the flag, and the kernel's end writes both lines
				// back before the host or a later kernel reads them.
				next = -1
			}
			if next >= 0 && index.Effect(next).Kind != cxx.ScalarWrite && polls.polledAfter(pass, gm, sum, callersMemo, o, a.Func(), index.Effect(next).At.End) {
				// Every reader the signal can hand the word to polls it
				// until it changes: the write-back landing late only
				// delays them.
				continue
			}
			if next >= 0 {
				e := index.Effect(next)
				after.next = &e
				after.what = "tells another core to read"
				if after.next.Kind == cxx.ScalarWrite {
					after.what = "stores a flag another core may poll"
				}
			} else if r := dmaReadAfter(pass, sum, a.Func(), o, index.Effect(wb).At.End, min(limit, exit)); r != nil && !apartView(sum, r, a, o) {
				// This core's own DMA reads the memory back before any
				// dsb: it can load the bytes the write-back has not
				// landed yet.
				after.next = &cxx.Effect{At: r, Site: r}
				after.what = "reads it back by DMA"
			} else if h := callerHandOff(pass, gm, sum, callersMemo, a, barrierCall, cores, o, &readers); h != nil {
				// The write-back ends the function unwaited, and a caller
				// signals after the call, then reads the memory.
				after.next, after.what = &h.signal, h.what
			} else {
				after.apart = r
			}
		} else if flush != nil && dsbs.within(a.Func(), cores, flush.Call.End, limit) {
			continue
		}
		if flush != nil && after != nil && after.next == nil && after.apart == nil && barrierCall == nil && callersDrain(pass, callersMemo, sum, barriers, a.Func(), cores) {
			// The write-back ends its function, and every caller waits
			// for it with a dsb before anything after the call can hand
			// the line on (`for (...) { Publish(r); } dsb(DSB_DDR);`).
			continue
		}
		if flush != nil && (after == nil || after.next == nil && after.apart == nil) && barrierCall == nil && drops != "" && unit.IsKernelFunc(pass.File, a.Func()) {
			// The write-back ends the kernel, and the A5 `ascendc_library`
			// wrapper runs `dsb(DSB_ALL)` after the kernel's body: the
			// dsb it lacks follows before anything can read the line.
			continue
		}
		var later *readBack
		if flush == nil && coherent && !dmaTouches(pass, sum, a.Func(), o, cores) {
			// The compiler's scalar dcci insertion does not write the
			// line out before this core's own DMA reads it back later,
			// in another function (`Init` stores, `Process` copies in).
			later = readBackLater(pass, sum, callersMemo, a, o, cores)
		}
		atEnd := flush == nil && later == nil && barrierCall == nil && (endWriteBack || drops != "") && (unit.IsKernelFunc(pass.File, a.Func()) ||
			callersMemo.quietAfter(sum, pass.Reach().FuncIndex(), index, a.Func(), a.Node, cores, o) && callersMemo.quietToEnd(pass.Reach().FuncIndex(), pass.Reach().Macros().ByName, sum, a.Func(), cores, o))
		if atEnd && endWriteBack && !coherent && !dmaTouches(pass, sum, a.Func(), o, cores) {
			// The kernel-end write-back comes too late for this core's
			// own DMA reading the line back later in the kernel.
			later = readBackLater(pass, sum, callersMemo, a, o, cores)
			atEnd = later == nil
		}
		if atEnd && endWriteBack {
			// The kernel's own end: a build keeping the compiler's
			// dcci-before-kernel-end writes the line back as it ends,
			// before the host or the next kernel reads it. A helper's
			// store counts when nothing after it, there and in every
			// caller up to the kernel, tells another core to read.
			continue
		}
		if flush == nil && (coherent && (!dmaTouches(pass, sum, a.Func(), o, cores) && later == nil || ownScalarTable(pass, a, cores, &vm)) || callersFlush(pass.Reach().FuncIndex(), a, cores, callersMemo) || sum.CallersWriteBack(a.Func(), o, true)) {
			// A build keeping scalar coherence writes the store back
			// itself, but not around DMA: a buffer DMA also writes or
			// reads (another block's rows next to this one's scalar tail)
			// keeps the dirty line, whose later write-back drops what the
			// DMA wrote; an operator library's history fixed such a store,
			// in a default build, with a dcci before its inter-block
			// IBSet. A write-back the author wrote still needs its dsb.
			continue
		}
		if flush == nil && endWriteBack && callersMemo.quietAfter(sum, pass.Reach().FuncIndex(), index, a.Func(), a.Node, cores, o) && uniformStore(pass, sum, a, cores, &vm, callersMemo) {
			// Every core stores the same word with the same value (an
			// epoch each core advances in step) and tells no other core
			// or rank to read it: whichever copy a core reads, its own or
			// one written back, holds that value, and the kernel's end
			// writes it back for the next launch.
			continue
		}
		if flush == nil && callersMemo.library(pass.Reach().FuncIndex(), pass.File, a.Func()) {
			// An API function no code of the unit calls, next to the
			// API's own write-back function: its callers carry the
			// obligation (they call the flush, or are judged there).
			continue
		}
		state := states.of(pass, gm, sum, a, o)
		if state != nil && endWriteBack {
			// The word carries state to the next launch and nothing in
			// this one reads it after the store: the kernel-end
			// write-back lands it before the next launch starts.
			continue
		}
		seen[key] = true
		// Where the write-back or its dsb may hide: a project call after
		// the store, before the signal (or the barrier, or the end).
		to, before := limit, (*grammar.Node)(nil)
		if after != nil && after.next != nil {
			to, before = after.next.At.Start, after.next.At
		}
		var unseenAt cxx.Hop
		var api *grammar.Node
		if n := unseenCall(pass, pass.Reach().FuncIndex(), pass.File, a.Func(), cores, a.Node.End, to, before); n != nil {
			unseenAt = cxx.Hop{File: pass.File, Call: n}
		} else if barrierCall == nil && (after == nil || after.next == nil) {
			// The store reaches its function's end: the callers' code
			// after the call follows it.
			unseenAt = callersMemo.callersUnseen(pass, a.Func(), cores, sites)
			if unseenAt.Call == nil && flush == nil && later == nil && pass.Models().NoKernel() &&
				callersMemo.quietAfter(sum, pass.Reach().FuncIndex(), index, a.Func(), a.Node, cores, o) {
				// A library's function in code with no kernel: its
				// callers, none of them in the files found, decide.
				api = callersMemo.apiTop(pass.Reach().FuncIndex(), sum, pass.File, a.Func(), cores, o, 0)
			}
		}
		unseen := unseenAt.Call
		sev := analysis.Severity(0)
		if flush != nil && (after == nil || after.next == nil) || unseen != nil || api != nil {
			sev = analysis.SeverityInfo
		}
		var gk flushKey
		if flush != nil {
			// One cause, one finding: the write-back missing its dsb is
			// reported once, where it is, with the stores it covers.
			gk = flushKey{flush.Call, sev}
			if g := byFlush[gk]; g != nil {
				g.stores = append(g.stores, analysis.Related{File: pass.File.Path, Start: a.Node.Start, End: a.Node.End, Message: "`" + storeText(a) + "` is written out here without a `dsb` after it"})
				continue
			}
		}
		var barrier []cxx.Hop
		if barrierCall != nil {
			barrier = barriers.chain(barrierCall, cores)
		}
		d := gmWriteDiagnostic(pass, gm, a, flush, barrier)
		if k := strings.Index(d.Message, " stays in this core's data cache"); atEnd && drops != "" && k >= 0 {
			// Not a late write-back but none: the end drops the line.
			d.Message = d.Message[:k] + " is lost when the kernel ends: nothing writes it out with `dcci(..., CACHELINE_OUT)` before then, " +
				"and the kernel's end drops the dirty line (" + drops + "), so the host and the next kernel read the old bytes"
		}
		if chipDropped != nil {
			d.Message += fmt.Sprintf("; `%s`%s is in a branch this unit's build compiles out: it targets %s, by %s",
				shortText(chipDropped), lineRef(pass, cxx.Hop{File: pass.File, Call: chipDropped}), chipTitle(pass.Target().Arch), targetSource(pass, pass.Target()))
		}
		if later != nil {
			why := "the compiler's scalar `dcci` insertion does not write the line out before a DMA read"
			if !coherent {
				why = "the kernel-end write-back comes after that read"
			}
			d.Message += fmt.Sprintf("; `%s`%s in `%s` reads it back by this core's own DMA with no write-back between, and %s",
				shortText(later.call), lineRef(pass, cxx.Hop{File: pass.File, Call: later.call}), cxx.FunctionName(later.fn), why)
			d.Related = append(d.Related, analysis.Related{File: pass.File.Path, Start: later.call.Start, End: later.call.End, Message: "this core's DMA reads the stored buffer here"})
		}
		if flush == nil && sum.CallersWriteBack(a.Func(), o, false) {
			// The callers write the line out after the call (a ring
			// entry filled by a helper, flushed by the poster) and
			// leave out only the dsb: what is missing is theirs.
			d.Severity = analysis.SeverityInfo
			d.Message += "; every caller writes it out after the call, but no `dsb(DSB_DDR)` follows there, so this is a robustness note"
		}
		if flush != nil {
			if after == nil || after.next == nil {
				// Nothing signals another core after the write-back: the
				// line reaches GM without a dsb before anyone is told to
				// read it.
				d.Severity = analysis.SeverityInfo
				if after != nil && after.apart != nil {
					c, _ := cxx.AsCall(after.apart)
					d.Message += fmt.Sprintf("; `%s`%s reads the same buffer by DMA through another view, `%s`, whose offset from `%s` the analysis cannot tell, "+
						"and nothing else signals another core or stores a flag after it, so this is a robustness note",
						shortText(after.apart), lineRef(pass, cxx.Hop{File: pass.File, Call: after.apart}), cxx.Root(c.Args[1]), a.Root())
				} else if after != nil && len(after.passed) > 0 {
					p := after.passed[0]
					d.Message += "; `" + shortText(p.Site) + "`" + effectLine(pass, p) + " " + passedWhy(p) +
						", and nothing after it signals another core or stores a flag before the end, so this is a robustness note"
				} else {
					d.Message += " (nothing signals another core or stores a flag after it, so this is a robustness note)"
				}
			} else {
				d.Message += "; `" + shortText(after.next.Site) + "`" + effectLine(pass, *after.next) + " " + after.what + " before any `dsb`"
				d.Related = append(d.Related, relatedAtEffect(pass, *after.next))
			}
		}
		if state != nil && d.Severity != analysis.SeverityInfo {
			d.Message += fmt.Sprintf("; the word carries state to the next launch (taken in by `%s`%s), and this build turns the compiler's kernel-end write-back off, so only the author's write-back and `dsb` land it before that launch reads it",
				gmOneLine(state.Node.Text()), lineRef(pass, cxx.Hop{File: pass.File, Call: state.Node}))
		}
		if unseen != nil && unseen.Kind() == "preproc_include" && d.Severity != analysis.SeverityInfo {
			sayLessCallers(pass, &d, a.Func(), unseenAt)
		} else if unseen != nil && d.Severity != analysis.SeverityInfo {
			unless := "writes it back with a `dsb`"
			if flush != nil {
				unless = "waits for it with a `dsb`"
			}
			sayLess(pass, &d, unseenAt, unless)
		} else if m := unseenMacroAround(pass, a.Node); m != nil && d.Severity != analysis.SeverityInfo {
			sayLess(pass, &d, cxx.Hop{File: pass.File, Call: m}, "expands without evaluating its arguments")
		} else if api != nil && d.Severity != analysis.SeverityInfo {
			sayLessAPI(&d, api)
		}
		if flush != nil {
			d.Start, d.End = flush.Call.Start, flush.Call.End
			byFlush[gk] = &flushGroup{d: d}
			flushOrder = append(flushOrder, gk)
			continue
		}
		pass.Report(d)
	}
	for _, k := range flushOrder {
		g := byFlush[k]
		if n := len(g.stores); n > 0 {
			g.d.Message += fmt.Sprintf(" (it writes out %d more scalar store%s of this function without the `dsb`, listed as related)", n, plural1(n))
			g.d.Related = append(g.d.Related, g.stores...)
		}
		pass.Report(g.d)
	}
}

// otherBranch reports whether x, after n, sits in the else of an if
// whose then holds n, outside any loop: no run reaches both.
func otherBranch(chains elseIfTops, n, x *grammar.Node) bool {
	for c, p := n, n.Parent(); p != nil; c, p = p, p.Parent() {
		if p.Start > x.Start || p.End < x.End {
			if x.Start >= p.End && p.Kind() == "if_statement" {
				// The rest of p's else-if chain ends where p does,
				// before x: none of it holds x.
				c = chains.top(p)
				p = c
			}
			continue
		}
		// The kind first: a function body's children are as many as its
		// statements.
		if p.Kind() != "if_statement" || c.Field() != "consequence" {
			return false
		}
		if alt := p.ChildByField("alternative"); alt == nil || alt.Start > x.Start {
			return false
		}
		for ; p != nil && p.Kind() != "function_definition"; p = p.Parent() {
			if isLoop(p) {
				return false
			}
			if p.Kind() == "if_statement" {
				// Only ifs and else clauses up to the chain's first if.
				p = chains.top(p)
			}
		}
		return true
	}
	return false
}

// dmaTouches reports whether this core's DMA writes or reads memory o in
// fn, the function that stores to it by scalar (rows copied out, the
// unaligned tail stored): another block's rows land next to it.
func dmaTouches(pass *analysis.Pass, sum *cxx.Summaries, fn *grammar.Node, o cxx.Origin, cores grammar.Cores) bool {
	if !o.Known() {
		return false
	}
	found := false
	sum.Index(fn).EachIn(o, cores, fn.Start, fn.End, func(int) bool {
		found = true
		return false
	}, cxx.DMAWrite)
	return found || dmaReadAfter(pass, sum, fn, o, fn.Start, fn.End) != nil
}

// apartView reports whether DMA read n of the stored buffer goes through
// another view of it than store a (`flags = ws + k * n`, `rows = ws + blk
// * m`), not both carved at one constant offset: the analysis cannot tell
// whether the read reaches the stored word.
func apartView(sum *cxx.Summaries, n *grammar.Node, a *cxx.Access, o cxx.Origin) bool {
	c, _ := cxx.AsCall(n)
	r, _ := sum.DMARead(n)
	return cxx.Root(c.Args[1]) != a.Root() && !(o.Off != 0 && !o.OffUnknown && r == o)
}

// uniformStore reports whether every core runs the store with the same
// address and value: `=` of a value and through a pointer no core's
// identity reaches (unit.PerCore, nor an unknown call), not under a test
// or after a return that differs between cores, in its function and at
// every call up to the kernel, and no DMA of this core reads the memory
// back after it in the function.
func uniformStore(pass *analysis.Pass, sum *cxx.Summaries, a *cxx.Access, cores grammar.Cores, vm **unit.VarianceModel, memo *callersFlushMemo) bool {
	return sameOnEveryCore(pass, a, cores, vm) && (unit.IsKernelFunc(pass.File, a.Func()) || memo.callersUniform(pass.Reach().FuncIndex(), *vm, a.Func(), cores)) &&
		dmaReadAfter(pass, sum, a.Func(), sum.OriginOf(a.Ptr()), a.Node.End, a.Func().End) == nil
}

// sameOnEveryCore reports whether every core running the store's function
// makes it with the same address and value: `=` of a value through a
// pointer no core's identity reaches, not under a test or after a return
// in the function that differs between cores.
func sameOnEveryCore(pass *analysis.Pass, a *cxx.Access, cores grammar.Cores, vm **unit.VarianceModel) bool {
	value, addr := storeValue(a)
	fn := a.Func()
	if value == nil || fn.Tree() != pass.File.Tree {
		return false
	}
	if *vm == nil {
		*vm = pass.Closure().Variance(pass.Spend)
	}
	m := *vm
	return !slices.ContainsFunc(addr, func(n *grammar.Node) bool { return m.Expr(n, cores)&differs != 0 }) &&
		m.Expr(value, cores)&differs == 0 && uniformControl(m, pass.File, fn, a.Node, cores)
}

// oneBlock reports whether a single block of the launch runs the store
// (unit.VarianceModel.OneBlock).
func oneBlock(pass *analysis.Pass, a *cxx.Access, vm **unit.VarianceModel) bool {
	if *vm == nil {
		*vm = pass.Closure().Variance(pass.Spend)
	}
	return (*vm).OneBlock(a.Node)
}

// storeValue returns the value a plain store (`=` or SetValue) writes
// and the expressions its address is computed from; nil for any other.
func storeValue(a *cxx.Access) (value *grammar.Node, addr []*grammar.Node) {
	addr = []*grammar.Node{a.Node}
	if p := a.Node.Parent(); p != nil && p.Kind() == "assignment_expression" && p.ChildByField("left") == a.Node {
		if op := p.ChildByField("operator"); op != nil && op.Text() == "=" {
			value = p.ChildByField("right")
		}
	} else if c, ok := cxx.AsCall(a.Node); ok && c.Name == "SetValue" && len(c.Args) == 2 {
		// The tensor and the index: the call itself is no value.
		value, addr = c.Args[1], []*grammar.Node{c.Receiver, c.Args[0]}
	}
	return value, addr
}

// handOff is a caller's signal after a call whose store reaches the
// caller unwaited, and what it says.
type handOff struct {
	signal cxx.Effect
	what   string
}

// callerHandOff finds a caller in the file that, after calling the
// store's function, runs a cross-core signal or barrier before any dsb
// and then reads the stored memory (by the name of a member or global,
// not in a loop polling it),
// itself or in a function it calls there: `ComputeBlockPrefixSums(); SyncAll(); CombineResults();`
// with the sums read back in CombineResults. nil when none does.
func callerHandOff(pass *analysis.Pass, gm *cxx.GM, sum *cxx.Summaries, m *callersFlushMemo, a *cxx.Access, barrier *grammar.Node, cores grammar.Cores, o cxx.Origin, rr *rootReaders) *handOff {
	if barrier != nil || o.Kind == cxx.ParamOrigin || cxx.IsExternC(a.Func()) || unit.IsKernelFunc(pass.File, a.Func()) || local(a.Root(), a) {
		return nil
	}
	funcs := pass.Reach().FuncIndex()
	m.index(funcs)
	all := funcs.All()
	for _, site := range m.byName[cxx.FunctionName(a.Func())] {
		def := all[site.def]
		if def.Node == a.Func() || def.File != pass.File {
			continue
		}
		call := funcs.Calls(def.Node)[site.i]
		idx := sum.Index(def.Node)
		stop := idx.StopFrom(call.End, cores)
		if stop >= idx.Len() || idx.Effect(stop).Kind == cxx.Dsb || cannotPublish(sum, funcs, idx, stop, o) {
			continue
		}
		e := idx.Effect(stop)
		if r := rr.after(gm, funcs, def.Node, e.At.End, a.Root()); r != nil {
			line, _ := pass.File.Lines.Position(r.Node.Start)
			return &handOff{signal: e, what: fmt.Sprintf("in `%s` after the call to `%s` tells another core to read (`%s`, line %d, reads it)",
				cxx.FunctionName(def.Node), cxx.FunctionName(a.Func()), shortText(r.Node), line+1)}
		}
	}
	return nil
}

// rootReaders finds the reads of a name after a point of a function:
// there, or in a function of the file it calls after that point.
type rootReaders struct {
	// byRoot lists, by name, the reads in the file's model.
	byRoot map[string][]*cxx.Access
}

func (rr *rootReaders) after(gm *cxx.GM, funcs *cxx.Funcs, fn *grammar.Node, from uint32, root string) *cxx.Access {
	if rr.byRoot == nil {
		rr.byRoot = map[string][]*cxx.Access{}
		accs := gm.Accesses()
		for i := range accs {
			if r := &accs[i]; r.Kind != cxx.Write && r.Func() != nil && !polled(gm, r) && !local(r.Root(), r) {
				rr.byRoot[r.Root()] = append(rr.byRoot[r.Root()], r)
			}
		}
	}
	reads := rr.byRoot[root]
	if len(reads) == 0 {
		return nil
	}
	in := map[*grammar.Node]*cxx.Access{}
	for _, r := range reads {
		if in[r.Func()] == nil {
			in[r.Func()] = r
		}
	}
	for _, r := range reads {
		if r.Func() == fn && r.Node.Start >= from {
			return r
		}
	}
	for _, n := range funcs.Calls(fn) {
		if n.Start < from {
			continue
		}
		c, ok := cxx.AsCall(n)
		if !ok {
			continue
		}
		for _, d := range funcs.Callees(c) {
			if r := in[d.Node]; r != nil && d.Node != fn && cxx.Takes(d.Node, len(c.Args)) {
				return r
			}
		}
	}
	return nil
}

// polled reports whether a read sits in a loop that invalidates its line
// before it on every pass: the loop polls the word until it changes, so
// a write-back landing late only delays it.
func polled(gm *cxx.GM, r *cxx.Access) bool {
	d := gm.CoherentBefore(*r)
	if d == nil {
		return false
	}
	for p := r.Node.Parent(); p != nil && p != r.Func(); p = p.Parent() {
		if isLoop(p) && p.Contains(d.Call) {
			return true
		}
	}
	return false
}

// launchStates answers, for a file's stores, where this launch takes in
// a word that carries state from launch to launch (a magic counter, a
// ping-pong buffer id): every scalar read of the word's memory in the
// file is taken into a name the stored value is computed from
// (`magic_ = magicGm_.GetValue(0)` ... `magicGm_.SetValue(0, magic_ +
// 1)`), or is in the store itself, and no DMA reads it. The store then
// has no reader in this launch: the read came first on the storing core,
// and another core reading the word in this launch races with the store
// whatever write-back follows it. Its reader is the next launch, which
// starts after this kernel ended. The file's reads and DMA reads are
// grouped once, and each memory's answer kept, so a file of many stores
// costs its accesses once.
type launchStates struct {
	byRoot map[string][]*cxx.Access
	byBuf  map[cxx.Origin][]readAt
	dma    map[cxx.Origin][]cxx.Origin
	memo   map[stateKey]stateFeed
}

type readAt struct {
	r *cxx.Access
	o cxx.Origin
}

type stateKey struct {
	root string
	o    cxx.Origin
}

// stateFeed is a memory's reads: the names they are taken into (nil
// and bad when one is not taken into a name, or the memory is read by
// DMA), and the first of them.
type stateFeed struct {
	names map[string]bool
	first *cxx.Access
	bad   bool
}

// of returns the read that takes the stored word into this launch when a
// is such a store, else nil.
func (ls *launchStates) of(pass *analysis.Pass, gm *cxx.GM, sum *cxx.Summaries, a *cxx.Access, o cxx.Origin) *cxx.Access {
	// Named memory (a member, a global) is read by its name in the file;
	// a parameter's is another function's to name.
	value, _ := storeValue(a)
	if value == nil || o.Kind != cxx.NamedOrigin {
		return nil
	}
	if ls.memo == nil {
		ls.memo, ls.byRoot, ls.byBuf, ls.dma = map[stateKey]stateFeed{}, map[string][]*cxx.Access{}, map[cxx.Origin][]readAt{}, map[cxx.Origin][]cxx.Origin{}
		accs := gm.Accesses()
		for i := range accs {
			if r := &accs[i]; r.Kind != cxx.Write {
				ls.byRoot[r.Root()] = append(ls.byRoot[r.Root()], r)
				if ro := sum.OriginOf(r.Ptr()); ro.Known() {
					ls.byBuf[ro.Buffer()] = append(ls.byBuf[ro.Buffer()], readAt{r, ro})
				}
			}
		}
		for _, n := range pass.File.Tree.OfKind("call_expression") {
			if r, ok := sum.DMARead(n); ok && r.Known() && pass.Cores(n) != grammar.None {
				ls.dma[r.Buffer()] = append(ls.dma[r.Buffer()], r)
			}
		}
	}
	k := stateKey{a.Root(), o}
	feed, ok := ls.memo[k]
	if !ok {
		feed = stateFeed{names: map[string]bool{}}
		add := func(r *cxx.Access) {
			if feed.bad || a.Stmt() != nil && r.Stmt() == a.Stmt() {
				return
			}
			name := assignedName(r)
			if name == "" || len(feed.names) == 8 && !feed.names[name] || r.Func() != a.Func() && local(name, r) {
				feed.bad = true
				return
			}
			feed.names[name] = true
			if feed.first == nil || r.Node.Start < feed.first.Node.Start {
				feed.first = r
			}
		}
		for _, r := range ls.byRoot[a.Root()] {
			add(r)
		}
		for _, x := range ls.byBuf[o.Buffer()] {
			if x.r.Root() != a.Root() && x.o.SameRegion(o) {
				add(x.r)
			}
		}
		for _, d := range ls.dma[o.Buffer()] {
			feed.bad = feed.bad || d.SameRegion(o)
		}
		ls.memo[k] = feed
	}
	if feed.bad || feed.first == nil {
		return nil
	}
	// The value is computed from every name a read is taken into.
	uses := map[string]bool{}
	value.Walk(func(n *grammar.Node) bool {
		if k := n.Kind(); k == "identifier" || k == "field_identifier" {
			uses[n.Text()] = true
		}
		return true
	})
	for name := range feed.names {
		if !uses[name] {
			return nil
		}
	}
	return feed.first
}

// local reports whether name is declared in the function of r (a local or
// a parameter), not a member or global another function shares.
func local(name string, r *cxx.Access) bool {
	d, _ := cxx.LocalDecl(name, r.Node, r.Func())
	return d != nil || slices.ContainsFunc(cxx.Params(r.Func()), func(p cxx.Param) bool { return p.Name == name })
}

// assignedName is the name a read's value is stored in: the variable its
// declaration initialises or the name an assignment sets (`x = read;`,
// `this->x_ = read;`), "" for any other use.
func assignedName(r *cxx.Access) string {
	n := r.Node
	for p := n.Parent(); p != nil; n, p = p, p.Parent() {
		switch p.Kind() {
		case "parenthesized_expression", "cast_expression":
			continue
		case "init_declarator":
			if n.Field() == "value" {
				return cxx.DeclaredName(p)
			}
		case "assignment_expression":
			if n.Field() == "right" {
				if l := p.ChildByField("left"); l != nil && l.Kind() == "field_expression" {
					return l.ChildByField("field").Text()
				} else if l != nil && l.Kind() == "identifier" {
					return l.Text()
				}
			}
		}
		return ""
	}
	return ""
}

// ownScalarTable reports whether a store every core running its function
// makes alike (sameOnEveryCore; the callers do not matter: the readers are
// in the same run of the function) goes through a local GlobalTensor or pointer whose
// only readers are scalar loads of the same cores after it: its own
// GetValue or `t(i)`, or a helper's, handed the variable, that only loads
// through its parameter. Each core then reads the line it stored itself,
// in its own cache: no DMA and no other core reads what the store left
// there (another name's DMA into the same workspace is that name's).
func ownScalarTable(pass *analysis.Pass, a *cxx.Access, cores grammar.Cores, vm **unit.VarianceModel) bool {
	fn := a.Func()
	decl, scope := cxx.LocalDecl(a.Root(), a.Node, fn)
	if decl == nil || fn.Tree() != pass.File.Tree || !sameOnEveryCore(pass, a, cores, vm) {
		return false
	}
	funcs := pass.Reach().FuncIndex()
	for _, id := range scope.Inside(pass.File.Tree.OfKind("identifier")) {
		if id.Text() != a.Root() || decl.Contains(id) {
			continue
		}
		switch c, ok := cxx.AsCall(id.Parent().Parent()); {
		case ok && c.Receiver == id && (c.Name == "SetGlobalBuffer" || c.Name == "SetValue"):
			// Its setup, and stores (each judged on its own).
			continue
		case id.Start < a.Node.End || pass.Cores(id)&^cores != 0:
			// A load before the store, or on a core that does not store.
			return false
		case !scalarLoadsOnly(funcs, pass.File, id, 0):
			return false
		}
	}
	return true
}

// scalarLoadsOnly reports whether the use id of a GlobalTensor or pointer
// only loads by scalar: `t.GetValue(i)`, `t(i)`, or an argument of calls
// whose every definition in the unit does only that with the parameter (a
// few levels down).
func scalarLoadsOnly(funcs *cxx.Funcs, f *grammar.File, id *grammar.Node, depth int) bool {
	p := id.Parent()
	if c, ok := cxx.AsCall(p.Parent()); ok && c.Receiver == id && c.Name == "GetValue" {
		return true
	}
	if p.Kind() == "call_expression" && p.ChildByField("function") == id {
		// `t(i)` loads unless it is stored to.
		q := p.Parent()
		return q == nil || q.Kind() != "update_expression" && (q.Kind() != "assignment_expression" || q.ChildByField("left") != p)
	}
	c, ok := cxx.AsCall(p.Parent())
	if !ok || p.Kind() != "argument_list" || depth > 3 {
		return false
	}
	k := slices.Index(c.Args, id)
	defs := funcs.Callees(c)
	if k < 0 {
		return false
	}
	called := 0
	for _, d := range defs {
		params := cxx.Params(d.Node)
		required := 0
		for _, p := range params {
			if p.Node.Kind() == "parameter_declaration" {
				required++
			}
		}
		if len(c.Args) < required || len(c.Args) > len(params) {
			// Another specialization of the class: not this call's.
			continue
		}
		called++
		body := d.Node.ChildByField("body")
		if params[k].Name == "" || body == nil {
			return false
		}
		for _, use := range body.Inside(d.File.Tree.OfKind("identifier")) {
			if use.Text() == params[k].Name && !scalarLoadsOnly(funcs, d.File, use, depth+1) {
				return false
			}
		}
	}
	return called > 0
}

// differs is every reason a value can differ between cores, an unknown
// call's result included.
const differs = unit.PerCore | unit.VarOpaque

// uniformControl reports whether every core that runs fn reaches n: no
// test around n in fn, nor one around a return before it, differs
// between cores.
func uniformControl(m *unit.VarianceModel, f *grammar.File, fn, n *grammar.Node, cores grammar.Cores) bool {
	for _, c := range cxx.Conditions(n, fn) {
		if m.Condition(c, cores)&differs != 0 {
			return false
		}
	}
	for _, r := range fn.Inside(f.Tree.OfKind("return_statement")) {
		if r.Start >= n.Start {
			break
		}
		for _, c := range cxx.Conditions(r, fn) {
			if m.Condition(c, cores)&differs != 0 {
				return false
			}
		}
	}
	return true
}

// callersUnseen returns, when every call of fn (one level up) is followed
// in its caller, before the caller's next hardware barrier (sites), by a
// call the analysis cannot see into (unseenCall), the first of them; when
// fn, not a kernel nor an `extern "C"` entry, has no caller in the unit
// while an #include of the unit did not resolve (its callers may be
// behind it), that #include; a zero Hop otherwise.
func (m *callersFlushMemo) callersUnseen(pass *analysis.Pass, fn *grammar.Node, cores grammar.Cores, sites barrierSites) cxx.Hop {
	funcs := pass.Reach().FuncIndex()
	var first cxx.Hop
	called := false
	for def, call := range m.callers(funcs, fn) {
		called = true
		to := def.Node.End
		for _, c := range funcs.OwnCalls(def.Node) {
			if _, ok := sites[c]; ok && c.Start >= call.End {
				to = c.Start
				break
			}
		}
		n := unseenCall(pass, funcs, def.File, def.Node, cores, call.End, to, nil)
		if n == nil {
			return cxx.Hop{}
		}
		if first.Call == nil {
			first = cxx.Hop{File: def.File, Call: n}
		}
	}
	if !called && !unit.IsKernelFunc(pass.File, fn) && !cxx.IsExternC(fn) {
		// An `extern "C"` entry is called from outside the unit (the
		// runtime's task dispatch, the host): no include hides it.
		return unresolvedInclude(pass)
	}
	return first
}

// sayLessAPI demotes a finding on a store that reaches, with nothing
// after it handing it on, the end of api, a function of library code
// (no unit of the file has a kernel) that no code the analysis found
// calls: whether another core reads the store before a write-back is its
// callers' to decide, and they are judged in their own units.
func sayLessAPI(d *analysis.Diagnostic, api *grammar.Node) {
	name := cxx.FunctionName(api)
	d.Severity, d.SaidLess = analysis.SeverityInfo, "`"+name+"`"
	d.Message += fmt.Sprintf("; unless the callers of `%s` write it back or tell no other core to read it: no code the analysis found calls it, "+
		"and no unit of this file has a kernel (library code), so what follows its return is theirs", name)
	for i := range d.Fixes {
		if d.Fixes[i].Applicability == analysis.Safe {
			d.Fixes[i].Applicability = analysis.Unsafe
		}
	}
}

// sayLessCallers demotes a finding on a store that reaches the end of
// fn, a function no file the analysis found calls, while inc did not
// resolve: what fn's callers do after the call decides (a build keeping
// the kernel-end write-back lands a store nothing there hands on).
func sayLessCallers(pass *analysis.Pass, d *analysis.Diagnostic, fn *grammar.Node, inc cxx.Hop) {
	d.Severity = analysis.SeverityInfo
	// The directive's own text, without a comment after it on the line.
	text := shortText(inc.Call)
	if path := inc.Call.ChildByField("path"); path != nil {
		text = "#include " + path.Text()
	}
	d.SaidLess = text
	d.Message += fmt.Sprintf("; unless the callers of `%s` write it back or tell no other core to read it: none is in the files the analysis found, "+
		"and `%s`%s did not resolve (add its folder to `include-dirs`, pass `-I`, or set `build-includes`)", cxx.FunctionName(fn), text, lineRef(pass, inc))
	for i := range d.Fixes {
		if d.Fixes[i].Applicability == analysis.Safe {
			d.Fixes[i].Applicability = analysis.Unsafe
		}
	}
	d.Related = append(d.Related, analysis.RelatedAt(inc.File, inc.Call, "this #include resolved to no file: the callers may be there"))
}

// unresolvedInclude is the unit's first quoted #include that resolved to
// no file (its preprocessor line), a zero Hop when every one did.
func unresolvedInclude(pass *analysis.Pass) cxx.Hop {
	for _, u := range pass.Reach().UnresolvedIncludes() {
		if n := u.File.Tree.NodeAt(u.Include.Start, u.Include.End); n != nil {
			for ; n != nil && n.Kind() != "preproc_include"; n = n.Parent() {
			}
			if n != nil {
				return cxx.Hop{File: u.File, Call: n}
			}
		}
	}
	return cxx.Hop{}
}

// callersUniform reports whether fn has callers and every core reaches
// each call of it, up its callers to a `__global__` kernel.
func (m *callersFlushMemo) callersUniform(funcs *cxx.Funcs, vm *unit.VarianceModel, fn *grammar.Node, cores grammar.Cores) bool {
	return upCallers(m, funcs, fn, struct{}{}, 0, func(def cxx.FuncDef, n *grammar.Node, _ struct{}) (struct{}, bool) {
		return struct{}{}, uniformControl(vm, def.File, def.Node, n, cores)
	})
}

// upCallers reports whether fn has callers and every call of it, up its
// callers to a `__global__` kernel (a few levels), passes ok, which also
// turns v (a fact about fn's call) into the caller's.
func upCallers[T any](m *callersFlushMemo, funcs *cxx.Funcs, fn *grammar.Node, v T, depth int, ok func(def cxx.FuncDef, call *grammar.Node, v T) (T, bool)) bool {
	if depth > 4 {
		return false
	}
	found := false
	for def, call := range m.callers(funcs, fn) {
		found = true
		up, pass := ok(def, call, v)
		if !pass || !unit.IsKernelFunc(def.File, def.Node) && !upCallers(m, funcs, def.Node, up, depth+1, ok) {
			return false
		}
	}
	return found
}

// dmaReadAfter returns the first DMA read of memory o (DataCopy from GM
// into UB) in fn between from and to, nil for none.
func dmaReadAfter(pass *analysis.Pass, sum *cxx.Summaries, fn *grammar.Node, o cxx.Origin, from, to uint32) *grammar.Node {
	if !o.Known() || fn.Tree() != pass.File.Tree {
		return nil
	}
	for _, n := range fn.Inside(pass.File.Tree.OfKind("call_expression")) {
		if n.Start < from || n.Start >= to || pass.Cores(n) == grammar.None {
			continue
		}
		if r, ok := sum.DMARead(n); ok && r.SameRegion(o) {
			return n
		}
	}
	return nil
}

// flushKey groups the stores one write-back covers (per severity, which
// the finding cap counts by).
type flushKey struct {
	at  *grammar.Node
	sev analysis.Severity
}

// flushGroup is the finding of one write-back missing its dsb, and the
// other stores it covers.
type flushGroup struct {
	d      analysis.Diagnostic
	stores []analysis.Related
}

func plural1(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// storeText is a store as written: the assignment around the access.
func storeText(a *cxx.Access) string {
	if p := a.Node.Parent(); p != nil && (p.Kind() == "assignment_expression" || p.Kind() == "update_expression") {
		return shortText(p)
	}
	return shortText(a.Node)
}

// afterWriteBack is what follows a write-back when no dsb does first: the
// signal, barrier or flag store that can let a consumer read too early
// (next nil: nothing).
type afterWriteBack struct {
	next *cxx.Effect
	what string
	// apart is this core's DMA read of the stored buffer through another
	// view, which may not reach the stored word (apartView).
	apart *grammar.Node
	// passed are the signals and waits before next that cannot hand the
	// store to a reader (cannotPublish).
	passed []cxx.Effect
}

// cannotPublish reports whether effect i of the index, which follows a write-back of
// memory o before any dsb, cannot be how a reader of o learns to read it:
// a wait that signals nothing (a flag or signal wait, not a barrier), or a
// pto::comm notify into a rank's comm window (the address is computed from
// the CommContext's window bases) when o is other memory (a helper that
// notifies is not handed o): the notify wakes that rank's waiter, which
// reads what sits in its window, not this task's tensors.
func cannotPublish(sum *cxx.Summaries, funcs *cxx.Funcs, index *cxx.EffectIndex, i int, o cxx.Origin) bool {
	e := index.Effect(i)
	paired := func(k cxx.EffectKind) bool {
		for j := i - 1; j >= 0 && index.Effect(j).At == e.At; j-- {
			if index.Effect(j).Kind == k {
				return true
			}
		}
		for j := i + 1; j < index.Len() && index.Effect(j).At == e.At; j++ {
			if index.Effect(j).Kind == k {
				return true
			}
		}
		return false
	}
	switch e.Kind {
	case cxx.Wait:
		return !paired(cxx.Signal)
	case cxx.Signal:
		c, ok := cxx.AsCall(e.Site)
		if !ok || c.Name != "TNOTIFY" || len(c.Args) == 0 || !sum.PeerWindow(c.Args[0]) {
			return false
		}
		if !o.Known() {
			return false
		}
		if e.At == e.Site {
			return !sum.OriginOf(c.Args[0]).Same(o)
		}
		// A helper notifies: follow o down the calls to it; a helper not
		// handed o (a parameter's memory) cannot notify into it.
		f := sum.FileOf(e.At)
		if f == nil {
			return false
		}
		hops := funcs.CallReaches(f, e.At, e.Cores, "peer-notify", func(_ *grammar.File, c cxx.Call) bool {
			return c.Name == "TNOTIFY" && len(c.Args) > 0 && sum.PeerWindow(c.Args[0])
		}, cxx.MaxCallDepth)
		if len(hops) == 0 {
			return false
		}
		for _, h := range hops[:len(hops)-1] {
			hc, ok := cxx.AsCall(h.Call)
			if !ok {
				return false
			}
			handed := -1
			for k, arg := range hc.Args {
				if sum.OriginOf(arg).SameRegion(o) {
					handed = k
				}
			}
			switch {
			case handed >= 0:
				o = cxx.Origin{Kind: cxx.ParamOrigin, Param: handed}
			case o.Kind == cxx.ParamOrigin:
				return true
			}
		}
		site, ok := cxx.AsCall(hops[len(hops)-1].Call)
		return ok && len(site.Args) > 0 && !sum.OriginOf(site.Args[0]).SameRegion(o)
	}
	return false
}

// passedWhy says why a passed-over effect cannot hand a store to a reader.
func passedWhy(e cxx.Effect) string {
	if e.Kind == cxx.Wait {
		return "only waits"
	}
	return "notifies a rank through its comm window, whose waiter reads that window, not this buffer"
}

func gmWriteDiagnostic(pass *analysis.Pass, gm *cxx.GM, a *cxx.Access, flush *cxx.Dcci, barrier []cxx.Hop) analysis.Diagnostic {
	what := "`__gm__` pointer `" + a.Root() + "`"
	if a.Via == cxx.ViaSetValue || a.Via == cxx.ViaCall {
		what = "GlobalTensor `" + a.Root() + "`"
	}
	before := "before the function returns"
	if barrier != nil {
		before = "before the barrier `" + shortText(barrier[len(barrier)-1].Call) + "`" + lineRef(pass, cxx.Hop{File: pass.File, Call: barrier[0].Call})
	}
	store := storeText(a)
	d := analysis.Diagnostic{Start: a.Node.Start, End: a.Node.End}
	if flush == nil {
		d.Message = "scalar store `" + store + "` through " + what + " stays in this core's data cache: no " +
			"`dcci(..., CACHELINE_OUT)` + `dsb(DSB_DDR)` writes it out " + before + ", so other cores and DMA read " +
			"stale GM and a later write-back of the line can drop a neighbour's bytes"
		if a.Stmt() != nil {
			addr, all := writeBackAddress(gm, a)
			line := "dcci(" + addr + ", SINGLE_CACHE_LINE, CACHELINE_OUT);"
			if all {
				line = "dcci(" + addr + ", ENTIRE_DATA_CACHE, CACHELINE_OUT);"
			}
			d.Fixes = []analysis.Fix{{
				Title:         "Insert `" + line + " dsb(DSB_DDR);` after the statement",
				Applicability: analysis.Unsafe,
				Edits:         []analysis.TextEdit{insertLinesAfterStmt(pass.File, a.Stmt(), line+"\ndsb(DSB_DDR);\n")},
			}}
		}
		return d
	}
	d.Message = "scalar store `" + store + "` through " + what + " is written out by `" + shortText(flush.Call) +
		"` but no `dsb(DSB_DDR)` waits for it to reach GM " + before + ": a consumer can still read the old bytes"
	if st := cxx.BlockStatementOf(flush.Call); st != nil {
		d.Fixes = []analysis.Fix{{
			Title:         "Insert `dsb(DSB_DDR);` after `" + shortText(flush.Call) + "`",
			Applicability: analysis.Unsafe,
			Edits:         []analysis.TextEdit{insertLinesAfterStmt(pass.File, st, "dsb(DSB_DDR);\n")},
		}}
	}
	return d
}

// writeBackAddress is the address to write out after the statement: the
// stored address, or the pointer with ENTIRE_DATA_CACHE when the address
// names something local to the statement (a loop index).
func writeBackAddress(gm *cxx.GM, a *cxx.Access) (string, bool) {
	addr := dcciAddress(gm, a)
	if addr != "" && addr == gmOneLine(a.Addr()) {
		return addr, false
	}
	if addr != "" && strings.HasPrefix(addr, "(__gm__ void *)(") && strings.TrimSuffix(strings.TrimPrefix(addr, "(__gm__ void *)("), ")") == gmOneLine(a.Addr()) {
		return addr, false
	}
	ptr := gmOneLine(cxx.Unparen(a.Ptr()).Text())
	if a.Via == cxx.ViaSetValue || a.Via == cxx.ViaCall {
		ptr += ".GetPhyAddr()"
	}
	return "(__gm__ void *)" + ptr, true
}

// dsbBetween reports whether a `dsb(DSB_DDR)` (or DSB_ALL), directly or in
// a called workspace function, runs in fn between the offsets.
// isDsbDDR matches the dsb that orders a write-back before what follows.
func isDsbDDR(f *grammar.File, c cxx.Call) bool {
	if c.Name != "dsb" && c.Name != "asc_sync_data_barrier" || c.Receiver != nil || len(c.Args) != 1 {
		return false
	}
	t := c.Args[0].Text()
	return strings.Contains(t, "DSB_DDR") || strings.Contains(t, "DSB_ALL")
}

// callScan finds, for a point of a function, the first call the function
// itself makes after it that reaches a match (through its callees): the
// answer for every call is computed once per function and cores, from the
// last call back, instead of a scan of the calls per store.
type callScan struct {
	file  *grammar.File
	funcs *cxx.Funcs
	what  string
	match func(*grammar.File, cxx.Call) bool
	memo  map[callScanKey]*callScanFn
}

type callScanKey struct {
	fn    *grammar.Node
	cores grammar.Cores
}

type callScanFn struct {
	calls []*grammar.Node
	next  []int32 // next[i]: the first j >= i whose call reaches a match; len(calls) if none
}

func newCallScan(f *grammar.File, funcs *cxx.Funcs, what string, match func(*grammar.File, cxx.Call) bool) *callScan {
	return &callScan{file: f, funcs: funcs, what: what, match: match, memo: map[callScanKey]*callScanFn{}}
}

func (cs *callScan) of(fn *grammar.Node, cores grammar.Cores) *callScanFn {
	k := callScanKey{fn, cores}
	if m := cs.memo[k]; m != nil {
		return m
	}
	calls := cs.funcs.OwnCalls(fn)
	m := &callScanFn{calls: calls, next: make([]int32, len(calls)+1)}
	m.next[len(calls)] = int32(len(calls))
	for i := len(calls) - 1; i >= 0; i-- {
		m.next[i] = m.next[i+1]
		if cs.funcs.CallReachesAny(cs.file, calls[i], cores, cs.what, cs.match, cxx.MaxCallDepth) {
			m.next[i] = int32(i)
		}
	}
	cs.memo[k] = m
	return m
}

// next returns the first call of fn starting at or after from that reaches
// a match.
func (cs *callScan) next(fn *grammar.Node, cores grammar.Cores, from uint32) *grammar.Node {
	m := cs.of(fn, cores)
	i := sort.Search(len(m.calls), func(i int) bool { return m.calls[i].Start >= from })
	if j := m.next[i]; int(j) < len(m.calls) {
		return m.calls[j]
	}
	return nil
}

// chain is the chain from call n (of the file) to a match, nil when it
// reaches none. Made again for a finding rather than kept per call: the
// callees' answers are memoized (the same chain), and the chains of every
// call that matches, held while the rule ran, were a third of its own
// memory on a chain of helpers.
func (cs *callScan) chain(n *grammar.Node, cores grammar.Cores) []cxx.Hop {
	return cs.funcs.CallReaches(cs.file, n, cores, cs.what, cs.match, cxx.MaxCallDepth)
}

// within reports whether a call of fn starting in [from, to) reaches a
// match.
func (cs *callScan) within(fn *grammar.Node, cores grammar.Cores, from, to uint32) bool {
	n := cs.next(fn, cores, from)
	return n != nil && n.Start < to
}

// callersFlush reports whether the store goes through a pointer parameter of
// a helper whose callers write the line out after calling it
// (`gm_store(p, v); gm_dcci(p);`): the helper is a building block.
func callersFlush(funcs *cxx.Funcs, a *cxx.Access, cores grammar.Cores, memo *callersFlushMemo) bool {
	isParam := false
	for _, p := range cxx.Params(a.Func()) {
		if p.Name != "" && p.Name == strings.SplitN(strings.SplitN(a.Root(), "->", 2)[0], ".", 2)[0] {
			isParam = true
		}
	}
	if !isParam {
		return false
	}
	name := cxx.FunctionName(a.Func())
	key := nameCores{name, cores}
	if v, ok := memo.byKey[key]; ok {
		return v
	}
	v := memo.uncached(funcs, a.Func(), name, cores)
	memo.byKey[key] = v
	return v
}

// callersFlushMemo holds callersFlush's answers and what they are built
// from, once per run: the calls of the index by callee name, and per
// function and cores which of its calls are followed by a flushing call.
// Without them every helper scanned every call of the index, and every
// call after each of its call sites.
type callersFlushMemo struct {
	byKey  map[nameCores]bool
	byName map[string][]callerSite
	// byMacro: the calls made through the unit's object-like macros.
	byMacro map[string][]macroSite
	flushes map[callScanKey][]bool
	// writesBack: whether a function of the file (by path) writes lines
	// out itself (the API's flush function).
	writesBack map[string]bool
	exits      blockReturns
	// tailCalled: macroTailCalled by function name (every store of an
	// uncalled function asks; the answer scans every macro of the unit).
	tailCalled map[string]bool
	// apiTops: apiTop's settled answers; apiOpen: the walks under way.
	apiTops map[apiTopKey]*grammar.Node
	apiOpen map[apiTopKey]bool
}

// quietAfter reports whether nothing after n in fn (from the start of a
// loop around n: its next iteration), up to a return that ends n's path
// and but for the other side of an if around n, can tell another core to
// read memory o (cannotPublish).
func (m *callersFlushMemo) quietAfter(sum *cxx.Summaries, funcs *cxx.Funcs, index *cxx.EffectIndex, fn, n *grammar.Node, cores grammar.Cores, o cxx.Origin) bool {
	from := n.End
	for p := n.Parent(); p != nil && p != fn; p = p.Parent() {
		switch p.Kind() {
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
			from = p.Start
		}
	}
	quiet := true
	index.EachIn(o, cores, from, m.exits.exitAfter(fn, n), func(i int) bool {
		quiet = cannotPublish(sum, funcs, index, i, o) || unit.ApartInRun(index.Effect(i).At, n, fn) != unit.Together
		return quiet
	}, cxx.Signal, cxx.Wait)
	return quiet
}

// quietToEnd reports whether every call of fn, up its callers to a
// `__global__` kernel, is followed by nothing that can tell another core
// to read memory o (quietAfter): a store fn leaves in the cache is next
// seen after the kernel ends.
func (m *callersFlushMemo) quietToEnd(funcs *cxx.Funcs, macros map[string][]*cxx.Macro, sum *cxx.Summaries, fn *grammar.Node, cores grammar.Cores, o cxx.Origin) bool {
	if m.index(funcs); !slices.ContainsFunc(m.byName[cxx.FunctionName(fn)], func(s callerSite) bool { return funcs.All()[s.def].Node != fn }) &&
		!slices.ContainsFunc(m.byMacro[cxx.FunctionName(fn)], func(s macroSite) bool { return s.def.Node != fn }) {
		name := cxx.FunctionName(fn)
		tail, ok := m.tailCalled[name]
		if !ok {
			tail = macroTailCalled(macros, name)
			if m.tailCalled == nil {
				m.tailCalled = map[string]bool{}
			}
			m.tailCalled[name] = tail
		}
		return tail
	}
	return upCallers(m, funcs, fn, o, 0, func(def cxx.FuncDef, n *grammar.Node, o cxx.Origin) (cxx.Origin, bool) {
		oc := callerOrigin(sum, o, n)
		return oc, m.quietAfter(sum, funcs, sum.Index(def.Node), def.Node, n, cores, oc)
	})
}

// callerOrigin is memory o of a called function in the terms of the
// caller making call: the argument a parameter's memory is.
func callerOrigin(sum *cxx.Summaries, o cxx.Origin, call *grammar.Node) cxx.Origin {
	if o.Kind != cxx.ParamOrigin {
		return o
	}
	if c, ok := cxx.AsCall(call); ok && o.Param < len(c.Args) {
		return sum.OriginOf(c.Args[o.Param])
	}
	return cxx.Origin{}
}

// apiTop returns, for a store to o that reaches the end of fn (in f)
// telling no other core to read it, the function no code of the unit
// calls that the store's run ends in: fn itself, or a caller reached
// with every call up to it followed by nothing that hands o on. nil when
// a path reaches a kernel or an `extern "C"` entry (the kernel's end
// decides: quietToEnd), or hands the store on. A caller reached again
// on its own chain (a recursion, or overloads of one name calling each
// other) adds no top of its own: its other callers decide. An API's layers run deep (a public `put` over a post,
// over a queue check, over a completion poll): each function's settled
// answer is kept, so the walk visits a function once per memory.
func (m *callersFlushMemo) apiTop(funcs *cxx.Funcs, sum *cxx.Summaries, f *grammar.File, fn *grammar.Node, cores grammar.Cores, o cxx.Origin, depth int) *grammar.Node {
	top, _ := m.apiTopWalk(funcs, sum, f, fn, cores, o, depth)
	return top
}

// maxAPIDepth bounds the caller chain apiTop follows: deeper than any
// API's layering measured (shmem's put reaches its completion poll in 5).
const maxAPIDepth = 16

type apiTopKey struct {
	fn    *grammar.Node
	o     cxx.Origin
	cores grammar.Cores
}

// apiTopWalk is apiTop; open reports that the answer skipped a caller
// whose own answer was still open (a recursion), so it holds for this
// walk but is not kept.
func (m *callersFlushMemo) apiTopWalk(funcs *cxx.Funcs, sum *cxx.Summaries, f *grammar.File, fn *grammar.Node, cores grammar.Cores, o cxx.Origin, depth int) (top *grammar.Node, open bool) {
	if depth > maxAPIDepth || cxx.IsExternC(fn) || unit.IsKernelFunc(f, fn) {
		return nil, false
	}
	key := apiTopKey{fn, o, cores}
	if top, ok := m.apiTops[key]; ok {
		return top, false
	}
	if m.apiOpen[key] {
		return nil, true
	}
	if m.apiTops == nil {
		m.apiTops, m.apiOpen = map[apiTopKey]*grammar.Node{}, map[apiTopKey]bool{}
	}
	m.apiOpen[key] = true
	top, open = m.apiTopOf(funcs, sum, fn, cores, o, depth)
	delete(m.apiOpen, key)
	if !open {
		m.apiTops[key] = top
	}
	return top, open
}

func (m *callersFlushMemo) apiTopOf(funcs *cxx.Funcs, sum *cxx.Summaries, fn *grammar.Node, cores grammar.Cores, o cxx.Origin, depth int) (top *grammar.Node, open bool) {
	outside := false
	for def, call := range m.callers(funcs, fn) {
		oc := callerOrigin(sum, o, call)
		if !m.quietAfter(sum, funcs, sum.Index(def.Node), def.Node, call, cores, oc) {
			return nil, false
		}
		t, recursed := m.apiTopWalk(funcs, sum, def.File, def.Node, cores, oc, depth+1)
		if recursed {
			open = true
			continue
		}
		if t == nil {
			return nil, false
		}
		outside = true
		if top == nil {
			top = t
		}
	}
	if !outside {
		// No caller, or only the function's own chain (overloads calling
		// each other by one name): it is the API's entry.
		return fn, open
	}
	return top, open
}

// callersDrain reports whether fn has callers and every call of it is
// followed in its caller, from the start of a loop around the call, first
// by a dsb after the call on the call's path: no signal, wait or hardware
// barrier comes between the call and that dsb, on the cores that run it,
// and no return ends the path before it.
func callersDrain(pass *analysis.Pass, m *callersFlushMemo, sum *cxx.Summaries, barriers *callScan, fn *grammar.Node, cores grammar.Cores) bool {
	found := false
	for def, call := range m.callers(pass.Reach().FuncIndex(), fn) {
		found = true
		from := call.Start
		for p := call.Parent(); p != nil && p != def.Node; p = p.Parent() {
			switch p.Kind() {
			case "for_statement", "while_statement", "do_statement", "for_range_loop":
				from = p.Start
			}
		}
		ci := sum.Index(def.Node)
		st := ci.StopFrom(from, cores)
		if st >= ci.Len() {
			return false
		}
		e := ci.Effect(st)
		// A return closing the call's path (`Fail(s); return;`) leaves
		// the dsb after it to other paths.
		if e.Kind != cxx.Dsb || e.At.Start < call.End || e.At.Start >= m.exits.exitAfter(def.Node, call) {
			return false
		}
		if b := barriers.next(def.Node, cores, from); b != nil && b.Start < e.At.Start {
			return false
		}
	}
	return found
}

// macroTailCalled reports whether the unit calls name only from kernels a
// macro defines, as the last statement of their bodies (`#define K(T)
// __global__ __aicore__ void k_##T(GM_ADDR p) { impl<T>(p); }`: pasted
// names the macro shadows cannot parse): what name stores last is stored
// at a kernel's end.
func macroTailCalled(macros map[string][]*cxx.Macro, name string) bool {
	call := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	found := false
	for _, ms := range macros {
		for _, m := range ms {
			for _, at := range call.FindAllStringIndex(m.Body, -1) {
				if !strings.Contains(m.Body[:at[0]], "__global__") || !tailCall.MatchString(m.Body[at[1]:]) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// tailCall matches what follows a called name ending its body: template
// arguments, the arguments (parentheses two deep), `;` and the `}`.
var tailCall = regexp.MustCompile(`^\s*(<[^<>]*>)?\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*;\s*}`)

// library reports whether fn is a library function of f left to its
// callers: no function of the unit calls it, it is no kernel entry (a
// `__global__` kernel, an extern "C" function), and a function of its
// file writes cache lines out (the runtime API headers' `defer_flush`).
func (m *callersFlushMemo) library(funcs *cxx.Funcs, f *grammar.File, fn *grammar.Node) bool {
	if cxx.IsExternC(fn) || unit.IsKernelFunc(f, fn) {
		return false
	}
	m.index(funcs)
	if !m.uncalled(funcs, fn, 0) {
		return false
	}
	all := funcs.All()
	if m.writesBack == nil {
		m.writesBack = map[string]bool{}
	}
	wb, ok := m.writesBack[f.Path]
	if !ok {
		for _, def := range all {
			if def.File.Path != f.Path {
				continue
			}
			for _, n := range funcs.Calls(def.Node) {
				if c, ok := cxx.AsCall(n); ok && isCacheLineOut(def.File, c) {
					wb = true
				}
			}
		}
		m.writesBack[f.Path] = wb
	}
	return wb
}

// uncalled reports whether only API functions call fn: no function of the
// unit calls it, or every caller is itself such a function (an API entry
// point that calls the API's helpers), to a few calls' depth.
func (m *callersFlushMemo) uncalled(funcs *cxx.Funcs, fn *grammar.Node, depth int) bool {
	if depth > 4 {
		return false
	}
	all := funcs.All()
	for _, site := range m.byName[cxx.FunctionName(fn)] {
		def := all[site.def]
		if def.Node == fn {
			continue
		}
		if cxx.IsExternC(def.Node) || unit.IsKernelFunc(def.File, def.Node) || !m.uncalled(funcs, def.Node, depth+1) {
			return false
		}
	}
	return true
}

// callers yields each call of fn in the unit with the function making
// it, fn's calls of itself aside.
func (m *callersFlushMemo) callers(funcs *cxx.Funcs, fn *grammar.Node) iter.Seq2[cxx.FuncDef, *grammar.Node] {
	return func(yield func(cxx.FuncDef, *grammar.Node) bool) {
		m.index(funcs)
		all := funcs.All()
		name := cxx.FunctionName(fn)
		for _, site := range m.byName[name] {
			if def := all[site.def]; def.Node != fn && !yield(def, funcs.Calls(def.Node)[site.i]) {
				return
			}
		}
		for _, site := range m.byMacro[name] {
			if site.def.Node != fn && !yield(site.def, site.call) {
				return
			}
		}
	}
}

// index builds the calls of the index by callee name, once.
func (m *callersFlushMemo) index(funcs *cxx.Funcs) {
	if m.byName != nil {
		return
	}
	m.byName = map[string][]callerSite{}
	shadowed := map[*grammar.Node]bool{}
	for d, def := range funcs.All() {
		for i, n := range funcs.Calls(def.Node) {
			if c, ok := cxx.AsCall(n); ok {
				m.byName[c.Name] = append(m.byName[c.Name], callerSite{def: int32(d), i: int32(i)})
			}
		}
		// `INIT_AND_PROCESS;`, an object-like macro of the unit whose
		// body is statements (`op.Init(x); op.Process()`), runs its shadow
		// function there: the use is a call of it, and the shadow makes
		// the body's calls.
		body := def.Body()
		if body == nil {
			continue
		}
		for _, st := range body.Inside(def.File.Tree.OfKind("expression_statement")) {
			name := cxx.StatementMacro(st)
			if name == "" || st.NamedChildren()[0].Kind() != "identifier" {
				continue
			}
			for _, sh := range funcs.Lookup(name) {
				if sh.File.MacroOf == nil {
					continue
				}
				if m.byMacro == nil {
					m.byMacro = map[string][]macroSite{}
				}
				m.byMacro[name] = append(m.byMacro[name], macroSite{def, st.NamedChildren()[0]})
				if shadowed[sh.Node] {
					continue
				}
				shadowed[sh.Node] = true
				for _, n := range funcs.Calls(sh.Node) {
					if c, ok := cxx.AsCall(n); ok {
						m.byMacro[c.Name] = append(m.byMacro[c.Name], macroSite{sh, n})
					}
				}
			}
		}
	}
}

type nameCores struct {
	name  string
	cores grammar.Cores
}

// callerSite is a call of the index: its function's position in
// funcs.All() and the call's in funcs.Calls of that function (every call
// of the index has one: positions keep it to a fifth of a copy of the
// function's FuncDef).
type callerSite struct {
	def, i int32
}

// macroSite is a call made where an object-like macro is used: the use
// itself (`INIT_AND_PROCESS;` in the kernel, calling the macro's shadow
// function), or a call of the shadow's body (`op.Process()`), made by the
// shadow.
type macroSite struct {
	def  cxx.FuncDef
	call *grammar.Node
}

// isCacheLineOut matches a dcci that writes lines out.
func isCacheLineOut(f *grammar.File, c cxx.Call) bool {
	switch c.Name {
	case "asc_dcci_single", "asc_dcci_entire_out", "asc_dcci_entire_all":
		// The C API's: two-argument and CACHELINE_OUT/ALL dccis.
		return c.Receiver == nil
	case "dcci", "DataCacheCleanAndInvalid":
		for _, x := range append(append([]*grammar.Node(nil), c.Args...), c.TArgs...) {
			if strings.Contains(x.Text(), "CACHELINE_OUT") || strings.Contains(x.Text(), "CACHELINE_ALL") {
				return true
			}
		}
	}
	return false
}

// flushedFrom reports, for each call of def, whether it or a later call
// reaches a write-back.
func (m *callersFlushMemo) flushedFrom(funcs *cxx.Funcs, def cxx.FuncDef, cores grammar.Cores) []bool {
	k := callScanKey{def.Node, cores}
	if v, ok := m.flushes[k]; ok {
		return v
	}
	calls := funcs.Calls(def.Node)
	v := make([]bool, len(calls)+1)
	for i := len(calls) - 1; i >= 0; i-- {
		v[i] = v[i+1] || funcs.CallReachesAny(def.File, calls[i], cores, "dcci-out", isCacheLineOut, cxx.MaxCallDepth)
	}
	if m.flushes == nil {
		m.flushes = map[callScanKey][]bool{}
	}
	m.flushes[k] = v
	return v
}

func (m *callersFlushMemo) uncached(funcs *cxx.Funcs, helper *grammar.Node, name string, cores grammar.Cores) bool {
	m.index(funcs)
	found := false
	// Every function of the index that calls the helper must flush after
	// the call.
	all := funcs.All()
	for _, site := range m.byName[name] {
		def := all[site.def]
		if def.Node == helper {
			continue
		}
		calls := funcs.Calls(def.Node)
		n := calls[site.i]
		j := sort.Search(len(calls), func(j int) bool { return calls[j].Start >= n.End })
		if !m.flushedFrom(funcs, def, cores)[j] {
			return false
		}
		found = true
	}
	return found
}

// insertLinesAfterStmt inserts lines after a statement with its
// indentation: on the next line when the statement ends its line (a
// trailing comment stays with it), else right after it.
func insertLinesAfterStmt(f *grammar.File, stmt *grammar.Node, lines string) analysis.TextEdit {
	src := f.Src
	// The tail is read only up to its first non-blank byte, and the
	// indent only for a statement that ends its line: with many stores
	// on one long line, reading the line per store is quadratic.
	if rest, ok := blankOrCommentTail(src, stmt.End); ok && rest > stmt.End && src[rest-1] == '\n' {
		indent, _ := cxx.LineIndent(src, stmt.Start)
		return analysis.TextEdit{Start: rest, End: rest, NewText: indentLines(indent, lines)}
	}
	return analysis.TextEdit{Start: stmt.End, End: stmt.End, NewText: " " + strings.ReplaceAll(strings.TrimSuffix(lines, "\n"), "\n", " ")}
}
