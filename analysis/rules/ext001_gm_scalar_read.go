package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// GMScalarRead flags scalar loads through __gm__ pointers and
// GlobalTensor::GetValue, which go through the non-coherent scalar cache.
var GMScalarRead = register(&analysis.Analyzer{
	Code:     "EXT001",
	Name:     "gm-scalar-read",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseCache,
	Shares:   analysis.SharesGM,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a scalar read through a `__gm__` pointer can return a stale cache line; stage it through UB or `dcci` it first",
		What: "Flags scalar loads through a `__gm__` pointer — `p[i]`, `*p`, `*(p + i)`, `p->field` on a data struct, " +
			"`GM_ADDR` — and `GlobalTensor<T>::GetValue(i)` / `gt(i)`, in device code of an extern. One finding per " +
			"statement and pointer, except the house-rule reads of task inputs (below), which are one finding per " +
			"function and pointer with the other reads as related locations and one fix for them all (editors show " +
			"them as hints unless the `houseRules` setting asks for infos). The severity says how sure the analysis is: a `warning` when the read comes after a " +
			"cross-core barrier or flag wait (here, in a helper, or in a caller before the call) and something in the " +
			"task writes that memory, or after this core's own DMA write to the same buffer (`DataCopy(g, ...)`, " +
			"`DataCopy(g[i], ...)`), when this core can have cached the line before that write arrived — a load or " +
			"store of that region (`p[i]`, `GetValue`, `SetValue`) before the wait or write, a " +
			"poll of a signal word in it, an access in a loop around it, in a helper or in a caller before the call, " +
			"with no `dcci` of it in between (the message and a related location name the access); a read of the word this core " +
			"stored itself just before (the same lvalue, its statement done, in a block holding the read, with no call but casts and " +
			"no change of the names it uses in between: `e->key = k; ... v = e->key;`) returns that store and is silent — and in a polling " +
			"loop: a loop whose test reads the word, or an `if` in it that leaves the loop on it, or whose test checks a " +
			"local the read is taken into (`do { v = *flag; } while (v != 1);`). A call of a load wrapper (a function " +
			"whose body is `return *p;` of its `__gm__` pointer parameter) is a read at the call. A read another helper returns " +
			"(`return st->epoch;`, through casts) to a caller's polling loop (`while (PeekEpoch(st) != epoch) {}`, moving none of the " +
			"call's arguments and calling no `dcci` in the loop) is reported at the read, naming the loop. The first read of a " +
			"polling loop whose `dcci` comes after it (`while (*sig != v) dcci(sig, ...);`) is a `warning` when the line " +
			"can be cached as the loop starts: this core accessed it before, or the loop ran before (an earlier call of " +
			"its function, or a loop around the call: the read that ended the loop left the line cached). A read of memory this core's own DMA wrote is also a `warning` when nothing between the write and " +
			"the read waits for the MTE3 pipe (`SetFlag`/`WaitFlag<HardEvent::MTE3_S>` or another wait the scalar unit " +
			"makes on an `MTE3_S` event (a `WaitFlag<HardEvent::MTE3_V>` holds the vector pipe only), `PipeBarrier<PIPE_ALL>` or `<PIPE_MTE3>`, `pipe_barrier(PIPE_ALL)`, a hardware `SyncAll`, a helper " +
			"that does one of these or is handed an MTE3 event) and no `dcci` of the line comes after it: the copy runs " +
			"asynchronously and the read can load the bytes from before it, cached or not (its fix inserts a " +
			"`PipeBarrier<PIPE_ALL>()`, plus a `dcci` of the line when this core can have cached it). Neither DMA-write " +
			"warning is given when this core stored the element it reads by scalar after the write, on every path to the " +
			"read: a store to the same address expression (`g(1) = x;` then `g(1)`, `p[i] = v;` then `p[i]`, " +
			"`g.SetValue(i, v)` then `g.GetValue(i)`) in a block holding the read, with no name of the address assigned " +
			"and no label between them; the store stays in this core's cache until a `dcci` writes it out, so the read " +
			"returns it. So is a read of `g(C)` after a loop `for (j = C; j < B; ++j)` in a block holding it that stores " +
			"`g(j)` at the top of its body on every pass, when the write copied `g[C, B)`: `DataCopyPad(g[C], ub, p)` with " +
			"p a const `DataCopyExtParams` of one block, `{1, n * sizeof(T), …}`, or `DataCopy(g[C], ub, n)`, n written " +
			"through const locals as `B - C` (a count below zero is not considered): when the copy wrote anything the " +
			"loop stored that element, and when it wrote nothing there is nothing to race. A store to another element of " +
			"the line, or one a branch or loop may skip, does not count; " +
			"`info` for a read of memory nothing in the task writes before it, or that only such writes reach " +
			"while this core has not cached it: the runtime's task-start invalidation keeps it coherent today (the " +
			"house rule, same fix; the message says which). A warning becomes an `info` saying `unless f() invalidates " +
			"it` when a call of a project function whose definition is in an `#include` that did not resolve sits " +
			"between the cause and the read (or in the polling loop), directly or in a helper called there (a few calls deep), and one saying `unless NAME(...) expands without evaluating " +
			"its arguments` when the read is in the arguments of a macro-like name (capitals) no file of the unit defines. Silent for `args[k]` (the args pointer is a `__gm__ int64_t *` " +
			"parameter named so, the C entry's or a `get_*` accessor's; a helper's other `__gm__ int64_t *` parameter is data), " +
			"tensor descriptor fields (`t->buffer.addr`, `t->start_offset` through `Tensor` / `ChipTensor` pointers or " +
			"their aliases, or a struct of the kernel's own with the descriptor's layout, a `start_offset` beside `addr` or `buffer`), the runtime's context structures behind `get_block_idx(args)` & co. and its " +
			"communication context the host fills (`CommContext`, the HCCL device contexts and resource parameters: `ctx->rankId`, `ctx->windowsIn[peer]`; pto-isa's URMA/SDMA queue descriptors `UrmaInfo`, `BatchWriteChannelInfo`), " +
			"`LocalTensor::GetValue`, stores (EXT009), taking an address (`&p[i]`, `p + i`), memory only this core's " +
			"scalar unit wrote before the read, and reads after a `dcci` of the memory: directly, through a helper " +
			"(transitively, including loops over integer cache-line addresses and `ENTIRE_DATA_CACHE`; the asc C API's " +
			"`asc_dcci_single(p)` and `asc_dcci_entire_out()` are such dccis), or by every " +
			"caller before the call (when only some callers do it, the finding names the others), and code a null " +
			"argument turns off (`f(nullptr)` skips `if (p != nullptr) { ... }` in `f` for that call). A pointer derived " +
			"from another — a cast, `+ offset`, `&p[i]`, an integer address cast back, a GlobalTensor view, a helper " +
			"returning it, `tensor_data(args, k)` — is the same memory; regions carved at named offsets (`sym + ctl->rows_off`: a field, " +
			"member or parameter, as a host layout names them, also held first in a const local, `const uint64_t off = ctl->rows_off;`, or one of " +
			"two a condition picks, `sym + (dense ? ctl->a_off : ctl->b_off)`) are " +
			"told apart, like regions at different constant offsets. A loop that changes a name the read's address is " +
			"computed from (a table search, or an entry pointer declared in the body from the loop's index), or that compares " +
			"the read with a value it changes (its counter: `for (i = 0; i < hdr->n; ++i)`, `while (w + 1 < ctl->workers && " +
			"...) ++w;`; the pass's entry: `if (entries[p] >= hdr->count) return;`) or, as an ordering bound, with a call's " +
			"result (`GetSystemCycle() < *deadline`), is not a polling loop: it does not wait for the word to change. A " +
			"counted burst of polls (`for (k = 0; k < 32; ++k) if (*w == v) return;`) polls in the loop around it: a `dcci` " +
			"there fetches the line anew every burst. A DMA write or wait in a block that returns (`if (...) { copy; return; }`, " +
			"`return Copy(...)`) does not come before what follows it. A DMA write or wait on the other side of an `if` " +
			"testing the same condition as one around the read, whose names the function never assigns (`if (incy == 1) " +
			"DataCopy(y[i], ...); else ...` then `if (incy == 1) ...; else y.GetValue(j)`), is on another run and passed over. Where the build keeps the compiler's scalar `dcci` " +
			"insertion only a read after this core's own DMA write is reported (the compiler does not cover it), and the " +
			"first read of a polling loop that invalidates the word itself (its author keeps that word coherent, not the " +
			"compiler: a history fix in such a build moved the loop's `dcci` before its first read); outside " +
			"the runtime, the task-start invalidation the `info` reads rest on does not exist and they are not reported. " +
			"SIMT vector functions (`__simt_vf__`) read through the vector unit's SIMT path, not the scalar cache, and host " +
			"functions a device file holds (no `__aicore__` or macro that may stand for it) do not run on the core: neither is reported. " +
			"Nor is a read in the arguments of a function-like macro whose every definition the unit compiles expands " +
			"without them (a debug print whose enabling `#define` no file of the unit makes): they are never evaluated.",
		Why: "A raw scalar load from GM goes through the core's scalar data cache, which is not coherent with DMA " +
			"(MTE) writes or other cores' writes within a task: once a line is cached, later reads return it even after " +
			"the memory changed — a garbage index, a wild pointer, a hang (507018). The guide (§4) blames the host's " +
			"input writes; more exactly, the runtime invalidates each core's scalar cache at the start of every task, " +
			"so what goes stale is data written during the task (by DMA, by other cores, or through lines this core " +
			"already cached). That is why `args[k]` and the descriptor fields it points to are fine. DataCopy (MTE2) is " +
			"coherent: stage the values into a `LocalTensor`, wait `MTE2_S`, read with `LocalTensor::GetValue`; or " +
			"`dcci(ptr, SINGLE_CACHE_LINE)` (`ENTIRE_DATA_CACHE` for all) the lines before reading them.",
		Example: "int32_t pos = seq_lens[b];            // __gm__ int32_t *seq_lens",
		UseInstead: "AscendC::DataCopy(seqLensUb, seqLensGm, kBatch);\n" +
			"AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);\n" +
			"AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID3);\n" +
			"int32_t pos = seqLensUb.GetValue(b);   // coherent\n" +
			"// or: dcci(&seq_lens[b], SINGLE_CACHE_LINE); int32_t pos = seq_lens[b];",
		FixSafety: "Unsafe: inserts `dcci(<address read>, SINGLE_CACHE_LINE);` before the statement, which makes the " +
			"read coherent but costs a cache maintenance operation each time it runs and writes back a dirty line. In a " +
			"loop the dcci goes before the outermost loop it can leave: when the address does not change in the loop, " +
			"the same dcci; when it does (an index), one `dcci(<pointer>, ENTIRE_DATA_CACHE);` that invalidates every " +
			"line the loop reads. It stays inside a loop that waits for another core or DMA-writes the memory (the next " +
			"iteration needs its own), and is not offered when the pointer itself changes in the loop the read repeats " +
			"in; the UB staging a display-only sketch shows is the alternative.",
		Guide: "§4",
	},
	Run: runGMScalarRead,
})

