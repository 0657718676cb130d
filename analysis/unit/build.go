package unit

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
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
	// EndDrops: the kernel's end drops the dirty lines it does not write
	// back (an A5 `ascendc_library` build's generated `dci()`), not
	// merely leaves them in the cache.
	EndDrops bool
	// AutoSync: the compiler inserts the scalar unit's handoffs to and
	// from the vector and DMA pipes (`--cce-auto-sync`, on by default in
	// CANN's kernel builds; pypto's extern compile has none) around the
	// tensor API's scalar accesses (`LocalTensor::SetValue`/`GetValue`).
	AutoSync bool
	// AutoSyncSource says what decided AutoSync.
	AutoSyncSource string
}

// BuildConfig is what the project's configuration says (nil: unset).
type BuildConfig struct {
	DcciInsertForScalar *bool
	DcciBeforeKernelEnd *bool
	// Arch is the configured chip (ArchNone: unset).
	Arch grammar.Arch
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
	decide := func(key string, set *bool) (bool, string, bool) {
		if set != nil {
			return *set, "the configuration (`" + key + "`)", true
		}
		for _, s := range build {
			if s.Key == key {
				return s.Value == "true", fmt.Sprintf("%s:%d (`%s`)", rel(entry, s.File), s.Line, s.Switch), true
			}
		}
		return def, defSrc, false
	}
	b.ScalarCoherence, b.Source, _ = decide("dcci-insert-for-scalar", cfg.DcciInsertForScalar)
	b.KernelEndWriteBack, b.EndSource, _ = decide("dcci-before-kernel-end", cfg.DcciBeforeKernelEnd)
	b.AutoSync, b.AutoSyncSource = def, fmt.Sprintf("the default of a %s (%s)", l.Launch.Title(), map[bool]string{true: "`--cce-auto-sync` is on in CANN's kernel builds", false: "the runtime's build has no `--cce-auto-sync`"}[def])
	for _, s := range build {
		if s.Key == "cce-auto-sync" {
			b.AutoSync, b.AutoSyncSource = s.Value == "true", fmt.Sprintf("%s:%d (`--cce-auto-sync=%s`)", rel(entry, s.File), s.Line, map[bool]string{true: "on", false: "off"}[s.Value == "true"])
			break
		}
	}
	return b
}

// BuildOfEntry is BuildOf for the entry of ws, with what ascendc.cmake's
// `ascendc_library` build does where it compiles the entry and nothing
// the project says decides (asc-devkit, cmake/asc/legacy_modules): its
// compile interfaces for dav-c220 and dav-c310 pass
// `-cce-aicore-dcci-insert-for-scalar=false`, and on dav-c310 the kernel
// wrapper it generates (util/extract_host_stub.py) runs the kernel's body,
// then `pipe_barrier(PIPE_ALL); dsb(DSB_ALL); dci();`: the `dci` drops
// every line the body left dirty. The project's history (a runtime's
// samples writing zeros on A5 only) fixed that with an explicit dcci.
func BuildOfEntry(ws *workspace.Workspace, entry string, l LaunchModel, cfg BuildConfig) Build {
	dir := filepath.Dir(workspace.Abs(entry))
	var build []workspace.BuildSetting
	for _, s := range ws.BuildSettingsUp(dir) {
		if s.Key != "cce-auto-sync" {
			build = append(build, s)
		}
	}
	build = append(build, autoSyncSettings(ws, dir)...)
	b := BuildOf(l, cfg, build, entry)
	libs := ws.KernelLibrariesOf(entry)
	if len(libs) == 0 || !l.Launch.Device() {
		return b
	}
	at := fmt.Sprintf("%s:%d", rel(entry, libs[0].File), libs[0].Line)
	set := func(key string, c *bool) bool {
		if c != nil {
			return true
		}
		for _, s := range build {
			if s.Key == key {
				return true
			}
		}
		return false
	}
	if !set("dcci-insert-for-scalar", cfg.DcciInsertForScalar) {
		b.ScalarCoherence = false
		b.Source = at + ": `ascendc_library` compiles for dav-c220 and dav-c310 pass `-cce-aicore-dcci-insert-for-scalar=false`"
	}
	if set("dcci-before-kernel-end", cfg.DcciBeforeKernelEnd) {
		return b
	}
	if why := buildsA5(ws, entry, cfg.Arch, libs, build); why != "" {
		b.KernelEndWriteBack, b.EndDrops = false, true
		b.EndSource = at + ": `ascendc_library` builds for A5, dav-c310, end the kernel they wrap with `dsb(DSB_ALL); dci();` (A5: " + why + ")"
	}
	return b
}

