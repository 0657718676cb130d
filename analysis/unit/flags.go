package unit

import (
	"context"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
)

// Facts about cross-core synchronisation shared by the rules that need
// them (EXT005, EXT011, EXT104), memoized per unit so each is computed once.

var flagCallsKey = &UnitKey[[]cxx.FlagCall]{
	Name: "unit.flagCalls",
	Compute: func(_ context.Context, u *Unit) []cxx.FlagCall {
		return cxx.FileFlagCalls(u, u.Files[0], u.Consts())
	},
}

// FlagCalls returns the decoded cross-core flag calls of the unit's
// first file (of a closure: the file's).
func (u *Unit) FlagCalls() []cxx.FlagCall { return Fact(u, flagCallsKey) }

// macroFlagSitesKey is the flag calls the file's macro uses make
// (`SIGNAL(kReady)` of `#define SIGNAL(id) CrossCoreSetFlag<2,
// PIPE_MTE3>(id)`), at the use, the id bound.
var macroFlagSitesKey = &UnitKey[[]cxx.FlagSite]{
	Name: "unit.macroFlagSites",
	Compute: func(_ context.Context, u *Unit) []cxx.FlagSite {
		return cxx.MacroFlagSites(u, u.Files[0], u.Macros().Shadows, u.Consts())
	},
}

// MacroFlagSites are the flag calls the macro uses of the unit's first
// file make.
func (u *Unit) MacroFlagSites() []cxx.FlagSite { return Fact(u, macroFlagSitesKey) }

// reachFlagCallsKey is the flag calls of the other files of a reach unit,
// their ids resolved against every file of it: a header's constants and
// the entry's are both in scope there.
var reachFlagCallsKey = &UnitKey[[]cxx.FlagCall]{
	Name: "unit.reachFlagCalls",
	Compute: func(_ context.Context, u *Unit) []cxx.FlagCall {
		files := u.Headers()
		r := u.Consts() // the headers', then the entry's
		var out []cxx.FlagCall
		for _, g := range files {
			out = append(out, cxx.FileFlagCalls(u, g, r)...)
		}
		return out
	},
}

// HeaderFlagCalls are the flag calls of the unit's files after the first
// (of a reach: the other files of the file's units).
func (u *Unit) HeaderFlagCalls() []cxx.FlagCall { return Fact(u, reachFlagCallsKey) }
