package rules

import (
	"testing"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/analysistest"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
)

// Each rule runs where its premise holds: the runtime's rules on the
// runtime-ABI kernel only, the hardware rules on every device kernel, the
// cache rules where the build leaves coherence to the author, and nothing
// on the CPU-simulator build.
func TestRulePremisesByLaunch(t *testing.T) {
	analysistest.Run(t, "testdata/launch", TopologyGetter, FFTSBaseReset, MissingPipeDrain,
		GMScalarWrite, GMScalarRead, BarrierEarlyReturn, SyncAllAIVOnly)
}

// The configuration's dcci-insert-for-scalar and dcci-before-kernel-end
// decide over a build file and the launch model's default.
func TestRulePremisesConfiguredBuild(t *testing.T) {
	off := false
	analysistest.RunOptions(t, "testdata/launch_config", analysis.Options{
		Analyzers: []*analysis.Analyzer{GMScalarWrite, TopologyGetter},
		Enabled:   func(*analysis.Analyzer) bool { return true },
		Settings:  analysis.Settings{Build: unit.BuildConfig{DcciInsertForScalar: &off, DcciBeforeKernelEnd: &off}},
	})
}
