package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// EventUnpaired flags intra-core event sets and waits that do not pair up
// on the paths from an extern entry.
var EventUnpaired = register(&analysis.Analyzer{
	Code:     "EXT015",
	Name:     "event-unpaired",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseHardware,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "an intra-core `SetFlag`/`set_flag` needs its `WaitFlag` before the next set of that event and before the extern returns; a wait needs a set",
		What: "Follows each entry (an extern, or an ordinary `__global__` kernel), on each core it compiles for, through the workspace functions it calls (a " +
			"helper is followed with the state its caller reaches it with), and tracks every event " +
			"`SetFlag<HardEvent::X>(id)` / `WaitFlag<HardEvent::X>(id)` / `set_flag(PIPE_A, PIPE_B, id)` / " +
			"`wait_flag(PIPE_A, PIPE_B, id)` with a constant pipe pair and id (`EVENT_ID0`…`EVENT_ID7`, constants, " +
			"enums, `#define`s), also through the project's macros that take the id or the pipe pair (`#define " +
			"WAIT_EV(evt, id) AscendC::WaitFlag<AscendC::HardEvent::evt>(id)`, or one pasting the pair, " +
			"`AscendC::SetFlag<AscendC::HardEvent::src##_##dst>(ev)`: each use is the set or wait it expands to, read once per " +
			"pipe pair its uses paste), and through macros that forward their arguments (`INTRINSIC(set_flag, PIPE_MTE2, PIPE_V, " +
			"EVENT_ID0)`). It flags a set still pending at a return (or the end of the entry) on every path that " +
			"reaches it, a set of an event whose earlier set is pending on every path to it, and a wait that no set " +
			"precedes on any path. Loops are followed to their fixed point (a ping-pong `EVENT_ID0`/`EVENT_ID1` pair set " +
			"before the loop, waited and set again inside and waited after it pairs up), `break`, `continue`, early " +
			"returns, `switch`, core guards and `if constexpr` count; two ifs of a block on the same plain condition (no call), with " +
			"nothing between them writing a name it reads (nor, for a member or global, calling anything), take the same branch (`if (t & 1) wait(ID1); ... if (t & 1) set(ID1);` " +
			"in a parity ping-pong), so their branches pair up instead of joining. Only what holds on every path reaching a point " +
			"is reported: a wait under `if (i > 0)` that pairs with the previous iteration's set is silent. A counted " +
			"loop (`for (i = 0; i < n; ++i)`, or `i = 0; while (i < n) { ...; ++i; }` where only the body moves `i`) whose bound is a task input or a constant past its start is taken to " +
			"run at least once: a set its last iteration leaves is pending at the return whenever the kernel has " +
			"work (wait for it after the loop, under `if (n > 0)`). An event " +
			"whose id is computed at run time (`AllocEventID`, `i % 2 ? EVENT_ID0 : EVENT_ID1`) makes that pipe pair " +
			"uncertain from there on, and an event some code the entry does not reach also touches (a constructor, an " +
			"unresolved call, a lambda) is not judged.",
		Why: "An intra-core event is a flag per pipe pair and id inside one core: `SetFlag` raises it when the source " +
			"pipe reaches that point, `WaitFlag` stalls the destination pipe until it is raised and consumes it. The " +
			"runtime runs one persistent kernel per core and calls each task as `kernel(args)`; nothing resets the " +
			"event flags between tasks (nor between two kernels launched on a core). A set that is never waited stays raised, and the next task's first wait on " +
			"that event passes at once, before its own producer finished (it reads a buffer still being written). A " +
			"second set before the first is waited leaves the pairing off by one: a later wait passes on the stale " +
			"set, or one wait never passes. A wait with no set before it stalls the pipe until the task is killed " +
			"(507018). Pair every set with exactly one wait of the same event and id, as the staging pattern " +
			"`SetFlag<MTE2_S>(id); WaitFlag<MTE2_S>(id);` does.",
		Example: "AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);\nfor (int i = 0; i < n; ++i) {\n" +
			"  AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);\n  // ... copy in, compute, copy out ...\n" +
			"  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);\n}\n}   // returns with EVENT_ID0 raised",
		UseInstead: "  AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);\n}\n" +
			"AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);   // consume the last set\n}",
		FixSafety: "Unsafe, and offered for a set pending at a return only: inserts the matching `WaitFlag` (or `wait_flag`, " +
			"spelled like the set) on its own line right after the set, in the set's block and preprocessor branch, so the " +
			"destination pipe's next instruction waits for the source pipe (`SetFlag; WaitFlag; DataCopy`). A set inside a " +
			"loop (the half of a ping-pong pair the next iteration waits for) gets the wait before each return instead, " +
			"and no fix when a preprocessor branch holds it. Whether the producer meant another consumer is the author's call.",
		Guide: "§4 (the staging pattern), facts: How an extern is built and run",
	},
	Run: runEventUnpaired,
})

