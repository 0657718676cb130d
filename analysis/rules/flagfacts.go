package rules

import (
	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Per-file facts about cross-core synchronisation, shared by the rules that
// need them (EXT005, EXT011, EXT104) through pass.Facts so each is computed
// once per file.

// flagCalls returns the file's decoded cross-core flag calls.
func flagCalls(pass *analysis.Pass) []cxx.FlagCall {
	return pass.Facts.Get("cxx.flagCalls", func() any {
		return cxx.FlagCalls(pass.Nodes("call_expression"), pass.Consts)
	}).([]cxx.FlagCall)
}

// hardwareBarriers returns the file's hardware barrier sites.
func hardwareBarriers(pass *analysis.Pass) []cxx.Barrier {
	return pass.Facts.Get("cxx.hardwareBarriers", func() any {
		return cxx.HardwareBarriersIn(pass.File, pass.Nodes("call_expression"), pass.Consts)
	}).([]cxx.Barrier)
}

type syncAllFact struct {
	ok   bool
	site cxx.Site
}

// unitSyncAll reports whether the extern the file belongs to calls the
// hardware SyncAll: in the file, in what it includes, or in any file of the
// same extern unit (each entry that compiles this file and its includes).
// The site is the first call found, the file's own first.
func unitSyncAll(pass *analysis.Pass) (bool, cxx.Site) {
	f := pass.Facts.Get("cxx.unitSyncAll", func() any {
		// In the file itself a SyncAll that an `if constexpr` discards
		// reserves nothing.
		for _, n := range pass.Nodes("call_expression") {
			if c, ok := cxx.AsCall(n); ok && cxx.IsHardwareSyncAll(c) && pass.Cores(n) != grammar.None && !deadConstexpr(pass, n) {
				return syncAllFact{true, cxx.Site{File: pass.File, Node: n}}
			}
		}
		for _, g := range unitFiles(pass) {
			if ok, s := cxx.UsesHardwareSyncAll(g); ok {
				return syncAllFact{true, s}
			}
		}
		return syncAllFact{}
	}).(syncAllFact)
	return f.ok, f.site
}

// unitFiles lists the other parsed C++ files of the file's extern units:
// its includes, then each unit entry and the entry's includes.
func unitFiles(pass *analysis.Pass) []*grammar.File {
	seen := map[string]bool{pass.File.Path: true}
	var out []*grammar.File
	add := func(g *grammar.File) {
		if g != nil && g.Lang == grammar.CPP && !seen[g.Path] {
			seen[g.Path] = true
			out = append(out, g)
		}
	}
	for _, g := range pass.Includes {
		add(g)
	}
	if pass.WS == nil || pass.Ctx == nil {
		return out
	}
	for _, u := range pass.Ctx.Units {
		for _, p := range pass.WS.Closure(u) {
			if seen[p] {
				continue
			}
			if g, err := pass.WS.File(p); err == nil {
				add(g)
			}
		}
	}
	return out
}

// unitFlagCalls returns the flag calls of the other files of the file's
// extern units (see unitFiles), their ids resolved against every file of
// the units: a header's constants and the entry's are both in scope there.
func unitFlagCalls(pass *analysis.Pass) []cxx.FlagCall {
	return pass.Facts.Get("cxx.unitFlagCalls", func() any {
		files := unitFiles(pass)
		r := cxx.NewResolver(append(append([]*grammar.File(nil), files...), pass.File)...)
		var out []cxx.FlagCall
		for _, g := range files {
			out = append(out, cxx.FileFlagCalls(g, r)...)
		}
		return out
	}).([]cxx.FlagCall)
}
