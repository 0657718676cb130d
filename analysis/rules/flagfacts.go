package rules

import (
	"context"
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Facts about cross-core synchronisation shared by the rules that need
// them (EXT005, EXT011, EXT104), memoized per unit so each is computed once.

var flagCallsKey = &analysis.UnitKey[[]cxx.FlagCall]{
	Name: "rules.flagCalls",
	Compute: func(_ context.Context, u *analysis.Unit) []cxx.FlagCall {
		return cxx.FileFlagCalls(u, u.Files[0], u.Consts())
	},
}

// flagCalls returns the file's decoded cross-core flag calls.
func flagCalls(pass *analysis.Pass) []cxx.FlagCall {
	return analysis.UnitFact(pass, pass.Closure(), flagCallsKey)
}

// macroFlagSitesKey is the flag calls the file's macro uses make
// (`SIGNAL(kReady)` of `#define SIGNAL(id) CrossCoreSetFlag<2,
// PIPE_MTE3>(id)`), at the use, the id bound.
var macroFlagSitesKey = &analysis.UnitKey[[]cxx.FlagSite]{
	Name: "rules.macroFlagSites",
	Compute: func(_ context.Context, u *analysis.Unit) []cxx.FlagSite {
		return cxx.MacroFlagSites(u, u.Files[0], u.Macros().Shadows, u.Consts())
	},
}

// fileFlagOps returns the file's flag calls and the flag calls its macro
// uses make, in source order.
func fileFlagOps(pass *analysis.Pass) []cxx.FlagCall {
	out := append([]cxx.FlagCall(nil), flagCalls(pass)...)
	for _, s := range analysis.UnitFact(pass, pass.Closure(), macroFlagSitesKey) {
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
var ownSyncAllKey = &analysis.UnitKey[syncAllFact]{
	Name: "rules.ownSyncAll",
	Compute: func(_ context.Context, u *analysis.Unit) syncAllFact {
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
var reachSyncAllKey = &analysis.UnitKey[syncAllFact]{
	Name: "rules.reachSyncAll",
	Compute: func(_ context.Context, u *analysis.Unit) syncAllFact {
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
	f := analysis.UnitFact(pass, pass.Closure(), ownSyncAllKey)
	if !f.ok {
		f = analysis.UnitFact(pass, pass.Reach(), reachSyncAllKey)
	}
	return f.ok, f.site
}

// unitFiles lists the other parsed C++ files of the file's extern units:
// its includes, then each unit entry and the entry's includes.
func unitFiles(pass *analysis.Pass) []*grammar.File {
	return pass.Reach().Headers()
}

// reachFlagCallsKey is the flag calls of the other files of a reach unit,
// their ids resolved against every file of it: a header's constants and
// the entry's are both in scope there.
var reachFlagCallsKey = &analysis.UnitKey[[]cxx.FlagCall]{
	Name: "rules.reachFlagCalls",
	Compute: func(_ context.Context, u *analysis.Unit) []cxx.FlagCall {
		files := u.Headers()
		r := u.Consts() // the headers', then the entry's
		var out []cxx.FlagCall
		for _, g := range files {
			out = append(out, cxx.FileFlagCalls(u, g, r)...)
		}
		return out
	},
}

// unitFlagCalls returns the flag calls of the other files of the file's
// extern units (see unitFiles).
func unitFlagCalls(pass *analysis.Pass) []cxx.FlagCall {
	return analysis.UnitFact(pass, pass.Reach(), reachFlagCallsKey)
}
