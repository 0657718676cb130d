package rules

import (
	"context"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Helpers several rules share over the unit's models.

// fileFlagOps returns the file's flag calls and the flag calls its macro
// uses make, in source order.
func fileFlagOps(pass *analysis.Pass) []cxx.FlagCall {
	out := append([]cxx.FlagCall(nil), pass.Closure().FlagCalls()...)
	for _, s := range pass.Closure().MacroFlagSites() {
		out = append(out, s.FlagCall)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Node.Start < out[j].Node.Start })
	return out
}

type syncAllFact struct {
	ok   bool
	site cxx.Site
}

// ownSyncAllKey is the first live hardware SyncAll of a closure's file: in
// the file itself a SyncAll that an `if constexpr` discards reserves
// nothing.
var ownSyncAllKey = &unit.UnitKey[syncAllFact]{
	Name: "rules.ownSyncAll",
	Compute: func(_ context.Context, u *unit.Unit) syncAllFact {
		f := u.Files[0]
		dead := deadConstexprs(u.Consts())
		for _, n := range u.Calls(f).Named("SyncAll") {
			if c, ok := cxx.AsCall(n); ok && cxx.IsHardwareSyncAll(c) && f.CoresOf(n) != grammar.None && !dead.Of(n) {
				return syncAllFact{true, cxx.Site{File: f, Node: n}}
			}
		}
		return syncAllFact{}
	},
}

// reachSyncAllKey is the first hardware SyncAll in the other files of a
// reach unit.
var reachSyncAllKey = &unit.UnitKey[syncAllFact]{
	Name: "rules.reachSyncAll",
	Compute: func(_ context.Context, u *unit.Unit) syncAllFact {
		for _, g := range u.Headers() {
			if ok, s := cxx.UsesHardwareSyncAll(u, g); ok {
				return syncAllFact{true, s}
			}
		}
		return syncAllFact{}
	},
}

// unitSyncAll reports whether the extern the file belongs to calls the
// hardware SyncAll: in the file, in what it includes, or in any file of the
// same extern unit (each entry that compiles this file and its includes).
// The site is the first call found, the file's own first.
func unitSyncAll(pass *analysis.Pass) (bool, cxx.Site) {
	f := unit.Fact(pass.Closure(), ownSyncAllKey)
	if !f.ok {
		f = unit.Fact(pass.Reach(), reachSyncAllKey)
	}
	return f.ok, f.site
}

// unitFlagCalls returns the flag calls of the other files of the file's
// extern units (see unitFiles).
func unitFlagCalls(pass *analysis.Pass) []cxx.FlagCall {
	return pass.Reach().HeaderFlagCalls()
}

// kindCores is the cores the file's extern kind compiles it for: one for an
// AIV- or AIC-only extern, both otherwise.
func kindCores(pass *analysis.Pass) grammar.Cores {
	if pass.Ctx != nil {
		switch pass.Ctx.Kind {
		case workspace.KindAIV:
			return grammar.AIV
		case workspace.KindAIC:
			return grammar.AIC
		}
	}
	return grammar.Both
}

// derivedNames follows a unit's definitions to the names whose value reads
// a seed (as reads judges it, given the names found so far) or another such
// name, over three rounds (as far as chains in real kernels go). added is
// told of each name with the definition that made it one.
func derivedNames(defs []unit.NameDef, reads func(names map[string]bool, value *grammar.Node) bool, added func(name string, d unit.NameDef)) map[string]bool {
	names := map[string]bool{}
	for round := 0; round < 3; round++ {
		changed := false
		for _, d := range defs {
			name := cxx.DeclaredName(d.Name)
			if name == "" {
				name = laneRootName(d.Name)
			}
			if name == "" || names[name] || !reads(names, d.Value) {
				continue
			}
			names[name] = true
			if added != nil {
				added(name, d)
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	return names
}
