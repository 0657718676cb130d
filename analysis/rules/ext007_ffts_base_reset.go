package rules

import (
	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// FFTSBaseReset flags an extern that sets the FFTS base address the runtime
// owns.
var FFTSBaseReset = register(&analysis.Analyzer{
	Code:     "EXT007",
	Name:     "ffts-base-reset",
	Severity: analysis.SeverityError,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "an extern must not set the FFTS base address: the runtime set it once for the whole launch",
		What: "Flags calls to `set_ffts_base_addr(...)` and `SetSyncBaseAddr(...)` (with or without `AscendC::`) " +
			"in device code of an extern source built for A2/A3 (the `arch` setting, or the chip its conditionals " +
			"name). On Ascend 950 (A5) they are not flagged: the simpler A5 runtime sets no FFTS base and " +
			"`AscendC::SetSyncBaseAddr` does nothing there (asc-devkit's dav_3510 implementation is empty). When the " +
			"extern's chip is unknown the call is reported at `info`, saying so. Silent where the constant arguments of " +
			"every call skip the call (`if (sync != nullptr) { set_ffts_base_addr(...); }` in a body every caller passes " +
			"`nullptr`).",
		Why: "An extern runs as a task inside the runtime's persistent kernel: the launch calls `set_ffts_base_addr` " +
			"once on every core and then calls each task as `kernel(args)`, with no per-task FFTS setup. The base is a " +
			"per-core hardware register that outlives your task, so writing another value redirects every cross-core flag " +
			"and `SyncAll` of every later task on that core (native kernels included): they signal the wrong address and " +
			"hang (507018) or release early. The base is already right when your extern starts; drop the call.",
		Example:    "set_ffts_base_addr(reinterpret_cast<uint64_t>(args[5]));",
		UseInstead: "// nothing: the runtime set the FFTS base before the first task",
		FixSafety: "Unsafe: deletes the call's statement (or replaces it with `{}` when it is the sole body of an `if` " +
			"or loop). Code that computed the address only for this call is left behind for you to remove.",
		Guide: "§1, §5",
	},
	Run: runFFTSBaseReset,
})

func runFFTSBaseReset(pass *analysis.Pass) {
	var sum *cxx.Summaries
	for _, n := range pass.Closure().Calls(pass.File).Named("set_ffts_base_addr", "SetSyncBaseAddr") {
		if pass.Stopped() {
			return
		}
		call, ok := cxx.AsCall(n)
		if !ok || call.Receiver != nil {
			continue
		}
		if !call.InNamespace("AscendC") || pass.Cores(n) == grammar.None {
			continue
		}
		if sum == nil {
			sum = pass.Reach().Summaries()
		}
		if sum.NeverRuns(n) {
			// `if (sync != nullptr) set_ffts_base_addr(sync);` in a body
			// every caller gives nullptr: the runtime's base stays.
			continue
		}
		arch := pass.ArchAt(pass.File, n)
		if arch&grammar.ArchA2A3 == 0 {
			// Only A5 (or no chip of the target) compiles it: there the
			// runtime sets no FFTS base and SetSyncBaseAddr does nothing.
			continue
		}
		sev := analysis.Severity(0)
		if arch != grammar.ArchA2A3 {
			sev = analysis.SeverityInfo
		}
		d := analysis.Diagnostic{Start: n.Start, End: n.End, Severity: sev, Message: fftsResetMessage(call.Name, sev)}
		if edit, ok := deleteStatementEdit(pass.File, n); ok {
			d.Fixes = []analysis.Fix{{
				Title:         fftsResetTitle[call.Name],
				Applicability: analysis.Unsafe,
				Edits:         []analysis.TextEdit{edit},
			}}
		}
		pass.Report(d)
	}
}

// deleteStatementEdit removes the expression statement that is exactly the
// call n: whole lines when the statement has its line to itself (a trailing
// comment goes with it), `{}` when it is the sole body of an if or loop.
func deleteStatementEdit(f *grammar.File, n *grammar.Node) (analysis.TextEdit, bool) {
	stmt := n.Parent()
	for stmt != nil && stmt.Kind() == "parenthesized_expression" {
		stmt = stmt.Parent()
	}
	if stmt == nil || stmt.Kind() != "expression_statement" {
		return analysis.TextEdit{}, false
	}
	parent := stmt.Parent()
	if parent == nil {
		return analysis.TextEdit{}, false
	}
	if parent.Kind() != "compound_statement" && !isPreprocBlock(parent.Kind()) {
		return analysis.TextEdit{Start: stmt.Start, End: stmt.End, NewText: "{}"}, true
	}
	// Look only as far as the first non-blank byte on each side: with
	// many statements on one long line, scanning the whole line for each
	// would be quadratic.
	src := f.Src
	start := stmt.Start
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start == 0 || src[start-1] == '\n' {
		if rest, ok := blankOrCommentTail(src, stmt.End); ok {
			return analysis.TextEdit{Start: start, End: rest}, true
		}
	}
	return analysis.TextEdit{Start: stmt.Start, End: stmt.End}, true
}

// blankOrCommentTail reports whether the rest of the line from off is blank
// or a // comment, and where the line ends (past its newline).
func blankOrCommentTail(src []byte, off uint32) (uint32, bool) {
	i := off
	for int(i) < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r') {
		i++
	}
	if int(i) < len(src) && src[i] != '\n' && !(src[i] == '/' && int(i)+1 < len(src) && src[i+1] == '/') {
		return 0, false
	}
	return cxx.LineEnd(src, i), true
}

func isPreprocBlock(kind string) bool { return cxx.IsPreprocBranch(kind) }

// onlyCommentOrSpace reports whether the rest of a line is blank or a //
// comment.
func onlyCommentOrSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '/':
			return i+1 < len(s) && s[i+1] == '/'
		}
		return false
	}
	return true
}

// fftsResetMessage is the finding's message for the call name: one string
// per name and severity, shared by every finding (a generated kernel can
// hold thousands of them).
func fftsResetMessage(name string, sev analysis.Severity) string {
	if sev == analysis.SeverityInfo {
		return fftsResetUnknownChip[name]
	}
	return fftsResetA2A3[name]
}

var fftsResetA2A3, fftsResetUnknownChip, fftsResetTitle = map[string]string{}, map[string]string{}, map[string]string{}

func init() {
	for _, name := range []string{"set_ffts_base_addr", "SetSyncBaseAddr"} {
		fftsResetA2A3[name] = "`" + name + "` in an extern: the runtime set the FFTS base once for the persistent launch; " +
			"another value redirects cross-core flags and SyncAll of every later task on this core"
		fftsResetUnknownChip[name] = "`" + name + "` in an extern: on A2/A3 the runtime set the FFTS base once for the " +
			"persistent launch, and another value redirects cross-core flags and SyncAll of every later task on " +
			"this core; on Ascend 950 (A5) the runtime sets no FFTS base. Nothing says which chip this extern " +
			"is built for: set `arch` to judge it"
		fftsResetTitle[name] = "Remove the `" + name + "` call"
	}
}