func runGMScalarRead(pass *analysis.Pass) {
	gm := pass.Closure().GM()
	type group struct {
		first   *cxx.Access
		verdict readVerdict
		addrs   []string
		reads   []string // the accessed expressions
		cores   grammar.Cores
		count   int
	}
	var order []string
	groups := map[string]*group{}
	accs := gm.Accesses()
	var sum *cxx.Summaries
	var prec *readPrecedence
	// Where the compiler keeps scalar coherence (a build with its
	// defaults), only a read of a line this core's own DMA wrote is left
	// to the author; the task-start invalidation the quiet reads rest on
	// is the runtime's.
	models := pass.Models()
	coherent, runtime := models.Coherent(), models.RuntimeABI()
	for i := range accs {
		if pass.Stopped() {
			return
		}
		a := &accs[i]
		cores := pass.Cores(a.Node)
		if a.Kind != cxx.Read || cores == grammar.None || runtimeContext(pass.File, a) || a.Func() != nil && a.Func().Kind() == "function_definition" && (notScalarCode(pass.File, a.Func()) || gm.LoadWrapper(a.Func())) {
			continue
		}
		if readsOwnStore(pass.File, accs, i) {
			continue
		}
		if sum == nil {
			sum = pass.Reach().Summaries()
			prec = newReadPrecedence(sum, accs)
		}
		v := classifyRead(pass, sum, prec, a, cores)
		if v.Coherent || v.Hazard == "" && gm.CoherentBefore(*a) != nil {
			continue
		}
		if coherent && !v.OwnDMA && !v.OwnLine || !runtime && v.Hazard == "" {
			continue
		}
		scope := a.Node
		if a.Stmt() != nil {
			scope = a.Stmt()
		}
		key := fmt.Sprintf("%d/%s", scope.Index(), a.Root())
		g := groups[key]
		if g == nil {
			g = &group{first: a, verdict: v}
			groups[key] = g
			order = append(order, key)
		} else if g.verdict.Hazard == "" && v.Hazard != "" {
			g.verdict = v
		}
		g.count++
		g.cores |= cores
		if a.Stmt() == nil {
			continue
		}
		g.reads = append(g.reads, a.Node.Text())
		if addr := dcciAddress(gm, a); addr != "" && !slices.Contains(g.addrs, addr) {
			g.addrs = append(g.addrs, addr)
		}
	}
	loops := newLoopIndex()
	// House-rule reads of task inputs are reported once per function and
	// pointer, at the first read, with the others as related locations:
	// a kernel reading a tiling struct field by field is one decision.
	unseenMemo := map[unseenKey]cxx.Hop{}
	var houses []*houseGroup
	houseOf := map[string]*houseGroup{}
	for _, key := range order {
		if pass.Stopped() {
			return
		}
		g := groups[key]
		a := g.first
		what := "`__gm__` pointer `" + a.Root() + "`"
		if a.Via == cxx.ViaGetValue || a.Via == cxx.ViaCall {
			what = "GlobalTensor `" + a.Root() + "`"
		}
		var msg string
		var saidLess *grammar.Node
		var unseen cxx.Hop
		if g.verdict.Hazard != "" {
			if b := g.verdict.Between; b[1] > b[0] {
				// A project call between the cause and the read may
				// invalidate the line.
				var before *grammar.Node
				if !g.verdict.Poll {
					before = a.Node
				}
				unseen = unseenVia(pass, unseenMemo, pass.File, a.Func(), g.cores, b[0], b[1], before)
				saidLess = unseen.Call
			}
		}
		house := g.verdict.Hazard == "" && g.verdict.Uncached == nil && len(g.verdict.Missing) == 0
		var hg *houseGroup
		if house {
			hk := fmt.Sprintf("%d/%s", funcIndex(a.Func()), a.Root())
			if hg = houseOf[hk]; hg == nil {
				hg = &houseGroup{}
				houseOf[hk] = hg
				houses = append(houses, hg)
			}
		}
		d := analysis.Diagnostic{Start: a.Node.Start, End: a.Node.End, Related: g.verdict.Missing}
		if w := g.verdict.Race; w != nil {
			msg = fmt.Sprintf("scalar read `%s` of %s can run before this core's own DMA write `%s`%s to it has landed: "+
				"MTE3 copies asynchronously to the scalar unit and nothing between them waits for it, so the read can "+
				"load the bytes from before the write; wait for MTE3 first (`SetFlag`/`WaitFlag<HardEvent::MTE3_S>` or "+
				"`PipeBarrier<PIPE_ALL>()`)", gmOneLine(a.Node.Text()), what, shortText(w.Site), effectLine(pass, *w))
			if g.verdict.CachedAt != nil {
				msg += ", then `dcci` the line: this core can have cached it before the write (see the related access)"
				d.Related = append(d.Related, *g.verdict.CachedAt)
			}
			d.Related = append([]analysis.Related{*g.verdict.HazardAt}, d.Related...)
		} else if g.verdict.Hazard != "" {
			msg = fmt.Sprintf("scalar read `%s` of %s, %s: the scalar data cache is not coherent with DMA or other "+
				"cores' writes, so it can return a stale line; stage the data through UB (DataCopy + MTE2_S + "+
				"LocalTensor::GetValue) or `dcci` the line first", gmOneLine(a.Node.Text()), what, g.verdict.Hazard)
			if g.verdict.HazardAt != nil {
				d.Related = append([]analysis.Related{*g.verdict.HazardAt}, d.Related...)
			}
			if g.verdict.CachedAt != nil {
				d.Related = append(d.Related, *g.verdict.CachedAt)
			}
		} else if w := g.verdict.Uncached; w != nil {
			// Other cores wrote it before the wait, but no load or store
			// of this core can have cached its lines before they did:
			// the read misses and loads GM.
			d.Severity = analysis.SeverityInfo
			after := fmt.Sprintf("`%s`%s, which waits for other cores' writes to it", shortText(w.Site), effectLine(pass, *w))
			if w.Kind == cxx.DMAWrite {
				after = fmt.Sprintf("this core's own DMA write `%s`%s to it, which bypasses the scalar cache", shortText(w.Site), effectLine(pass, *w))
			}
			msg = fmt.Sprintf("scalar read `%s` of %s follows %s, but "+
				"nothing this core does in this task before that (or in a loop around it) loads or stores `%s`: "+
				"the runtime invalidated the scalar cache at task start, so the line is not cached and the read loads "+
				"GM, coherent today; the house rule is still to stage it through UB (DataCopy + MTE2_S + "+
				"LocalTensor::GetValue) or `dcci` the line first, so a later access before it cannot make it stale",
				gmOneLine(a.Node.Text()), what, after, a.Root())
			d.Related = append([]analysis.Related{relatedAtEffect(pass, *w)}, d.Related...)
		} else {
			// The runtime invalidated the cache at task start and nothing
			// before this read writes the memory: coherent today, but
			// the house rule keeps it robust to a later write or barrier.
			d.Severity = analysis.SeverityInfo
			msg = fmt.Sprintf("scalar read `%s` of %s reads memory nothing in this task writes before it: the runtime "+
				"invalidated the scalar cache at task start, so it is coherent today; the house rule is still to "+
				"stage it through UB (DataCopy + MTE2_S + LocalTensor::GetValue) or `dcci` the line first, so a "+
				"later write, barrier or DMA before it cannot make it stale", gmOneLine(a.Node.Text()), what)
		}
		if g.count > 1 {
			msg += fmt.Sprintf(" (%d reads of `%s` in this statement)", g.count, a.Root())
		}
		if n := len(g.verdict.Missing); n > 0 {
			msg += fmt.Sprintf("; %d of the callers of `%s` do not make `%s` coherent before the call while the others do (see the related locations)",
				n, cxx.FunctionName(a.Func()), a.Root())
		}
		d.Message = msg
		if a.Stmt() != nil && g.verdict.Race != nil {
			d.Fixes = append(d.Fixes, raceFix(pass, a, g.addrs, g.verdict.CachedAt != nil))
		} else if a.Stmt() != nil {
			if len(g.addrs) > 0 && !g.verdict.Poll {
				if fix, ok := dcciFix(pass, sum, loops, a, g.reads, g.addrs, g.cores); ok {
					d.Fixes = append(d.Fixes, fix)
				}
			}
			d.Fixes = append(d.Fixes, analysis.Fix{
				Title:         "Stage `" + a.Root() + "` into UB: DataCopy + SetFlag/WaitFlag<MTE2_S> + LocalTensor::GetValue",
				Applicability: analysis.DisplayOnly,
				Edits:         []analysis.TextEdit{insertLinesBeforeStmt(pass.File, a.Stmt(), stagingSketch(a))},
			})
		}
		if saidLess != nil {
			sayLess(pass, &d, unseen, "invalidates it")
		} else if m := unseenMacroAround(pass, a.Node); m != nil && d.Severity != analysis.SeverityInfo {
			saidLess = m
			sayLess(pass, &d, cxx.Hop{File: pass.File, Call: m}, "expands without evaluating its arguments")
		}
		d.Advisory = g.verdict.Hazard == "" && saidLess == nil
		if hg != nil {
			hg.diags = append(hg.diags, d)
			hg.counts = append(hg.counts, g.count)
			hg.what, hg.fn, hg.root = what, a.Func(), a.Root()
			continue
		}
		pass.Report(d)
	}
	var sups []*analysis.Suppression
	for _, hg := range houses {
		if len(hg.diags) > 1 {
			// A read the user silenced on its line stays its own finding,
			// so its suppression is used and the group is not silenced.
			if sups == nil {
				sups = analysis.ParseSuppressions(pass.File)
			}
			kept, counts := hg.diags[:0:0], hg.counts[:0:0]
			for i, d := range hg.diags {
				if suppressedAt(pass, sups, d.Start) {
					pass.Report(d)
				} else {
					kept, counts = append(kept, d), append(counts, hg.counts[i])
				}
			}
			hg.diags, hg.counts = kept, counts
		}
		if len(hg.diags) > 0 {
			pass.Report(hg.finding(pass))
		}
	}
}

