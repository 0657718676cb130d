package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
)

// Code no device compile keeps is reported by no rule: `#ifdef __CPU_SIM`
// branches, and a header's global entry its includer switched off with a
// #define around the #include. The twins outside them are still flagged.
func TestUncompiledCode(t *testing.T) {
	analysistest.Run(t, "testdata/macros", TopologyGetter, ArgsOutOfRange)
}

// Macros that leave the function on one core make the rest of it the other
// core's; a finding after a macro the analysis cannot read keeps its fix,
// offered as unsafe.
func TestControlFlowMacros(t *testing.T) {
	analysistest.Run(t, "testdata/macros", SyncAllAIVOnly)
}

// A drain, a write-back and its dsb, an invalidation or a barrier inside a
// macro of the unit count at the macro's use, like a helper's.
func TestMacroEffects(t *testing.T) {
	analysistest.Run(t, "testdata/macros", MissingPipeDrain, GMScalarWrite, GMScalarRead, BarrierEarlyReturn)
}

// An event, flag or barrier called through a forwarding macro is the call
// it expands to for the rules that decode calls by name.
func TestForwardedSync(t *testing.T) {
	analysistest.Run(t, "testdata/macros", EventUnpaired, CrossFlagIDCollision, BarrierEarlyReturn)
}

// A finding at a macro use stays on the use and notes the #define it
// expands, as a compiler's "expanded from macro"; a finding at a plain
// call gets no such note.
func TestExpandedFromMacro(t *testing.T) {
	results := analysistest.Run(t, "testdata/ext015", EventUnpaired)
	notes := map[string]int{}
	for _, r := range results {
		src, err := os.ReadFile(r.File)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range r.Diags {
			use := string(src[d.Start:d.End])
			var expanded []analysis.Related
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "expanded from macro") {
					expanded = append(expanded, rel)
				}
			}
			name, _, isMacro := strings.Cut(use, "(")
			isMacro = isMacro && strings.ToUpper(name) == name
			switch {
			case !isMacro && len(expanded) > 0:
				t.Errorf("%s: %q: a plain call noted as %q", filepath.Base(r.File), use, expanded[0].Message)
			case isMacro && len(expanded) != 1:
				t.Errorf("%s: %q: %d expanded-from notes, want 1", filepath.Base(r.File), use, len(expanded))
			case isMacro:
				def := string(src[expanded[0].Start:expanded[0].End])
				if want := "#define " + name + "("; !strings.HasPrefix(def, want) || expanded[0].Message != "expanded from macro `"+name+"`" {
					t.Errorf("%s: %q: note %q at %q, want the #define of %s", filepath.Base(r.File), use, expanded[0].Message, def, name)
				}
				notes[name]++
			}
		}
	}
	for _, name := range []string{"SET_MTE2_V", "WAIT_MTE2_V", "EV_SET"} {
		if notes[name] == 0 {
			t.Errorf("no finding at a use of %s noted its #define", name)
		}
	}
}
