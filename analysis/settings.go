package analysis

// Settings are the project-level knobs rules read (set from
// `[tool.extern-lsp]` by analysis/config). The zero value means defaults, so
// tests and callers without a configuration need not fill it in.
type Settings struct {
	// ReservedFlags are extra FFTS flag ids the project treats as reserved
	// on top of the hardware SyncAll's 11–14 (e.g. catlass barriers 8–10).
	ReservedFlags []int
	// CoreMacroFamily is the core-macro family a file should key its core
	// split on: "c220" (the default when empty), "pto" or "any".
	CoreMacroFamily string
}

// Core-macro families accepted by Settings.CoreMacroFamily.
const (
	FamilyC220 = "c220"
	FamilyPTO  = "pto"
	FamilyAny  = "any"
)

// Family returns the configured core-macro family, "c220" when unset.
func (s Settings) Family() string {
	if s.CoreMacroFamily == "" {
		return FamilyC220
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