var eventNames = [][]byte{[]byte("SetFlag"), []byte("WaitFlag"), []byte("set_flag"), []byte("wait_flag")}

func runEventUnpaired(pass *analysis.Pass) {
	entries := externEntries(pass)
	// An ordinary `__global__` kernel returns to the next kernel on its
	// core just as an extern returns to the next task.
	for _, fn := range pass.Nodes("function_definition") {
		if unit.IsKernelFunc(pass.File, fn) && !slices.Contains(entries, fn) {
			entries = append(entries, fn)
		}
	}
	if len(entries) == 0 {
		return
	}
	files := pass.Closure().CodeFiles()
	if !mentionsAny(files, eventNames) {
		return
	}
	cores := kindCores(pass)
	var sides map[cxx.EventKey][2]grammar.Cores
	// The closure's function index is workspaceFuncs' (the same code files).
	runtime := pass.Models().RuntimeABI()
	for _, fd := range cxx.UnpairedEvents(pass.Context(), pass.Closure(), files, pass.Closure().FuncIndex(), pass.Consts, entries, cores) {
		if fd.Problem == cxx.EventSetAgain && !runtime {
			// Operator kernels dispatch through objects a macro declares
			// per tiling key (`templateClass<...> op; op.Process();`),
			// whose calls resolve to every class's method of the name:
			// a set pending "on every path" is then a union of classes
			// no launch runs together (ops-transformer's IFA kernel).
			continue
		}
		if fd.Problem == cxx.EventLeaked || fd.Problem == cxx.EventWaitUnset {
			if sides == nil {
				sides = eventSides(pass, files)
			}
			// An intra-core event set under one core's guard and waited
			// only under the other's pairs up only where both guards
			// compile into one core (a chip whose AI core has both
			// units, as pto-isa's kirin tests build): not judged.
			other := sides[fd.Key][0]
			if fd.Problem == cxx.EventLeaked {
				other = sides[fd.Key][1]
			}
			if other != grammar.None && other&fd.Core == grammar.None {
				continue
			}
		}
		pass.Report(eventDiagnostic(pass, fd, cores))
	}
}

// eventSides returns, per event, the cores that compile a set of it and
// those that compile a wait of it, over files.
func eventSides(pass *analysis.Pass, files []*grammar.File) map[cxx.EventKey][2]grammar.Cores {
	out := map[cxx.EventKey][2]grammar.Cores{}
	for _, f := range files {
		for _, n := range f.Tree.OfKind("call_expression") {
			switch cxx.CallName(n) {
			case "SetFlag", "WaitFlag", "set_flag", "wait_flag":
			default:
				continue
			}
			op, ok := cxx.AsEventOp(n, pass.Consts)
			if !ok || op.Pair == "" {
				continue
			}
			for _, id := range op.IDs {
				k := cxx.EventKey{Pair: op.Pair, ID: id}
				s := out[k]
				if op.Set {
					s[0] |= f.CoresOf(n)
				} else {
					s[1] |= f.CoresOf(n)
				}
				out[k] = s
			}
		}
	}
	return out
}

