package rules

import (
	"fmt"

	"github.com/extern-lsp/extern-lsp/analysis"
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
	for _, ec := range externCalls(pass) {
		spmd := enclosingSpmd(ec.call)
		if spmd == nil {
			continue
		}
		val, args := kwarg(spmd, "sync_start")
		if args == nil {
			continue
		}
		if val != nil && val.Kind != "false" && val.Kind != "none" {
			// True, or a value extern-lsp cannot see.
			continue
		}
		facts := stubCxxFacts(pass, ec.stub)
		if facts.barrier == nil {
			continue
		}
		var edit analysis.TextEdit
		if val != nil {
			edit = analysis.TextEdit{Start: val.Start, End: val.End, NewText: "True"}
		} else {
			edit = addKwargEdit(args, "sync_start=True")
		}
		pass.Report(analysis.Diagnostic{
			Start: ec.fn.Start, End: ec.fn.End,
			Message: fmt.Sprintf("extern `%s` waits at a hardware barrier (%s), but the enclosing `%s` does not set sync_start=True: "+
				"without an atomic co-start the cores already running wait forever for the rest", ec.stub.Name, siteText(facts.barrier), clipText(spmd.Text())),
			Related: []analysis.Related{
				{File: facts.barrier.File.Path, Start: facts.barrier.Node.Start, End: facts.barrier.Node.End, Message: "the hardware barrier"},
				{Start: spmd.Start, End: spmd.End, Message: "the pl.spmd without sync_start=True"},
			},
			Fixes: []analysis.Fix{{Title: "Add `sync_start=True` to the pl.spmd", Applicability: analysis.Safe, Edits: []analysis.TextEdit{edit}}},
		})
	}
}
