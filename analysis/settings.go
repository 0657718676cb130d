package analysis

import (
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Settings are the project-level knobs rules read (set from
// `[tool.extern-lsp]` by analysis/config). The zero value means defaults, so
// tests and callers without a configuration need not fill it in.
type Settings struct {
	// ReservedFlags are extra FFTS flag ids the project treats as reserved
	// on top of the hardware SyncAll's 11–14 (e.g. catlass barriers 8–10).
	ReservedFlags []int
	// CoreMacroFamily is the core-macro family a file should key its core
	// split on: "consistent" (the default when empty: the family the extern
	// already uses, which in practice is the guide's C220 one), "c220",
	// "pto" or "any" (EXT006 reads it).
	CoreMacroFamily string
	// GeneratedMarkers are extra generator banners (beyond
	// DefaultGeneratedMarkers) whose files report at info.
	GeneratedMarkers []string
	// Arch is the configured target chip (`arch = "a2a3" | "a5"`, or
	// --arch); ArchNone infers it per unit (see Pass.Target).
	Arch grammar.Arch
	// Build is what the configuration says of the compile's scalar
	// coherence switches (`dcci-insert-for-scalar`,
	// `dcci-before-kernel-end`); unset fields leave it to the build files
	// and the launch model (unit.BuildOf).
	Build unit.BuildConfig
}

// Core-macro families accepted by Settings.CoreMacroFamily.
const (
	FamilyConsistent = "consistent"
	FamilyC220       = "c220"
	FamilyPTO        = "pto"
	FamilyAny        = "any"
)

// Family returns the configured core-macro family, "consistent" when unset.
func (s Settings) Family() string {
	if s.CoreMacroFamily == "" {
		return FamilyConsistent
	}
	return s.CoreMacroFamily
}

// Reserved reports whether a flag id is in ReservedFlags.
func (s Settings) Reserved(id int64) bool {
	for _, r := range s.ReservedFlags {
		if int64(r) == id {
			return true
		}
	}
	return false
}