func mentionsAny(files []*grammar.File, names [][]byte) bool {
	for _, f := range files {
		for _, s := range names {
			if bytes.Contains(f.Src, s) {
				return true
			}
		}
	}
	return false
}

func eventDiagnostic(pass *analysis.Pass, fd cxx.EventFinding, all grammar.Cores) analysis.Diagnostic {
	what := "`" + shortText(fd.Op) + "`"
	if fd.Site != fd.Op {
		what = fmt.Sprintf("`%s` reaches `%s` (%s) which", shortText(fd.Site), shortText(fd.Op), where(fd.OpFile, fd.Op))
	}
	on := ""
	if fd.Core != all {
		on = " on the " + coreName(fd.Core) + " core"
	}
	d := analysis.Diagnostic{Start: fd.Site.Start, End: fd.Site.End}
	if fd.Site != fd.Op {
		d.Related = append(d.Related, analysis.RelatedAt(fd.OpFile, fd.Op, "the event call in the helper"))
	}
	switch fd.Problem {
	case cxx.EventLeaked:
		lines := make([]string, 0, len(fd.Exits))
		for _, e := range fd.Exits {
			if e.Kind() == "return_statement" {
				lines = append(lines, where(pass.File, e))
				d.Related = append(d.Related, analysis.RelatedAt(pass.File, e, "returns here with the event raised"))
			} else {
				lines = append(lines, "the end of the entry")
			}
		}
		next := "the next task on this core"
		if !pass.Models().RuntimeABI() {
			next = "the next kernel on this core"
		}
		d.Message = fmt.Sprintf("%s sets event %s%s, and no wait of it follows on any path to %s: the flag stays "+
			"raised into %s, whose first wait on it then passes before its data is ready; "+
			"wait for it before returning", what, fd.Key, on, strings.Join(lines, ", "), next)
		if fix, ok := leakFix(pass, fd); ok {
			d.Fixes = []analysis.Fix{fix}
		}
	case cxx.EventSetAgain:
		prev := "an earlier set"
		if fd.Prev != nil {
			prev = fmt.Sprintf("the set at %s", where(fd.PrevFile, fd.Prev))
			d.Related = append(d.Related, analysis.RelatedAt(fd.PrevFile, fd.Prev, "this set is still pending"))
		}
		d.Message = fmt.Sprintf("%s sets event %s%s while %s is still pending on every path here: the pairing is off "+
			"by one, so a later wait passes on the stale set or one wait never passes; wait for the first set before "+
			"setting it again", what, fd.Key, on, prev)
	case cxx.EventWaitUnset:
		d.Severity = analysis.SeverityError
		stall, prev := "the pipe stalls until the task is killed (507018)", "a previous task"
		if !pass.CompiledUnder(fd.Site.Start, analysis.PremiseRuntime) {
			stall, prev = "the pipe stalls and the kernel never completes", "a previous kernel"
		}
		d.Message = fmt.Sprintf("%s waits for event %s%s, but no set of it comes before on any path from the "+
			"entry: %s, or consumes a set %s leaked; "+
			"set it before waiting, or drop the wait", what, fd.Key, on, stall, prev)
	}
	return d
}

func where(f *grammar.File, n *grammar.Node) string {
	line, _ := f.Lines.Position(n.Start)
	return fmt.Sprintf("%s:%d", filepath.Base(f.Path), line+1)
}