// buildsA5 says why an `ascendc_library` build of entry targets A5, ""
// when nothing says it does: the configured chip; else a SOC_VERSION the
// build files set as plain text (none of them an Ascend 950: not A5);
// else the unit's conditionals naming A5 alone; else, when they name no
// chip (ascendc_library builds for the chip SOC_VERSION names, read from
// the environment), a README beside the build or the kernel listing an
// Ascend 950 product, as a sample's table of supported products does.
func buildsA5(ws *workspace.Workspace, entry string, arch grammar.Arch, libs, build []workspace.BuildSetting) string {
	if arch.Single() {
		if arch == grammar.ArchA5 {
			return "the configured `arch`"
		}
		return ""
	}
	socs := build
	for _, lib := range libs {
		socs = append(socs, ws.BuildSettings(filepath.Dir(lib.File))...)
	}
	pinned := false
	for _, s := range socs {
		if s.Key != "soc-version" {
			continue
		}
		if strings.Contains(s.Value, "950") {
			return fmt.Sprintf("SOC_VERSION %s, %s:%d", s.Value, rel(entry, s.File), s.Line)
		}
		pinned = true
	}
	if pinned {
		return ""
	}
	switch t := InferTarget(ws, entry); t.Arch {
	case grammar.ArchA5:
		return "its conditionals name dav-c310 alone"
	case grammar.ArchA2A3:
		return ""
	}
	dirs := []string{filepath.Dir(workspace.Abs(entry))}
	for _, lib := range libs {
		dirs = append(dirs, filepath.Dir(lib.File))
	}
	for _, d := range dirs {
		if at := ws.ProductA5In(d); at != "" {
			return fmt.Sprintf("%s lists an Ascend 950 product", rel(entry, filepath.Join(d, at)))
		}
	}
	return ""
}

// autoSyncSettings is the `--cce-auto-sync` switch of the build files that
// configure the kernel in dir itself: its own folder's and, for an
// operator library's `<op>/op_kernel/` source, the op's (op_kernel, the op
// folder, and op_host, where `add_ops_compile_options(OP_NAME X OPTIONS
// --cce-auto-sync=off)` lives). A build file further up lists many
// targets and may set it for one of them only; a file whose switches
// disagree says nothing.
func autoSyncSettings(ws *workspace.Workspace, dir string) []workspace.BuildSetting {
	dirs := []string{dir}
	if op, ok := opKernelRoot(dir); ok {
		dirs = append(dirs, filepath.Join(op, "op_kernel"), op, filepath.Join(op, "op_host"))
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		var files []string
		byFile := map[string][]workspace.BuildSetting{}
		for _, s := range ws.BuildSettings(d) {
			if s.Key == "cce-auto-sync" {
				if byFile[s.File] == nil {
					files = append(files, s.File)
				}
				byFile[s.File] = append(byFile[s.File], s)
			}
		}
		for _, f := range files {
			ss := byFile[f]
			agree := true
			for _, s := range ss {
				agree = agree && s.Value == ss[0].Value
			}
			if agree {
				return ss[:1]
			}
		}
	}
	return nil
}

// opKernelRoot is the operator folder of a folder inside `<op>/op_kernel`.
func opKernelRoot(dir string) (string, bool) {
	for d := dir; ; {
		if filepath.Base(d) == "op_kernel" {
			return filepath.Dir(d), true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// Describe says the build model in a sentence.
func (b Build) Describe() string {
	on := map[bool]string{true: "maintained by the compiler", false: "left to the author"}
	s := fmt.Sprintf("scalar cache coherence %s (%s)", on[b.ScalarCoherence], b.Source)
	if !b.KernelEndWriteBack {
		s += fmt.Sprintf("; no write-back of the data cache at the kernel's end (%s)", b.EndSource)
	}
	sync := map[bool]string{true: "inserted by the compiler", false: "left to the author"}
	return s + fmt.Sprintf("; scalar/DMA pipe handoffs %s (%s)", sync[b.AutoSync], b.AutoSyncSource)
}