// suppressedAt reports whether a suppression comment covers this rule at
// off (without marking it used: the driver does when it applies it).
func suppressedAt(pass *analysis.Pass, sups []*analysis.Suppression, off uint32) bool {
	line, _ := pass.File.Lines.Position(off)
	for _, s := range sups {
		if line >= s.Line && line <= s.End && s.Matches(pass.Analyzer.Code, pass.Analyzer.Name) {
			return true
		}
	}
	return false
}

// houseGroup is the task-input reads of one pointer in one function.
type houseGroup struct {
	diags  []analysis.Diagnostic // one per statement, in order
	counts []int                 // the reads in each statement
	what   string
	root   string
	fn     *grammar.Node
}

// finding is the group's one finding: the first statement's, naming how
// many reads there are, the others as related locations, and one dcci fix
// with every statement's edits.
func (hg *houseGroup) finding(pass *analysis.Pass) analysis.Diagnostic {
	d := hg.diags[0]
	if len(hg.diags) == 1 {
		return d
	}
	first := gmOneLine(string(pass.File.Src[d.Start:d.End]))
	in := ""
	if name := cxx.FunctionName(hg.fn); name != "" {
		in = " in `" + name + "`"
	}
	d.Message = fmt.Sprintf("%d scalar reads of %s%s (first `%s`) read memory nothing in this task writes before them: "+
		"the runtime invalidated the scalar cache at task start, so they are coherent today; the house rule is "+
		"still to stage it through UB (DataCopy + MTE2_S + LocalTensor::GetValue) or `dcci` the lines first, so a "+
		"later write, barrier or DMA before them cannot make them stale (the other reads are the related locations)",
		sum(hg.counts), hg.what, in, first)
	var dcci *analysis.Fix
	if len(d.Fixes) > 0 && d.Fixes[0].Applicability != analysis.DisplayOnly {
		f := d.Fixes[0]
		dcci = &f
	}
	var titles []string
	var join *insertJoin
	seen := map[string]bool{} // titles' (a scan of them was quadratic in the reads)
	if dcci != nil {
		titles, seen[dcci.Title] = []string{dcci.Title}, true
		join = newInsertJoin(dcci.Edits)
	}
	for _, o := range hg.diags[1:] {
		d.Related = append(d.Related, analysis.Related{File: o.File, Start: o.Start, End: o.End,
			Message: "also reads `" + gmOneLine(string(pass.File.Src[o.Start:o.End])) + "`"})
		if dcci == nil {
			continue
		}
		if len(o.Fixes) == 0 || o.Fixes[0].Applicability == analysis.DisplayOnly {
			dcci = nil // a read no dcci placement covers: no fix for the group
			continue
		}
		for _, e := range o.Fixes[0].Edits {
			join.add(e)
		}
		if t := o.Fixes[0].Title; !seen[t] {
			titles, seen[t] = append(titles, t), true
		}
	}
	if dcci != nil {
		dcci.Edits = join.edits()
	}
	if dcci != nil && len(titles) > 1 {
		dcci.Title = "Make every read of `" + hg.root + "` coherent: " + strings.Join(titles, "; ")
	}
	fixes := []analysis.Fix{}
	if dcci != nil {
		fixes = append(fixes, *dcci)
	}
	for _, f := range d.Fixes {
		if f.Applicability == analysis.DisplayOnly {
			fixes = append(fixes, f)
		}
	}
	d.Fixes = fixes
	return d
}

