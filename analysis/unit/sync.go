package unit

import (
	"context"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Sync is what a unit's files do with cross-core synchronisation: the
// first site of each kind in the unit's file order, nil when there is
// none. The Python rules judge a stub by it (EXT104, EXT105), the code
// lens sums an extern up with it. In an entry's unit a barrier in a
// template branch the entry's instantiation discards (`if constexpr
// (WithRope)` under run<false>) does not count.
type Sync struct {
	Barrier      *cxx.Site // a hardware barrier (SyncAll, mode-0 flags)
	SyncAllFalse *cxx.Site // SyncAll<false>()
	Mode12       *cxx.Site // a mode-1 or mode-2 flag call
	Mode         int64     // Mode12's mode
}

// Sync returns the unit's cross-core synchronisation sites.
func (u *Unit) Sync() *Sync { return Fact(u, syncKey) }

var syncKey = &UnitKey[*Sync]{
	Name: "unit.sync",
	Compute: func(_ context.Context, u *Unit) *Sync {
		out := &Sync{}
		r := cxx.NewResolverFrom(u, u.Files...)
		var b *abi.Bindings
		if !u.Pseudo && len(u.Files) > 0 {
			b = u.Bindings()
		}
		for _, f := range u.Files {
			for _, bar := range cxx.HardwareBarriers(u, f, r) {
				if site, ok := abi.SiteAt(bar.Node); out.Barrier == nil && (b == nil || !ok || b.Compiled(&site)) {
					out.Barrier = &cxx.Site{File: f, Node: bar.Node}
				}
			}
			for _, fc := range cxx.FileFlagCalls(u, f, r) {
				if out.Mode12 == nil && fc.ModeKnown && (fc.Mode == 1 || fc.Mode == 2) && f.CoresOf(fc.Node) != grammar.None {
					out.Mode12, out.Mode = &cxx.Site{File: f, Node: fc.Node}, fc.Mode
				}
			}
			if out.SyncAllFalse == nil {
				for _, n := range u.Calls(f).Named("SyncAll") {
					c, ok := cxx.AsCall(n)
					if !ok || !cxx.IsHardwareSyncAll(c) || f.CoresOf(n) == grammar.None {
						continue
					}
					if aiv, known := cxx.SyncAllAIVOnly(c, r); known && !aiv {
						out.SyncAllFalse = &cxx.Site{File: f, Node: n}
						break
					}
				}
			}
		}
		return out
	},
}
