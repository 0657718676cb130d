package rules

import (
	"fmt"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// DualAIVDispatch flags mixed externs using whole-cluster synchronisation
// without dual_aiv_dispatch=True.
var DualAIVDispatch = register(&analysis.Analyzer{
	Code:     "EXT105",
	Name:     "dual-aiv-dispatch",
	Severity: analysis.SeverityError,
	Lang:     grammar.Python,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a mixed extern using `SyncAll<false>` or mode-1/mode-2 flags must be declared with `dual_aiv_dispatch=True`",
		What: "Flags a `@pl.jit.extern(core_type=\"mixed\", ...)` stub without `dual_aiv_dispatch=True` whose C++ (its " +
			"entries and everything they include) calls `SyncAll<false>()` or a mode-1 / mode-2 cross-core flag " +
			"(`CrossCoreSetFlag<2, ...>`, `NotifyEvent`, a raw `ffts_cross_core_sync` with mode 1 or 2).",
		Why: "`SyncAll<false>()` and mode-2 flags pair each cube with both vector lanes of its cluster, and mode 1 pairs the " +
			"two lanes. Without dual AIV dispatch only one vector lane runs the task: the cube (or the other lane) waits for " +
			"a partner that never arrives and the core hangs (507018).",
		Example:    "@pl.jit.extern(core_type=\"mixed\", source=FUSED)",
		UseInstead: "@pl.jit.extern(core_type=\"mixed\", source=FUSED, dual_aiv_dispatch=True)",
		FixSafety:  "Safe: adds `dual_aiv_dispatch=True` (or turns False into True), which the kernel's synchronisation already assumes.",
		Guide:      "§5",
	},
	Run: runDualAIVDispatch,
})

func runDualAIVDispatch(pass *analysis.Pass) {
	for _, s := range pyStubs(pass) {
		if !s.Mixed() || s.DualAIVDispatch || !s.HasArgs || s.SyntaxErrors {
			continue
		}
		facts := stubSync(pass, s)
		site, what := facts.SyncAllFalse, "`SyncAll<false>()`"
		if site == nil && facts.Mode12 != nil {
			site, what = facts.Mode12, fmt.Sprintf("a mode-%d cross-core flag", facts.Mode)
		}
		if site == nil {
			continue
		}
		d := analysis.Diagnostic{
			Start: s.DecoStart, End: s.DecoEnd,
			Message: fmt.Sprintf("mixed extern `%s` uses %s (%s), which pairs each cube with both vector lanes, but is declared without dual_aiv_dispatch=True: the partner lane never runs and the core hangs",
				s.Name, what, siteText(site)),
			Related: []analysis.Related{{File: site.File.Path, Start: site.Node.Start, End: site.Node.End, Message: "needs both vector lanes"}},
		}
		if s.DualArg != nil {
			d.Start, d.End = s.DualArg.Start, s.DualArg.End
		}
		edit := dualDispatchEdit(s)
		d.Fixes = []analysis.Fix{{Title: "Declare `dual_aiv_dispatch=True`", Applicability: analysis.Safe, Edits: []analysis.TextEdit{edit}}}
		pass.Report(d)
	}
}

// dualDispatchEdit declares dual_aiv_dispatch=True on a stub (or turns
// its False into True).
func dualDispatchEdit(s *abi.Stub) analysis.TextEdit {
	switch {
	case s.DualArg != nil:
		return analysis.TextEdit{File: s.File, Start: s.DualArg.Start, End: s.DualArg.End, NewText: "True"}
	case s.LastArgEnd > 0:
		return analysis.TextEdit{File: s.File, Start: s.LastArgEnd, End: s.LastArgEnd, NewText: ", dual_aiv_dispatch=True"}
	}
	return analysis.TextEdit{File: s.File, Start: s.ArgsEnd, End: s.ArgsEnd, NewText: "dual_aiv_dispatch=True"}
}