// insertJoin merges the edits of a group's fixes: an edit already there
// is not repeated, and an insertion at the same place as one there joins
// its text unless the text there already holds it.
type insertJoin struct {
	out []analysis.TextEdit
	at  map[editPlace]*joinedText // the first edit at each place
}

// editPlace is where an edit applies.
type editPlace struct {
	file       string
	start, end uint32
}

func newInsertJoin(edits []analysis.TextEdit) *insertJoin {
	j := &insertJoin{at: map[editPlace]*joinedText{}}
	for _, e := range edits {
		if k := (editPlace{e.File, e.Start, e.End}); j.at[k] == nil {
			j.at[k] = &joinedText{i: len(j.out)}
		}
		j.out = append(j.out, e)
	}
	return j
}

func (j *insertJoin) add(e analysis.TextEdit) {
	k := editPlace{e.File, e.Start, e.End}
	t := j.at[k]
	switch {
	case t == nil:
		j.at[k] = &joinedText{i: len(j.out)}
		j.out = append(j.out, e)
	case e.Start == e.End:
		if !t.started {
			t.started = true
			t.append(j.out[t.i].NewText)
		}
		if !t.contains(e.NewText) {
			t.append(e.NewText)
		}
	}
}

func (j *insertJoin) edits() []analysis.TextEdit {
	for _, t := range j.at {
		if t.started {
			j.out[t.i].NewText = t.text.String()
		}
	}
	return j.out
}

