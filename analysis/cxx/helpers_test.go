package cxx

import "github.com/extern-lsp/extern-lsp/grammar"

// Helpers only the tests use.

// UsesHardwareSyncAll reports whether any of files calls the hardware
// SyncAll in device code, and the first such call. Calls only a __CPU_SIM
// branch compiles do not count.
func UsesHardwareSyncAll(ff FileFacts, files ...*grammar.File) (bool, Site) {
	ff = factsOr(ff)
	for _, f := range files {
		if s, ok := hardwareSyncAllIn(f, ff.Calls(f).Named("SyncAll")); ok {
			return true, s
		}
	}
	return false, Site{}
}

func hardwareSyncAllIn(f *grammar.File, calls []*grammar.Node) (Site, bool) {
	for _, n := range calls {
		c, ok := AsCall(n)
		if !ok || !IsHardwareSyncAll(c) {
			continue
		}
		if f.CoresOf(n) == grammar.None {
			continue
		}
		return Site{File: f, Node: n}, true
	}
	return Site{}, false
}

// Expanded reports whether the analysis reads the macro's body at its uses:
// the body parsed as statements.
func (m *Macro) Expanded() bool { return m.Def != nil }

// Effects returns what fn does, in source order, with the calls to
// functions of the unit expanded in place (At is then the call). Origins
// are relative to fn's parameters. The slice is the caller's.
func (s *Summaries) Effects(fn *grammar.Node) []Effect {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.effectsOf(fn).slice()
}

// Summarize returns the summaries of the functions defined in files (an
// extern entry and the headers it reaches, or any set of files).
// A unit that knows the guard model each file is compiled under
// (UnitGuards) has calls in code it compiles out ignored.
func Summarize(ff FileFacts, files ...*grammar.File) *Summaries {
	return SummarizeWith(ff, FuncsOf(ff, files...), files...)
}

// slice returns the effects as a slice of their own.
func (l *effectList) slice() []Effect {
	if l.Len() == 0 {
		return nil
	}
	out := make([]Effect, 0, l.Len())
	for _, e := range l.all() {
		out = append(out, e)
	}
	return out
}
