package rules

import (
	"testing"

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