// joinedText is the text joined at one place. Each text joined used to be
// appended to a string and searched for in all of it: quadratic in the
// reads one loop's dcci covers (an 8 MB nest: 50 s). While every text
// joined ends a line, the search looks its lines up instead: the first
// line of an occurrence ends where a joined line does, so it is that line's
// tail, and the lines after it are whole joined lines.
type joinedText struct {
	i       int  // the edit's index in the merged edits
	started bool // text holds the edit's text and what joined it
	text    strings.Builder
	lines   []string                 // nil once a text joined does not end a line
	tails   map[int]map[string][]int // by tail length: the lines with that tail
}

func (t *joinedText) append(s string) {
	at := t.text.Len()
	t.text.WriteString(s)
	if t.lines == nil && at > 0 || !strings.HasSuffix(s, "\n") {
		t.lines, t.tails = nil, nil
		return
	}
	all := t.text.String()
	for s := all[at:]; s != ""; {
		n := strings.IndexByte(s, '\n') + 1
		t.index(s[:n])
		s = s[n:]
	}
}

// index adds a line to the lines and to each tail length's lines.
func (t *joinedText) index(line string) {
	t.lines = append(t.lines, line)
	for n, m := range t.tails {
		t.tail(m, n, len(t.lines)-1)
	}
}

