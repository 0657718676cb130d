package abi

// The judgement the args[] rules (EXT101, EXT102) make, exported so hover
// and inlay hints explain an access exactly as the diagnostics do.

// Verdict is how an access fares against one extern's table.
type Verdict int

const (
	VerdictOK           Verdict = iota // some candidate index is in range and of the kind used
	VerdictOutOfRange                  // every candidate is negative or past the end
	VerdictKindMismatch                // in range, but the slot holds the other kind
)

// Judge checks an access against a stub: fine when some candidate index is
// in range and of the kind the code uses (an unknown use accepts either).
// It returns the deciding slot and its parameter (nil when out of range).
func Judge(a *Access, s *Stub) (Verdict, int64, *Param) {
	if len(a.Slots) == 0 {
		return VerdictOK, 0, nil
	}
	n := int64(s.Count())
	var mismatch *Param
	var mslot int64
	inRange := false
	for _, v := range a.Slots {
		if v < 0 || v >= n {
			continue
		}
		inRange = true
		p, ok := s.BySlot(int(v))
		if !ok {
			return VerdictOK, v, nil
		}
		if a.Use == UseUnknown || a.Use == UseTensor && p.Kind == Tensor || a.Use == UseScalar && p.Kind == Scalar {
			return VerdictOK, v, p
		}
		if mismatch == nil {
			mismatch, mslot = p, v
		}
	}
	if !inRange {
		return VerdictOutOfRange, a.Slots[0], nil
	}
	return VerdictKindMismatch, mslot, mismatch
}

// CompiledIn reports whether any of an extern's units (the bindings of each
// entry of the stub that compiles the file) runs the access; no units means
// nothing is known and the access counts.
func CompiledIn(a *Access, units []*Bindings) bool {
	if len(units) == 0 {
		return true
	}
	for _, b := range units {
		if b.Compiled(a) {
			return true
		}
	}
	return false
}

// SiblingAccepts reports whether an access in a branch on a template flag
// that no unit binds (`WithRope ? args[17] : args[7]` with WithRope
// unknown) is covered by the other branch being right for the stub.
func SiblingAccepts(acc []Access, a *Access, s *Stub, units []*Bindings) bool {
	for _, c := range a.Conds {
		bound := false
		for _, b := range units {
			if _, ok := b.Value(c.Scope, c.Name); ok {
				bound = true
			}
		}
		if bound {
			continue
		}
		for j := range acc {
			b := &acc[j]
			if b == a || b.Via == "constant" || len(b.Slots) == 0 {
				continue
			}
			for _, bc := range b.Conds {
				if bc.Start == c.Start && bc.End == c.End && bc.Value != c.Value && CompiledIn(b, units) {
					if v, _, _ := Judge(b, s); v == VerdictOK {
						return true
					}
				}
			}
		}
	}
	return false
}
