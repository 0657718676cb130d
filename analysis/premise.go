package analysis

import (
	"fmt"
	"path/filepath"

	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Premise is what a rule's verdict rests on; the driver runs a rule on a
// C++ file only where its premise holds for a unit compiling the file
// (ascendc-facts.md, "Launch and build models").
type Premise int

const (
	// PremiseNone: the rule judges what it reads whatever the launch
	// (Python stubs, unused suppressions).
	PremiseNone Premise = iota
	// PremiseRuntime: the pypto/simpler runtime calls the kernel per task
	// (a persistent kernel per core, the runtime owning the FFTS base and
	// the launch grid, nothing draining pipes after a task, the args[]
	// ABI): pypto externs and runtime-ABI kernels.
	PremiseRuntime
	// PremiseHardware: a hardware fact of every device kernel (flag
	// counters, intra-core events, barriers, TPipe lifetime, cache lines
	// shared by cores): every unit but CPU-only code.
	PremiseHardware
	// PremiseCache: the scalar data cache is not coherent with DMA and
	// other cores, and the build leaves coherence to the author (see
	// unit.Build): device units whose build turns the compiler's scalar
	// `dcci` insertion off.
	PremiseCache
)

// Applies says in a sentence where a rule of premise p runs (rule pages).
func (p Premise) Applies() string {
	switch p {
	case PremiseRuntime:
		return "units the pypto/simpler runtime calls per task: entries an `@pl.jit.extern` stub links and runtime-ABI kernels (`kernel(__gm__ int64_t *args)`); not standalone `__global__` kernels, CPU-only code or units of unknown launch"
	case PremiseHardware:
		return "every device kernel: pypto externs, runtime-ABI kernels, standalone `__global__` kernels and units of unknown launch; not CPU-simulator or host-only code"
	case PremiseCache:
		return "device kernels whose build leaves scalar cache coherence to the author (`-cce-aicore-dcci-insert-for-scalar=false`: the pypto and simpler builds, or a build file or `dcci-insert-for-scalar = false` saying so); in a build that keeps the compiler's default it reports only what that default does not cover"
	}
	return "every file of its language"
}

// UnitModel is the launch and build model of one unit compiling a file.
type UnitModel struct {
	Entry  string
	Launch unit.LaunchModel
	Build  unit.Build
}

// Models are the models of the units a C++ file is compiled in.
type Models []UnitModel

// ModelsOf returns the models of the units of a C++ file (ctx from
// ws.Context), under the project's settings.
func ModelsOf(ws *workspace.Workspace, ctx *workspace.Context, s Settings) Models {
	if ctx == nil {
		return nil
	}
	out := make(Models, 0, len(ctx.Units))
	for _, e := range ctx.Units {
		l := unit.LaunchOfEntry(ws, e)
		out = append(out, UnitModel{Entry: e, Launch: l, Build: unit.BuildOfEntry(ws, e, l, s.Build)})
	}
	return out
}

// Holds reports whether premise p holds for a unit of the file.
func (m Models) Holds(p Premise) bool {
	for _, u := range m {
		if u.Holds(p) {
			return true
		}
	}
	return p == PremiseNone
}

// Holds reports whether premise p holds for the unit.
func (u UnitModel) Holds(p Premise) bool {
	switch p {
	case PremiseRuntime:
		return u.Launch.Launch.RuntimeABI()
	case PremiseHardware, PremiseCache:
		// A cache rule runs on every device unit: in a coherent build it
		// keeps what the compiler does not cover (Models.Coherent).
		return u.Launch.Launch.Device()
	}
	return true
}

// of returns the model of the unit rooted at entry.
func (m Models) of(entry string) (UnitModel, bool) {
	for _, u := range m {
		if u.Entry == entry {
			return u, true
		}
	}
	return UnitModel{}, false
}

// compiledUnder is compiled over the units whose model holds premise pr:
// a header's code that only a standalone kernel compiles (its includer,
// an extern, switched it off) is not judged by a runtime rule.
func (p *Pass) compiledUnder(path string, off uint32, pr Premise) bool {
	if !p.compiled(path, off) {
		return false
	}
	if pr == PremiseNone {
		return true
	}
	return p.compiledBy(path, off, func(u *unit.Unit) bool {
		m, ok := p.models.of(u.Entry)
		return ok && m.Holds(pr)
	})
}

// RuntimeABI reports whether a unit of the file is called by the runtime
// per task (the fixes helper asks before offering a runtime-ABI fix).
func (m Models) RuntimeABI() bool { return m.Holds(PremiseRuntime) }

// Standalone reports whether every unit of the file is a standalone
// device kernel: messages then speak of the kernel, not the extern.
func (m Models) Standalone() bool {
	for _, u := range m {
		if u.Launch.Launch != unit.LaunchStandalone {
			return false
		}
	}
	return len(m) > 0
}

// Noun is what messages call the file's code: "extern" where the runtime
// calls it per task, "kernel" for a standalone or unknown launch.
func (m Models) Noun() string {
	if m.RuntimeABI() {
		return "extern"
	}
	return "kernel"
}

// Coherent reports whether every device unit of the file is built with
// the compiler maintaining scalar coherence: a cache rule then reports
// only what that does not cover (a read of a line this core's own DMA
// wrote).
func (m Models) Coherent() bool {
	return m.allDevice(func(b unit.Build) bool { return b.ScalarCoherence })
}

// EndWriteBack reports whether every device unit of the file is built
// with the compiler writing the data cache back at the kernel's end.
func (m Models) EndWriteBack() bool {
	return m.allDevice(func(b unit.Build) bool { return b.KernelEndWriteBack })
}

// allDevice reports whether the file has a device unit and every device
// unit's build has the property.
func (m Models) allDevice(has func(unit.Build) bool) bool {
	any := false
	for _, u := range m {
		if !u.Launch.Launch.Device() {
			continue
		}
		if !has(u.Build) {
			return false
		}
		any = true
	}
	return any
}

// Models returns the launch and build models of the units compiling the
// pass's file (nil for a Python file).
func (p *Pass) Models() Models {
	if p.models == nil && p.Ctx != nil {
		p.models = ModelsOf(p.WS, p.Ctx, p.Settings)
	}
	return p.models
}

// OtherChipBuilds reports whether a compile for another chip, or the CPU
// simulator, may build the pass's file, and says why: its conditionals
// name both chips, the units compiling it target different chips, or a
// build file above it defines __CPU_SIM. A fix that rewrites one chip's
// macros is safe only when nothing else builds the file.
func (p *Pass) OtherChipBuilds() (bool, string) {
	f := p.File
	if f == nil || f.Lang != grammar.CPP {
		return false, ""
	}
	var named, targets grammar.Arch
	for _, u := range p.Units() {
		if u.Pseudo || u.File(f.Path) == nil {
			continue
		}
		for _, e := range u.ArchMap(u.File(f.Path)).Evidence {
			named |= e.Arch
		}
		if t := u.Target(); t.Known() {
			targets |= t.Arch
		}
	}
	switch {
	case named == grammar.ArchAny:
		return true, "its conditionals name both A2/A3 and A5"
	case targets == grammar.ArchAny:
		return true, "units for both A2/A3 and A5 compile it"
	}
	for _, b := range p.WS.BuildSettingsUp(filepath.Dir(f.Path)) {
		if b.Key == "cpu-sim" {
			return true, fmt.Sprintf("the CPU simulator builds it (%s:%d defines __CPU_SIM)", filepath.Base(b.File), b.Line)
		}
	}
	return false, ""
}