// tail adds line i to the lines with its tail of n bytes.
func (t *joinedText) tail(m map[string][]int, n, i int) {
	if l := t.lines[i]; len(l) >= n {
		m[l[len(l)-n:]] = append(m[l[len(l)-n:]], i)
	}
}

// contains reports whether the joined text holds s.
func (t *joinedText) contains(s string) bool {
	all := t.text.String()
	if t.lines == nil || !strings.HasSuffix(s, "\n") || len(all) < 4096 {
		return strings.Contains(all, s)
	}
	first, rest, _ := strings.Cut(s, "\n")
	first += "\n"
	if t.tails == nil {
		t.tails = map[int]map[string][]int{}
	}
	m := t.tails[len(first)]
	if m == nil {
		m = map[string][]int{}
		for i := range t.lines {
			t.tail(m, len(first), i)
		}
		t.tails[len(first)] = m
	}
	want := strings.SplitAfter(rest, "\n")
	want = want[:len(want)-1] // rest ends a line: the last piece is empty
next:
	for _, i := range m[first] {
		if i+len(want) >= len(t.lines) {
			continue
		}
		for j, l := range want {
			if t.lines[i+1+j] != l {
				continue next
			}
		}
		return true
	}
	return false
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// funcIndex is a function's node index, -1 outside any.
func funcIndex(fn *grammar.Node) int {
	if fn == nil {
		return -1
	}
	return int(fn.Index())
}

// runtimeContexts are the runtime's context structures, written by the
// runtime or the host before the task and never during it: the per-task
// ones behind get_block_idx(args) and co., and the communication context
// (rank id, rank count, the ranks' window bases) the host fills and copies
// to the device when it sets up the comm domain: simpler's CommContext,
// pto-isa's CommDeviceContext and the HCCL device contexts and resource
// parameters (HcclDeviceContext, HcclCombinOpParam, HcclOpResParam, a
// window table such as PtoRemoteWindowContext) that CANN's HCCL or the
// test's host code fills the same way, and pto-isa's URMA and SDMA queue
// descriptors (UrmaInfo, BatchWriteChannelInfo) its host workspace
// managers build and copy to the device.
var runtimeContexts = map[string]bool{
	"GlobalContext": true, "LocalContext": true, "CommContext": true, "CommDeviceContext": true,
	"HcclDeviceContext": true, "HcclCombinOpParam": true, "HcclOpResParam": true, "PtoRemoteWindowContext": true,
	"UrmaInfo": true, "BatchWriteChannelInfo": true,
}

// runtimeContext reports whether a read is of a runtime context structure:
// through a pointer to one, or inside the runtime's get_*(args) accessors.
func runtimeContext(f *grammar.File, a *cxx.Access) bool {
	if a.Var != nil && runtimeContexts[a.Var.Type()] {
		return true
	}
	if a.Func() != nil && a.Func().Kind() == "function_definition" {
		name := cxx.FunctionName(a.Func())
		if _, ok := cxx.ArgsParam(f, a.Func()); ok && strings.HasPrefix(name, "get_") {
			return true
		}
	}
	return false
}

// dcciAddress is the first argument of a dcci that makes the access's line
// coherent, written so it compiles before the statement: the exact address
// when every name in it is visible there, else the pointer itself; "" when
// even that is not. A const pointee gets a cast (dcci takes `__gm__ void *`).
func dcciAddress(gm *cxx.GM, a *cxx.Access) string {
	visible := func(e *grammar.Node) bool {
		ok := true
		ds := e.Descendants()
		for i := range ds {
			n := &ds[i]
			if n.Kind() != "identifier" {
				continue
			}
			if v := gm.Lookup(n.Text(), e); v != nil && v.Decl.Tree() == a.Stmt().Tree() && a.Stmt().Contains(v.Decl) {
				ok = false
			}
		}
		return ok
	}
	addr := a.Addr()
	if !visible(a.Node) {
		if !visible(a.Ptr()) {
			return ""
		}
		addr = cxx.Unparen(a.Ptr()).Text()
		if a.Via == cxx.ViaGetValue || a.Via == cxx.ViaCall {
			addr += ".GetPhyAddr()"
		}
	}
	addr = gmOneLine(addr)
	if a.Var != nil && constPointee(a.Var) {
		addr = "(__gm__ void *)(" + addr + ")"
	}
	return addr
}

// constPointee reports whether a pointer variable was declared pointing to
// const.
func constPointee(v *cxx.Var) bool {
	d := v.Decl
	for d.Parent() != nil && strings.HasSuffix(d.Parent().Kind(), "declarator") {
		d = d.Parent()
	}
	decl := d.Parent()
	if decl == nil {
		return false
	}
	if t := decl.ChildByField("type"); t != nil {
		head := string(t.Tree().Src[decl.Start:t.End])
		return strings.Contains(" "+head+" ", " const ")
	}
	return false
}

// raceFix waits for the DMA before the read: a PIPE_ALL barrier (its
// event ids cannot clash with the kernel's), and a dcci of the line when
// this core can have cached it before the write.
func raceFix(pass *analysis.Pass, a *cxx.Access, addrs []string, cached bool) analysis.Fix {
	barrier := "AscendC::PipeBarrier<PIPE_ALL>();"
	if !usesAscendC(pass) {
		barrier = "pipe_barrier(PIPE_ALL);"
	}
	lines, title := barrier+"\n", "Wait for the DMA write before the read: `"+barrier+"`"
	app := analysis.Safe
	if cached && len(addrs) == 1 {
		lines += "dcci(" + addrs[0] + ", SINGLE_CACHE_LINE);\n"
		title += " and `dcci` the line"
		app = analysis.Unsafe
	}
	return analysis.Fix{Title: title, Applicability: app, Edits: []analysis.TextEdit{insertLinesBeforeStmt(pass.File, a.Stmt(), lines)}}
}

func stagingSketch(a *cxx.Access) string {
	name := strings.TrimSuffix(strings.ReplaceAll(strings.ReplaceAll(a.Root(), "->", "_"), ".", "_"), "_")
	return "// Stage `" + a.Root() + "` into UB (MTE2 is coherent), then read it there:\n" +
		"// AscendC::DataCopy(" + name + "Ub, " + name + "Gm, count);\n" +
		"// AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);\n" +
		"// AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(EVENT_ID0);\n" +
		"// ... " + name + "Ub.GetValue(i) ...\n"
}

// insertLinesBefore inserts lines (each ending in "\n") before a statement,
// indented like it; when the statement does not start its line, the text
// goes right before it on one line.
func insertLinesBeforeStmt(f *grammar.File, stmt *grammar.Node, lines string) analysis.TextEdit {
	indent, alone := cxx.StartsLine(f.Src, stmt.Start)
	if !alone {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(lines, "\n"), "\n") {
			if c, ok := strings.CutPrefix(l, "// "); ok {
				l = "/* " + strings.ReplaceAll(c, "*/", "* /") + " */"
			}
			b.WriteString(l + " ")
		}
		return analysis.TextEdit{Start: stmt.Start, End: stmt.Start, NewText: b.String()}
	}
	start := cxx.LineStart(f.Src, stmt.Start)
	return analysis.TextEdit{Start: start, End: start, NewText: indentLines(indent, lines)}
}

