package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// The args[] ABI judgement EXT101, EXT102, EXT106 and EXT107 share (the
// editor's is the same: unit.FileABI), and how their messages name reads,
// parameters and stubs.

// fileABI are the file's reads wrong for an extern compiling it, and those
// right with one slot.
func fileABI(pass *analysis.Pass) (wrong, uses []unit.ABIFinding) {
	if pass.File.Lang != grammar.CPP {
		return nil, nil
	}
	return unit.NewFileABI(pass.WS, pass.File.Path, pass.ArgsAccesses, pass.EntryUnit).Verdicts()
}

// accessText names an access in messages: `args[7]`,
// `tensor_data(args, 7)` or `ArgI32<7>(args)` with the index resolved, or
// a call whose helper computes the slot as written, with the slot.
func accessText(a *abi.Access, slot int64) string {
	if a.Via == "args[]" {
		return fmt.Sprintf("args[%d]", slot)
	}
	if a.Computed && a.Node != nil {
		// The helper computes the slot from what the call names
		// (`Int32Arg<Arg::Rows>(args)` reading `args[SlotOf<A>()]`):
		// the call as written, then the slot.
		return fmt.Sprintf("`%s` (args[%d])", clipText(a.Node.Text()), slot)
	}
	if a.Index != nil && a.Index.Ancestor("template_argument_list") != nil {
		// `ArgI32<Slot::kN>(args)`: the slot is a template argument.
		return fmt.Sprintf("`%s<%d>(args)`", a.Via, slot)
	}
	if c, ok := cxx.AsCall(a.Node); ok && a.Index != nil && a.Node.Contains(a.Index) && !slices.ContainsFunc(c.Args, func(x *grammar.Node) bool { return x.Text() == "args" || x.Text() == "arg" }) {
		// A macro reading args by name (`ARG_I32(Slot::kN)`): the call
		// with its slot resolved.
		t := a.Node.Text()
		return fmt.Sprintf("`%s%d%s`", t[:a.Index.Start-a.Node.Start], slot, t[a.Index.End-a.Node.Start:])
	}
	return fmt.Sprintf("`%s(args, %d)`", a.Via, slot)
}

func paramRelated(s *abi.Stub, p *abi.Param, msg string) analysis.Related {
	return analysis.Related{File: s.File, Start: p.NameStart, End: p.NameEnd, Message: msg}
}

func stubRelated(s *abi.Stub) analysis.Related {
	return analysis.Related{File: s.File, Start: s.Start, End: s.End, Message: fmt.Sprintf("extern `%s` (%s) is declared here", s.Name, s.PackText())}
}

// paramNamed finds a stub parameter a C++ variable name stands for:
// the same name, ignoring case, underscores and a k/m prefix.
func paramNamed(s *abi.Stub, v string) *abi.Param {
	if v == "" {
		return nil
	}
	if p, ok := s.Param(v); ok {
		return p
	}
	norm := func(x string) string {
		x = strings.ToLower(strings.ReplaceAll(x, "_", ""))
		return x
	}
	nv := norm(v)
	for i := range s.Params {
		if norm(s.Params[i].Name) == nv {
			return &s.Params[i]
		}
	}
	return nil
}

// stubSync is what a stub's C++ (the units of its entries) does with
// cross-core synchronisation: the first site of each kind, entry by entry.
func stubSync(pass *analysis.Pass, s *abi.Stub) *unit.Sync {
	out := &unit.Sync{}
	for _, e := range pass.WS.StubEntries(s) {
		u := pass.EntryUnit(e)
		if u == nil {
			continue
		}
		f := u.Sync()
		if out.Barrier == nil {
			out.Barrier = f.Barrier
		}
		if out.Mode12 == nil {
			out.Mode12, out.Mode = f.Mode12, f.Mode
		}
		if out.SyncAllFalse == nil {
			out.SyncAllFalse = f.SyncAllFalse
		}
	}
	return out
}

func siteText(s *cxx.Site) string {
	line, _ := s.File.Lines.Position(s.Node.Start)
	return fmt.Sprintf("`%s` at %s:%d", clipText(s.Node.Text()), filepath.Base(s.File.Path), line+1)
}

func clipText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 50 {
		return s[:47] + "..."
	}
	return s
}

// pyStubs returns the stubs the Python file defines (shared by the Python
// rules).
func pyStubs(pass *analysis.Pass) []*abi.Stub {
	return pass.WS.StubsFor(pass.File.Path)
}
