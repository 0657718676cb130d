package unit

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Target is the chip an extern unit is compiled for. Flag ids, cross-core
// modes and chip macros differ between A2/A3 (dav-c220) and A5 (Ascend
// 950, dav-c310): a rule that judges them asks the target first, and when
// the target is unknown and the chips disagree it says nothing.
type Target struct {
	// Arch is ArchA2A3, ArchA5, or ArchAny when nothing says.
	Arch grammar.Arch
	// Source says how it was decided: "config" (`arch` or --arch),
	// "guards" (a conditional only one chip compiles), "build" (the
	// SOC_VERSION the build files set), or "" (unknown).
	Source string
	// Evidence is the branch that decided an inferred target.
	Evidence *TargetEvidence
	// Build says where the build files pin the chip, for Source "build":
	// "SOC_VERSION Ascend950PR_9599 (CMakeLists.txt:4)".
	Build string
	// bothNamed: the conditionals name both chips (a file that builds for
	// either): the build's pin is then one configuration of several.
	bothNamed bool
}

// TargetEvidence is a conditional that names one chip, in a unit file.
type TargetEvidence struct {
	File string
	grammar.ArchEvidence
}

// Known reports whether the target names one chip.
func (t Target) Known() bool { return t.Arch.Single() }

var archMapKey = &FileKey[*grammar.ArchMap]{
	Name:    "unit.archMap",
	Compute: func(_ context.Context, f *grammar.File) *grammar.ArchMap { return grammar.ScanArchSrc(f.Guards, f.Src) },
}

// unitTargetKey infers a unit's chip from its conditionals: every branch
// of its files that only one chip compiles (`#if __NPU_ARCH__ == 3510`,
// `#ifdef __DAV_C220_VEC__`, `#if defined(__DAV_C310__)`) must name the
// same chip. Branches for both chips (a library that supports both) or
// none leave it to the build files (BuildTarget), else unknown.
var unitTargetKey = &UnitKey[Target]{
	Name: "unit.unitTarget",
	Compute: func(ctx context.Context, u *Unit) Target {
		maps := make([]*grammar.ArchMap, len(u.Files))
		paths := make([]string, len(u.Files))
		for i, f := range u.Files {
			paths[i], maps[i] = f.Path, u.ArchMap(f)
		}
		t := targetOf(paths, maps)
		// A pseudo-unit (a file's closure, the reach of its units) reads
		// the build of the file it is rooted at.
		if !t.Known() && !t.bothNamed && u.ws != nil {
			return BuildTarget(u.ws, u.Entry)
		}
		return t
	},
}

// BuildTarget is the chip the build files pin for entry: the SOC_VERSION
// values (`set(SOC_VERSION "Ascend910B1" ...)`, `SOC_VERSION=Ascend950PR_9599`,
// a CMakePresets.json's `ASCEND_COMPUTE_UNIT`)
// of the nearest folder, up from the entry's, whose build files set one
// (an `ascendc_library` compiling the entry elsewhere adds its folder's),
// when they all name one chip: an Ascend 950 is A5, an Ascend 910B or
// 910_93 A2/A3. Any other chip, or values naming both, leave it unknown.
// A CMake cache default can be overridden on the command line: the
// nearest pin is what a plain build compiles.
func BuildTarget(ws *workspace.Workspace, entry string) Target {
	entry = workspace.Abs(entry)
	var socs []workspace.BuildSetting
	for _, s := range ws.BuildSettingsUp(filepath.Dir(entry)) {
		// Nearest folder first: its pins alone.
		if s.Key == "soc-version" && (len(socs) == 0 || filepath.Dir(s.File) == filepath.Dir(socs[0].File)) {
			socs = append(socs, s)
		}
	}
	for _, lib := range ws.KernelLibrariesOf(entry) {
		for _, s := range ws.BuildSettings(filepath.Dir(lib.File)) {
			if s.Key == "soc-version" {
				socs = append(socs, s)
			}
		}
	}
	var arch grammar.Arch
	for _, s := range socs {
		a := socChip(s.Value)
		if a == grammar.ArchNone {
			return Target{Arch: grammar.ArchAny}
		}
		arch |= a
	}
	if !arch.Single() {
		return Target{Arch: grammar.ArchAny}
	}
	name := "SOC_VERSION"
	if socs[0].Switch != "" {
		name = socs[0].Switch
	}
	return Target{Arch: arch, Source: "build", Build: fmt.Sprintf("%s %s (%s:%d)", name, socs[0].Value, rel(entry, socs[0].File), socs[0].Line)}
}

// socChip is the chip a SOC_VERSION names, ArchNone for one the model
// does not know (Ascend310P, the first Ascend910).
func socChip(soc string) grammar.Arch {
	s := strings.ToLower(soc)
	switch {
	case strings.Contains(s, "950"):
		return grammar.ArchA5
	case strings.HasPrefix(s, "ascend910b"), strings.HasPrefix(s, "ascend910_93"):
		return grammar.ArchA2A3
	}
	return grammar.ArchNone
}

// Target is the chip the unit's conditionals name (see unitTargetKey).
func (u *Unit) Target() Target { return Fact(u, unitTargetKey) }

// ArchMap is f's map of the chips its conditionals compile each range for.
func (u *Unit) ArchMap(f *grammar.File) *grammar.ArchMap { return FileFact(u, f, archMapKey) }

// targetOf is the target the chip conditionals of a unit's files name.
func targetOf(paths []string, maps []*grammar.ArchMap) Target {
	var seen grammar.Arch
	var first *TargetEvidence
	for i, m := range maps {
		for _, e := range m.Evidence {
			seen |= e.Arch
			if first == nil {
				first = &TargetEvidence{File: paths[i], ArchEvidence: e}
			}
		}
	}
	if !seen.Single() {
		return Target{Arch: grammar.ArchAny, bothNamed: seen == grammar.ArchAny}
	}
	return Target{Arch: seen, Source: "guards", Evidence: first}
}

// InferTarget is the target the conditionals of the unit rooted at
// entry name, for front ends that count units without a pass. It reads
// the files' text only: conditionals need no parse.
func InferTarget(ws *workspace.Workspace, entry string) Target {
	var paths []string
	var maps []*grammar.ArchMap
	for _, p := range ws.Closure(entry) {
		src, err := ws.Source(p)
		if l, _ := grammar.LangOf(p); err != nil || l != grammar.CPP || grammar.IsBinary(src) {
			continue
		}
		paths = append(paths, p)
		maps = append(maps, grammar.ScanArchSrc(grammar.ScanGuards(src), src))
	}
	if t := targetOf(paths, maps); t.Known() || t.bothNamed {
		return t
	}
	return BuildTarget(ws, entry)
}