// indentLines puts indent before each line of lines, in a string of the
// exact size: a fix's text is held with its finding to the end of the
// run, and a builder grown by doubling keeps up to as much room again.
func indentLines(indent, lines string) string {
	n := strings.Count(lines, "\n")
	if lines != "" && !strings.HasSuffix(lines, "\n") {
		n++
	}
	var b strings.Builder
	b.Grow(len(lines) + n*len(indent))
	for lines != "" {
		l := lines
		if i := strings.IndexByte(lines, '\n'); i >= 0 {
			l = lines[:i+1]
		}
		b.WriteString(indent)
		b.WriteString(l)
		lines = lines[len(l):]
	}
	return b.String()
}

func gmOneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

// readsOwnStore reports whether read accs[i] reads back the word a store
// of its function wrote just before: the same lvalue (`rec->b = v; ...
// rec->b`), stored earlier in a block that holds the read, with no call
// but casts between them. The store left the line in this core's cache
// with the stored value, and nothing between could write or drop the
// word, so the read returns it whatever DMA did before the store.
func readsOwnStore(f *grammar.File, accs []cxx.Access, i int) bool {
	a := &accs[i]
	fn := a.Func()
	if fn == nil {
		return false
	}
	text := a.Node.Text()
	calls := f.Tree.OfKind("call_expression")
	for j, seen := i-1, 0; j >= 0 && seen < 64; j, seen = j-1, seen+1 {
		w := &accs[j]
		if w.Func() != fn {
			break
		}
		if w.Kind != cxx.Write || w.Node.Text() != text {
			continue
		}
		// The store's statement is done before the read starts (not
		// `p[i] = p[i] + 1`, whose read runs first).
		st := w.Stmt()
		if st == nil || st.End > a.Node.Start {
			return false
		}
		blk := w.Node.Ancestor("compound_statement")
		if blk == nil || !blk.Contains(a.Node) {
			return false
		}
		k := sort.Search(len(calls), func(k int) bool { return calls[k].Start >= st.End })
		for ; k < len(calls) && calls[k].Start < a.Node.Start; k++ {
			if cxx.CastType(calls[k]) == nil && !calls[k].Contains(a.Node) {
				return false
			}
		}
		// Nor may the lvalue's names change between them (`g(k) = v;
		// k = k + 1; g(k)` reads another word).
		return !assignedBetween(f, w.Node, st.End, a.Node.Start)
	}
	return false
}

