package unit

import (
	"fmt"
	"path/filepath"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
)

// Build is what a unit's compile leaves to the author: whether ccec keeps
// the scalar data cache coherent itself (ascendc-facts.md, "Launch and
// build models": `-mllvm -cce-aicore-dcci-insert-for-scalar` and
// `-cce-aicore-dcci-before-kernel-end`; their names say the compiler
// otherwise inserts `dcci` for scalar GM accesses and before the kernel
// ends).
type Build struct {
	// ScalarCoherence: the compiler inserts `dcci` around scalar GM
	// accesses (not around a read of a line this core's own DMA wrote:
	// a default build still needs that `dcci`).
	ScalarCoherence bool
	// KernelEndWriteBack: the compiler writes the data cache back before
	// the kernel ends.
	KernelEndWriteBack bool
	// Source says what decided ScalarCoherence: the configuration, a
	// build file (path:line), or the default of the launch model.
	Source string
	// EndSource says the same of KernelEndWriteBack.
	EndSource string
}

// BuildConfig is what the project's configuration says (nil: unset).
type BuildConfig struct {
	DcciInsertForScalar *bool
	DcciBeforeKernelEnd *bool
}

// BuildOf decides a unit's build model: the configuration first, then the
// nearest build file that passes the switch, then the launch model's
// default: the runtime's builds (pypto's extern compile, simpler's
// toolchain) pass `=false`, and a standalone kernel's own build keeps the
// compiler's defaults unless its build files say otherwise.
func BuildOf(l LaunchModel, cfg BuildConfig, build []workspace.BuildSetting, entry string) Build {
	var b Build
	def := !l.Launch.RuntimeABI()
	defSrc := fmt.Sprintf("the default of a %s (%s)", l.Launch.Title(), map[bool]string{true: "the compiler's defaults", false: "the runtime's build passes `=false`"}[def])
	decide := func(key string, set *bool) (bool, string) {
		if set != nil {
			return *set, "the configuration (`" + key + "`)"
		}
		for _, s := range build {
			if s.Key == key {
				return s.Value == "true", fmt.Sprintf("%s:%d (`-cce-aicore-%s=%s`)", rel(entry, s.File), s.Line, key, s.Value)
			}
		}
		return def, defSrc
	}
	b.ScalarCoherence, b.Source = decide("dcci-insert-for-scalar", cfg.DcciInsertForScalar)
	b.KernelEndWriteBack, b.EndSource = decide("dcci-before-kernel-end", cfg.DcciBeforeKernelEnd)
	return b
}

// BuildOfEntry is BuildOf for the entry of ws.
func BuildOfEntry(ws *workspace.Workspace, entry string, l LaunchModel, cfg BuildConfig) Build {
	return BuildOf(l, cfg, ws.BuildSettingsUp(filepath.Dir(workspace.Abs(entry))), entry)
}

// Describe says the build model in a sentence.
func (b Build) Describe() string {
	on := map[bool]string{true: "maintained by the compiler", false: "left to the author"}
	return fmt.Sprintf("scalar cache coherence %s (%s)", on[b.ScalarCoherence], b.Source)
}