// leakFix inserts the wait matching a leaked set, spelled like the set,
// in the hardware's order: right after the set's statement, in its block
// (inside the same #ifdef, before the first instruction of the destination
// pipe that follows: `SetFlag; WaitFlag; DataCopy`). A set inside a loop
// may be the ping-pong half the next iteration waits for, so there the wait
// goes before each exit instead, and only when no preprocessor branch holds
// the set (a wait outside its #ifdef would be compiled by a core that never
// sets it, and hang there).
func leakFix(pass *analysis.Pass, fd cxx.EventFinding) (analysis.Fix, bool) {
	text := strings.Join(strings.Fields(fd.Op.Text()), " ")
	switch {
	case strings.Contains(text, "SetFlag"):
		text = strings.Replace(text, "SetFlag", "WaitFlag", 1)
	case strings.Contains(text, "set_flag"):
		text = strings.Replace(text, "set_flag", "wait_flag", 1)
	default:
		return analysis.Fix{}, false
	}
	stmt := text + ";"
	set := enclosingStatement(fd.Op)
	if set == nil {
		return analysis.Fix{}, false
	}
	inLoop, inBranch := setContext(set)
	// A wait of the event later in the function pairs the set on the
	// paths that reach it: the leak is on the paths that return first, so
	// the wait goes before those returns.
	if !inLoop && !waitFollows(fd.OpFile.Src, set, text) {
		src := fd.OpFile.Src
		indent, _ := cxx.StartsLine(src, set.Start)
		at := set.End
		// After a comment ending the set's line, not inside it.
		if eol := bytes.IndexByte(src[at:], '\n'); eol >= 0 && onlyCommentOrSpace(string(src[at:at+uint32(eol)])) {
			at += uint32(eol)
		}
		return analysis.Fix{
			Title:         "Insert `" + stmt + "` right after the set",
			Applicability: analysis.Unsafe,
			Edits:         []analysis.TextEdit{{File: fd.OpFile.Path, Start: at, End: at, NewText: "\n" + indent + stmt}},
		}, true
	}
	if inBranch {
		return analysis.Fix{}, false
	}
	var edits []analysis.TextEdit
	for _, e := range fd.Exits {
		edits = append(edits, insertBeforeExit(pass.File.Src, e, stmt)...)
	}
	if len(edits) == 0 {
		return analysis.Fix{}, false
	}
	return analysis.Fix{
		Title:         "Insert `" + stmt + "` before returning",
		Applicability: analysis.Unsafe,
		Edits:         edits,
	}, true
}

// waitFollows reports whether the wait (as text, spaces folded) is
// written after stmt in its function.
func waitFollows(src []byte, stmt *grammar.Node, wait string) bool {
	fn := stmt.Parent()
	for fn != nil && fn.Kind() != "function_definition" {
		fn = fn.Parent()
	}
	if fn == nil {
		return false
	}
	rest := strings.Join(strings.Fields(string(src[stmt.End:fn.End])), " ")
	return strings.Contains(rest, wait)
}

// enclosingStatement is the expression statement a call is, when it sits
// directly in a block (or a preprocessor branch of one); nil otherwise.
func enclosingStatement(call *grammar.Node) *grammar.Node {
	n := call
	for n != nil && n.Kind() != "expression_statement" {
		if k := n.Kind(); k == "compound_statement" || k == "function_definition" {
			return nil
		}
		n = n.Parent()
	}
	if n == nil {
		return nil
	}
	if p := n.Parent(); p == nil || p.Kind() != "compound_statement" && !isPreprocBlock(p.Kind()) {
		return nil
	}
	return n
}

// setContext says whether a statement sits in a loop, and in a
// preprocessor branch, of its function.
func setContext(stmt *grammar.Node) (inLoop, inBranch bool) {
	for p := stmt.Parent(); p != nil && p.Kind() != "function_definition"; p = p.Parent() {
		switch k := p.Kind(); {
		case k == "for_statement" || k == "while_statement" || k == "do_statement" || k == "for_range_loop":
			inLoop = true
		case isPreprocBlock(k):
			inBranch = true
		}
	}
	return inLoop, inBranch
}
