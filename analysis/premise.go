package analysis

import (
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
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
	// PremiseHandoff: the scalar unit's handoffs to and from the DMA
	// pipes around the tensor API are the author's to write: device units
	// built without the compiler's automatic synchronisation (unit.Build's
	// AutoSync: pypto externs and runtime-ABI kernels, or a build file
	// passing `--cce-auto-sync=off`).
	PremiseHandoff
)

// Applies says in a sentence where a rule of premise p runs (rule pages).
func (p Premise) Applies() string {
	switch p {
	case PremiseRuntime:
		return "units the pypto/simpler runtime calls per task: entries an `@pl.jit.extern` stub links, runtime-ABI kernels (`kernel(__gm__ int64_t *args)`) and kernels a runtime kernel configuration names (a dictionary with a `source` and a `core_type`, in an `incores` list or a `KERNELS` list); not standalone `__global__` kernels, CPU-only code or units of unknown launch"
	case PremiseHardware:
		return "every device kernel: pypto externs, runtime-ABI kernels, standalone `__global__` kernels and units of unknown launch; not CPU-simulator or host-only code"
	case PremiseCache:
		return "device kernels whose build leaves scalar cache coherence to the author (`-cce-aicore-dcci-insert-for-scalar=false`: the pypto and simpler builds, kernels ascendc.cmake's `ascendc_library` compiles, or a build file or `dcci-insert-for-scalar = false` saying so); in a build that keeps the compiler's default it reports only what that default does not cover"
	case PremiseHandoff:
		return "device kernels built without the compiler's automatic synchronisation: pypto externs and runtime-ABI kernels (their build has no `--cce-auto-sync`), and any kernel whose build file passes `--cce-auto-sync=off`; not kernels built with CANN's default `--cce-auto-sync=on` (the compiler inserts these handoffs around `SetValue`/`GetValue`; standalone kernels and units of unknown launch unless a build file says otherwise), nor CPU-only code"
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
	cfg := s.Build
	cfg.Arch = s.Arch
	for _, e := range ctx.Units {
		l := unit.LaunchOfEntry(ws, e)
		out = append(out, UnitModel{Entry: e, Launch: l, Build: unit.BuildOfEntry(ws, e, l, cfg)})
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
	case PremiseHandoff:
		return u.Launch.Launch.Device() && !u.Build.AutoSync
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

// NoKernel reports whether no unit of the file has a kernel: each is of
// unknown launch (library code, launched as its includers are).
func (m Models) NoKernel() bool {
	for _, u := range m {
		if u.Launch.Launch != unit.LaunchUnknown {
			return false
		}
	}
	return len(m) > 0
}

// RuntimeABI reports whether a unit of the file is called by the runtime
// per task (the fixes helper asks before offering a runtime-ABI fix).
func (m Models) RuntimeABI() bool { return m.Holds(PremiseRuntime) }

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

// EndDrops is the source of a device unit's build whose kernel end drops
// the lines a kernel left dirty (unit.Build.EndDrops), "" when none does.
func (m Models) EndDrops() string {
	for _, u := range m {
		if u.Launch.Launch.Device() && u.Build.EndDrops {
			return u.Build.EndSource
		}
	}
	return ""
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
