package unit

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Launch is how a unit's kernel is started: it decides which premises of
// the rules hold (ascendc-facts.md, "Launch and build models").
type Launch int

const (
	// LaunchUnknown: device code of no recognised entry shape (a function
	// taking a `__gm__ int64_t *` among other parameters, an inline helper
	// taking it alone in a file no entry includes):
	// the hardware rules at most.
	LaunchUnknown Launch = iota
	// LaunchExtern: an entry an `@pl.jit.extern` stub links.
	LaunchExtern
	// LaunchRuntime: the runtime's single-parameter `kernel(__gm__
	// int64_t *args)` shape, or a kernel a runtime kernel configuration
	// names, called per task by the persistent kernel.
	LaunchRuntime
	// LaunchStandalone: a `__global__` kernel with its own parameters,
	// launched by the host (`<<<…>>>`, an ACL launch, an op registration):
	// it owns its launch grid and FFTS base.
	LaunchStandalone
	// LaunchHost: no device build (a CPU-simulator tree).
	LaunchHost
)

// Launches lists the models in the order reports show them.
var Launches = []Launch{LaunchExtern, LaunchRuntime, LaunchStandalone, LaunchHost, LaunchUnknown}

// String is the model's key (JSON, statistics keys).
func (l Launch) String() string {
	switch l {
	case LaunchExtern:
		return "pypto-extern"
	case LaunchRuntime:
		return "runtime-abi"
	case LaunchStandalone:
		return "standalone"
	case LaunchHost:
		return "host-only"
	}
	return "unknown"
}

// Title is the model's name in prose.
func (l Launch) Title() string {
	switch l {
	case LaunchExtern:
		return "pypto extern"
	case LaunchRuntime:
		return "runtime-ABI kernel"
	case LaunchStandalone:
		return "standalone device kernel"
	case LaunchHost:
		return "CPU-simulator / host-only code"
	}
	return "unknown launch"
}

// RuntimeABI reports whether the pypto/simpler runtime calls the unit per
// task: the runtime premises (persistent grid, runtime-owned FFTS base,
// no drain after a task, the args[] ABI) hold.
func (l Launch) RuntimeABI() bool { return l == LaunchExtern || l == LaunchRuntime }

// Device reports whether the unit is built for the device: the hardware
// premises hold.
func (l Launch) Device() bool { return l != LaunchHost }

// LaunchModel is a unit's launch model and the evidence that decided it.
type LaunchModel struct {
	Launch Launch
	// Evidence says in a sentence what decided Launch.
	Evidence string
}

// LaunchOf decides the launch model of the unit whose entry has shape sh;
// build are the settings of the build files from the entry's folder up
// (workspace.BuildSettingsUp), nearest first.
func LaunchOf(sh workspace.EntryShape, build []workspace.BuildSetting) LaunchModel {
	name := filepath.Base(sh.Entry)
	switch {
	case sh.StubLinked:
		return LaunchModel{LaunchExtern, fmt.Sprintf("an `@pl.jit.extern` stub names %s", name)}
	}
	device := map[string]bool{}
	for _, b := range build {
		if b.Key == "device" {
			device[b.File] = true
		}
	}
	for _, b := range build {
		if b.Key == "cpu-sim" && !device[b.File] {
			return LaunchModel{LaunchHost, fmt.Sprintf("%s:%d defines __CPU_SIM: a CPU-simulator build, no device compile", rel(sh.Entry, b.File), b.Line)}
		}
	}
	if sh.CPUTest != "" {
		return LaunchModel{LaunchHost, fmt.Sprintf("%s includes gtest and launches no kernel: a unit test calling the kernel on the CPU", sh.CPUTest)}
	}
	switch {
	case sh.Configured != "":
		return LaunchModel{LaunchRuntime, fmt.Sprintf("a runtime kernel configuration names it as a per-task kernel (%s): the runtime calls it as `kernel(args)`", sh.Configured)}
	case sh.LaunchedByName != "":
		return LaunchModel{LaunchStandalone, fmt.Sprintf("a host file launches its kernel `%s` (%s): it owns its launch", sh.LaunchedByName, rel(sh.Entry, sh.Launch))}
	case sh.RuntimeABI && !sh.Global:
		return LaunchModel{LaunchRuntime, "a function takes `__gm__ int64_t *` as its only parameter: the runtime's `kernel(args)` shape, called per task"}
	case sh.Global:
		ev := "defines a `__global__` kernel with its own parameters: it owns its launch"
		if sh.Launch != "" {
			ev += fmt.Sprintf(" (launched in %s)", rel(sh.Entry, sh.Launch))
		}
		return LaunchModel{LaunchStandalone, ev}
	case sh.ArgsParam:
		return LaunchModel{LaunchUnknown, "a function takes a `__gm__ int64_t *` but not as the runtime's `kernel(args)` (among other parameters, under another name than `args`, or an inline helper's: a library's flag address or the runtime API's getter, launched as its includers are), which alone says nothing about its launch (int64 data, an FFTS address, a flag word)"}
	}
	return LaunchModel{LaunchUnknown, "no entry shape extern-lsp recognises"}
}

// LaunchOfEntry is LaunchOf for the entry of ws.
func LaunchOfEntry(ws *workspace.Workspace, entry string) LaunchModel {
	return LaunchOf(ws.EntryShape(entry), ws.BuildSettingsUp(filepath.Dir(workspace.Abs(entry))))
}

// rel names file relative to the folder of from when it is below it.
func rel(from, file string) string {
	if r, err := filepath.Rel(filepath.Dir(from), file); err == nil && len(r) < len(file) {
		return r
	}
	return file
}

// IsKernelFunc reports whether the function definition fn of f is a
// `__global__` kernel (or a library's kernel macro ending in `_GLOBAL`).
// The parser sees the masked qualifiers as blanks, so the definition's
// node starts after them: the text read is from the end of what precedes
// it (the previous declaration, or its block's start) to its body.
func IsKernelFunc(f *grammar.File, fn *grammar.Node) bool {
	body := fn.ChildByField("body")
	if body == nil || int(body.Start) > len(f.Src) {
		return false
	}
	start := fn.Start
	if td := fn.Parent(); td != nil && td.Kind() == "template_declaration" {
		fn = td
		start = td.Start
	}
	if ls := fn.Ancestor("linkage_specification"); ls != nil && ls.Start < start {
		start = ls.Start
	}
	if prev := fn.PrevSibling(); prev != nil && prev.End <= start {
		start = prev.End
	} else if p := fn.Parent(); p != nil && p.Kind() == "translation_unit" {
		// The file's first declaration: the unit's node starts at its
		// first token the parser saw, after the masked qualifiers.
		start = 0
	} else if p != nil && p.Start <= start {
		start = p.Start
	}
	head := f.Src[start:body.Start]
	return bytes.Contains(head, []byte("__global__")) || bytes.Contains(head, []byte("_GLOBAL "))
}