// assignedBetween reports whether an assignment or increment in [from, to)
// changes a name lvalue mentions.
func assignedBetween(f *grammar.File, lvalue *grammar.Node, from, to uint32) bool {
	names := map[string]bool{}
	lvalue.Walk(func(n *grammar.Node) bool {
		if k := n.Kind(); k == "identifier" || k == "field_identifier" {
			names[n.Text()] = true
		}
		return true
	})
	for _, kind := range []string{"assignment_expression", "update_expression"} {
		xs := f.Tree.OfKind(kind)
		k := sort.Search(len(xs), func(k int) bool { return xs[k].Start >= from })
		for ; k < len(xs) && xs[k].Start < to; k++ {
			target := xs[k].ChildByField("left")
			if kind == "update_expression" {
				target = xs[k].ChildByField("argument")
			}
			// A name changes when it is the target itself (`k = k + 1`,
			// `++k`, `this->k_ = ...`), not when memory through it is
			// written (`e->count = i`).
			target = cxx.Unparen(target)
			if target != nil && target.Kind() == "field_expression" {
				if arg := target.ChildByField("argument"); arg != nil && arg.Text() == "this" {
					target = target.ChildByField("field")
				}
			}
			if target != nil && (target.Kind() == "identifier" || target.Kind() == "field_identifier") && names[target.Text()] {
				return true
			}
		}
	}
	return false
}
