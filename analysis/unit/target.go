package unit

import (
	"context"

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
	// "guards" (a conditional only one chip compiles), or "" (unknown).
	Source string
	// Evidence is the branch that decided an inferred target.
	Evidence *TargetEvidence
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
	Compute: func(_ context.Context, f *grammar.File) *grammar.ArchMap { return grammar.ScanArch(f.Guards) },
}

// unitTargetKey infers a unit's chip from its conditionals: every branch
// of its files that only one chip compiles (`#if __NPU_ARCH__ == 3510`,
// `#ifdef __DAV_C220_VEC__`, `#if defined(__DAV_C310__)`) must name the
// same chip. Branches for both chips (a library that supports both) or
// none leave it unknown.
var unitTargetKey = &UnitKey[Target]{
	Name: "unit.unitTarget",
	Compute: func(ctx context.Context, u *Unit) Target {
		maps := make([]*grammar.ArchMap, len(u.Files))
		paths := make([]string, len(u.Files))
		for i, f := range u.Files {
			paths[i], maps[i] = f.Path, u.ArchMap(f)
		}
		return targetOf(paths, maps)
	},
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
		return Target{Arch: grammar.ArchAny}
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
		maps = append(maps, grammar.ScanArch(grammar.ScanGuards(src)))
	}
	return targetOf(paths, maps)
}
