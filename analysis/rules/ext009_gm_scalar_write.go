package rules

import (
	"fmt"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// GMScalarWrite flags scalar stores to GM that are never written back out
// of the core's data cache.
var GMScalarWrite = register(&analysis.Analyzer{
	Code:     "EXT009",
	Name:     "gm-scalar-write",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a scalar store through a `__gm__` pointer stays in the core's data cache until `dcci(..., CACHELINE_OUT)` + `dsb(DSB_DDR)`",
		What: "Flags scalar stores through a `__gm__` pointer (`p[i] = v`, `*p = v`, `p->f = v`, `p[i] += v`, `++*p`, " +
			"`GlobalTensor::SetValue`) in an extern when the same function does not, after the store and before the next " +
			"hardware barrier, write the line out with `dcci(ptr, ..., CACHELINE_OUT)` (or `DataCacheCleanAndInvalid<..., " +
			"CACHELINE_OUT>`, `ENTIRE_DATA_CACHE`, or a helper whose body does it, such as a loop over cache lines) and " +
			"then `dsb(DSB_DDR)` (directly or in a helper). A store through a helper's pointer parameter is silent when a " +
			"caller writes the line out after the call.",
		Why: "Scalar stores go through the core's scalar data cache, which is write-back and not coherent with DMA or " +
			"other cores: the value sits in this core's cache line until it is evicted. Other cores, a DataCopy (MTE2) " +
			"of the buffer and the next task read the old bytes from GM, and when the line is finally written back it " +
			"replaces the whole cache line, so a neighbour that wrote other bytes of the same line (another core's " +
			"slot, a DMA result) loses its write. Nothing writes the line out at the end of your task. `dcci(ptr, " +
			"SINGLE_CACHE_LINE, CACHELINE_OUT)` writes the line out and `dsb(DSB_DDR)` waits until it reached GM.",
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
	gm := fileGM(pass)
	accs := gm.Accesses()
	if len(accs) == 0 {
		return
	}
	funcs := workspaceFuncs(pass)
	sites := allBarrierSites(pass)
	isBarrier := func(f *grammar.File, c cxx.Call) bool { _, ok := sites[c.Node]; return ok }
	seen := map[string]bool{}
	callersMemo := map[string]bool{}
	for i := range accs {
		a := &accs[i]
		if a.Kind == cxx.Read || a.Func == nil || a.Func.Kind != "function_definition" {
			continue
		}
		cores := pass.Cores(a.Node)
		if cores == grammar.None {
			continue
		}
		scope := a.Node
		if a.Stmt != nil {
			scope = a.Stmt
		}
		key := fmt.Sprintf("%d/%s", scope.Index(), a.Root)
		if seen[key] {
			continue
		}
		// The window the write-back must happen in: up to the next barrier.
		limit := a.Func.End
		var barrier []cxx.Hop
		for _, n := range funcs.Calls(a.Func) {
			if n.Start < a.Node.End || cxx.EnclosingFunction(n) != a.Func {
				continue
			}
			if chain := funcs.CallReaches(pass.File, n, cores, "hardware-barrier", isBarrier, cxx.MaxCallDepth); chain != nil {
				limit, barrier = n.Start, chain
				break
			}
		}
		flush := gm.FlushedAfter(*a, func(d cxx.Dcci) bool {
			return d.Call.Start < limit && (d.HasArg("CACHELINE_OUT") || d.HasArg("CACHELINE_ALL"))
		})
		dsbAfter := a.Node.End
		if flush != nil {
			dsbAfter = flush.Call.End
		}
		dsb := dsbBetween(pass, funcs, a.Func, dsbAfter, limit, cores)
		if flush != nil && dsb {
			continue
		}
		if flush == nil && callersFlush(unitFuncs(pass), a, cores, callersMemo) {
			continue
		}
		seen[key] = true
		pass.Report(gmWriteDiagnostic(pass, gm, a, flush, barrier))
	}
}

func gmWriteDiagnostic(pass *analysis.Pass, gm *cxx.GM, a *cxx.Access, flush *cxx.Dcci, barrier []cxx.Hop) analysis.Diagnostic {
	what := "`__gm__` pointer `" + a.Root + "`"
	if a.Via == "SetValue" || a.Via == "call" {
		what = "GlobalTensor `" + a.Root + "`"
	}
	before := "before the function returns"
	if barrier != nil {
		before = "before the barrier `" + shortText(barrier[len(barrier)-1].Call) + "`" + lineRef(pass, cxx.Hop{File: pass.File, Call: barrier[0].Call})
	}
	store := shortText(a.Node)
	if p := a.Node.Parent(); p != nil && (p.Kind == "assignment_expression" || p.Kind == "update_expression") {
		store = shortText(p)
	}
	d := analysis.Diagnostic{Start: a.Node.Start, End: a.Node.End}
	if flush == nil {
		d.Message = "scalar store `" + store + "` through " + what + " stays in this core's data cache: no " +
			"`dcci(..., CACHELINE_OUT)` + `dsb(DSB_DDR)` writes it out " + before + ", so other cores and DMA read " +
			"stale GM and a later write-back of the line can drop a neighbour's bytes"
		if a.Stmt != nil {
			addr, all := writeBackAddress(gm, a)
			line := "dcci(" + addr + ", SINGLE_CACHE_LINE, CACHELINE_OUT);"
			if all {
				line = "dcci(" + addr + ", ENTIRE_DATA_CACHE, CACHELINE_OUT);"
			}
			d.Fixes = []analysis.Fix{{
				Title:         "Insert `" + line + " dsb(DSB_DDR);` after the statement",
				Applicability: analysis.Unsafe,
				Edits:         []analysis.TextEdit{insertLinesAfterStmt(pass.File, a.Stmt, line+"\ndsb(DSB_DDR);\n")},
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
	if addr != "" && addr == gmOneLine(a.Addr) {
		return addr, false
	}
	if addr != "" && strings.HasPrefix(addr, "(__gm__ void *)(") && strings.TrimSuffix(strings.TrimPrefix(addr, "(__gm__ void *)("), ")") == gmOneLine(a.Addr) {
		return addr, false
	}
	ptr := gmOneLine(cxx.Unparen(a.Ptr).Text())
	if a.Via == "SetValue" || a.Via == "call" {
		ptr += ".GetPhyAddr()"
	}
	return "(__gm__ void *)" + ptr, true
}

// dsbBetween reports whether a `dsb(DSB_DDR)` (or DSB_ALL), directly or in
// a called workspace function, runs in fn between the offsets.
func dsbBetween(pass *analysis.Pass, funcs *cxx.Funcs, fn *grammar.Node, from, to uint32, cores grammar.Cores) bool {
	isDsb := func(f *grammar.File, c cxx.Call) bool {
		if c.Name != "dsb" || c.Receiver != nil || len(c.Args) != 1 {
			return false
		}
		t := c.Args[0].Text()
		return strings.Contains(t, "DSB_DDR") || strings.Contains(t, "DSB_ALL")
	}
	for _, n := range funcs.Calls(fn) {
		if n.Start < from || n.Start >= to || cxx.EnclosingFunction(n) != fn {
			continue
		}
		if funcs.CallReaches(pass.File, n, cores, "dsb-ddr", isDsb, cxx.MaxCallDepth) != nil {
			return true
		}
	}
	return false
}

// callersFlush reports whether the store goes through a pointer parameter of
// a helper whose callers write the line out after calling it
// (`gm_store(p, v); gm_dcci(p);`): the helper is a building block.
func callersFlush(funcs *cxx.Funcs, a *cxx.Access, cores grammar.Cores, memo map[string]bool) bool {
	isParam := false
	for _, p := range cxx.Params(a.Func) {
		if p.Name != "" && p.Name == strings.SplitN(strings.SplitN(a.Root, "->", 2)[0], ".", 2)[0] {
			isParam = true
		}
	}
	if !isParam {
		return false
	}
	name := cxx.FunctionName(a.Func)
	key := fmt.Sprintf("%s/%d", name, cores)
	if v, ok := memo[key]; ok {
		return v
	}
	v := callersFlushUncached(funcs, a.Func, name, cores)
	memo[key] = v
	return v
}

func callersFlushUncached(funcs *cxx.Funcs, helper *grammar.Node, name string, cores grammar.Cores) bool {
	isFlush := func(f *grammar.File, c cxx.Call) bool {
		switch c.Name {
		case "dcci", "DataCacheCleanAndInvalid":
			for _, x := range append(append([]*grammar.Node(nil), c.Args...), c.TArgs...) {
				if strings.Contains(x.Text(), "CACHELINE_OUT") || strings.Contains(x.Text(), "CACHELINE_ALL") {
					return true
				}
			}
		}
		return false
	}
	found := false
	// Every function of the index that calls the helper must flush after
	// the call.
	for _, def := range funcs.All() {
		if def.Node == helper {
			continue
		}
		for _, n := range funcs.Calls(def.Node) {
			c, ok := cxx.AsCall(n)
			if !ok || c.Name != name {
				continue
			}
			flushed := false
			for _, m := range funcs.Calls(def.Node) {
				if m.Start < n.End {
					continue
				}
				if funcs.CallReaches(def.File, m, cores, "dcci-out", isFlush, cxx.MaxCallDepth) != nil {
					flushed = true
					break
				}
			}
			if !flushed {
				return false
			}
			found = true
		}
	}
	return found
}

// insertLinesAfterStmt inserts lines after a statement with its
// indentation: on the next line when the statement ends its line (a
// trailing comment stays with it), else right after it.
func insertLinesAfterStmt(f *grammar.File, stmt *grammar.Node, lines string) analysis.TextEdit {
	src := f.Src
	indent, _ := cxx.LineIndent(src, stmt.Start)
	rest := cxx.LineEnd(src, stmt.End)
	if onlyCommentOrSpace(string(src[stmt.End:rest])) && rest > stmt.End && src[rest-1] == '\n' {
		var b strings.Builder
		for _, l := range strings.SplitAfter(lines, "\n") {
			if l != "" {
				b.WriteString(indent + l)
			}
		}
		return analysis.TextEdit{Start: rest, End: rest, NewText: b.String()}
	}
	return analysis.TextEdit{Start: stmt.End, End: stmt.End, NewText: " " + strings.ReplaceAll(strings.TrimSuffix(lines, "\n"), "\n", " ")}
}
