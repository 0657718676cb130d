package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// StubUnresolved reports what extern-lsp could not read statically about a
// `@pl.jit.extern` stub, so a silent ABI check is never mistaken for a
// clean one.
var StubUnresolved = register(&analysis.Analyzer{
	Code:     "EXT100",
	Name:     "stub-unresolved",
	Severity: analysis.SeverityInfo,
	Lang:     grammar.Python,
	Doc: analysis.Doc{
		Summary: "a `@pl.jit.extern` stub could not be read statically, so its args[] ABI is not (fully) checked",
		What: "Reports, at info level, stub arguments extern-lsp cannot evaluate without running Python (`source=some_call()`, " +
			"f-strings of unknown names, reassigned constants), source paths that resolve to files that do not exist, " +
			"parameters without a pl type annotation, syntax errors inside the stub, and stubs linked to no C++ entry. " +
			"When a source cannot be evaluated the stub is linked to its entry by file name instead.",
		Why: "The args[] rules (EXT101, EXT102, EXT106) and the Python rules (EXT103-EXT105) need the stub's parameter " +
			"table and its C++ entry. When either is unknown they stay silent; this info says so instead of implying the " +
			"extern was checked. Source paths are evaluated relative to the stub's file, never by executing Python.",
		Example:    "@pl.jit.extern(core_type=\"mixed\", source=kernel_path(\"fai\"))",
		UseInstead: "KERNELS = Path(__file__).parent / \"kernels\"\n@pl.jit.extern(core_type=\"mixed\", source=KERNELS / \"fai\" / \"entry.cpp\")",
		FixSafety:  "No fix.",
		Guide:      "§2, §7",
	},
	Run: runStubUnresolved,
})

func runStubUnresolved(pass *analysis.Pass) {
	for _, s := range pyStubs(pass) {
		for _, p := range s.Problems {
			pass.Report(analysis.Diagnostic{Start: p.Start, End: p.End, Message: p.Message})
		}
		link := pass.WS.StubLink(s)
		for _, m := range link.Missing {
			pass.Report(analysis.Diagnostic{Start: m.Start, End: m.End,
				Message: fmt.Sprintf("%s=%s resolves to %s, which does not exist", m.Keyword, clipText(m.Expr), m.Path)})
		}
		if len(link.Entries) > 0 || len(link.Missing) > 0 {
			continue
		}
		switch {
		case len(link.Ambiguous) > 0:
			var names []string
			for _, a := range link.Ambiguous {
				names = append(names, relTo(s.File, a))
			}
			pass.Report(analysis.Diagnostic{Start: s.Start, End: s.End,
				Message: fmt.Sprintf("extern `%s` is linked to no C++ entry: matching by file name found %d candidates (%s); its args[] table is not checked against C++", s.Name, len(names), strings.Join(names, ", "))})
		case len(s.Sources) == 0:
			pass.Report(analysis.Diagnostic{Start: s.Start, End: s.End,
				Message: fmt.Sprintf("extern `%s` names no source and no C++ entry named `%s.cpp` was found; its args[] table is not checked against C++", s.Name, s.Name)})
		default:
			pass.Report(analysis.Diagnostic{Start: s.Start, End: s.End,
				Message: fmt.Sprintf("extern `%s` is linked to no C++ entry in the workspace; its args[] table is not checked against C++", s.Name)})
		}
	}
}

func relTo(from, p string) string {
	if r, err := filepath.Rel(filepath.Dir(from), p); err == nil {
		return r
	}
	return p
}
