package rules

import (
	"fmt"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// SpmdSyncStart flags extern calls that reach a hardware barrier inside a
// pl.spmd without sync_start=True.
var SpmdSyncStart = register(&analysis.Analyzer{
	Code:     "EXT104",
	Name:     "spmd-sync-start",
	Severity: analysis.SeverityError,
	Lang:     grammar.Python,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "an extern whose C++ waits at a hardware barrier is called in a `pl.spmd` without `sync_start=True`",
		What: "Flags a call of a `@pl.jit.extern` stub (defined in the file, imported by name, or reached through an " +
			"imported module) inside `with pl.spmd(...)` that does not pass `sync_start=True`, when the extern's C++ — its " +
			"entries and everything they include — uses a hardware barrier: `SyncAll()` / `SyncAll<false>()` or a mode-0 " +
			"cross-core flag.",
		Why: "A hardware barrier waits for every core of the launch. Only with `sync_start=True` do all blocks of the task " +
			"co-start atomically; without it the runtime may dispatch cores in waves, and the first wave waits forever for " +
			"cores that are not running yet (507018, guide §1).",
		Example:    "with pl.spmd(24):\n    out = paged_attention_rope_cce(...)",
		UseInstead: "with pl.spmd(24, sync_start=True):\n    out = paged_attention_rope_cce(...)",
		FixSafety:  "Safe: adds `sync_start=True` (or turns `sync_start=False` into True); it only changes how the task's blocks are started.",
		Guide:      "§1, §5",
	},
	Run: runSpmdSyncStart,
})

func runSpmdSyncStart(pass *analysis.Pass) {
	type group struct {
		spmd  *grammar.Node
		calls []externCall
		facts []*unit.Sync
	}
	var order []*grammar.Node
	groups := map[*grammar.Node]*group{}
	for _, ec := range externCalls(pass) {
		spmd := enclosingSpmd(ec.call)
		if spmd == nil {
			continue
		}
		val, args := kwarg(spmd, "sync_start")
		if args == nil || val != nil && val.Kind() != "false" && val.Kind() != "none" {
			// True, or a value extern-lsp cannot see.
			continue
		}
		facts := stubSync(pass, ec.stub)
		if facts.Barrier == nil {
			continue
		}
		g := groups[spmd]
		if g == nil {
			g = &group{spmd: spmd}
			groups[spmd] = g
			order = append(order, spmd)
		}
		g.calls = append(g.calls, ec)
		g.facts = append(g.facts, facts)
	}
	for _, spmd := range order {
		g := groups[spmd]
		val, args := kwarg(spmd, "sync_start")
		var edit analysis.TextEdit
		if val != nil {
			edit = analysis.TextEdit{Start: val.Start, End: val.End, NewText: "True"}
		} else {
			edit = addKwargEdit(args, "sync_start=True")
		}
		var names []string
		seen := map[string]bool{}
		related := []analysis.Related{}
		for i, ec := range g.calls {
			if !seen[ec.stub.Name] {
				seen[ec.stub.Name] = true
				names = append(names, fmt.Sprintf("`%s` (%s)", ec.stub.Name, siteText(g.facts[i].Barrier)))
				b := g.facts[i].Barrier
				related = append(related, analysis.Related{File: b.File.Path, Start: b.Node.Start, End: b.Node.End, Message: fmt.Sprintf("the hardware barrier of `%s`", ec.stub.Name)})
			}
			related = append(related, analysis.Related{Start: ec.fn.Start, End: ec.fn.End, Message: fmt.Sprintf("`%s` is called here", ec.stub.Name)})
		}
		pass.Report(analysis.Diagnostic{
			Start: spmd.Start, End: spmd.End,
			Message: fmt.Sprintf("`%s` does not set sync_start=True, but extern %s waits at a hardware barrier: "+
				"without an atomic co-start the cores already running wait forever for the rest", clipText(spmd.Text()), strings.Join(names, ", ")),
			Related: related,
			Fixes:   []analysis.Fix{{Title: "Add `sync_start=True` to the pl.spmd", Applicability: analysis.Safe, Edits: []analysis.TextEdit{edit}}},
		})
	}
}
