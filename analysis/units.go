package analysis

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// A pass's units: the questions a rule asks go to them (package unit).

// Context is the rule's context: long analyses check ctx.Err() and stop
// (the run was cancelled, is past its time limit, or the rule's steps
// are spent).
func (p *Pass) Context() context.Context {
	if p.rctx != nil {
		return p.rctx
	}
	return p.runContext()
}

// runContext is the run's context, the units' (see Pass.meter).
func (p *Pass) runContext() context.Context {
	if p.ctx == nil {
		return context.Background()
	}
	return p.ctx
}

// Stopped spends one step of the rule's budget and reports whether the
// rule should stop (see Spend): the test a long loop makes at the top of
// each iteration, so that a rule past its steps or abandoned by its run
// stops soon after (two atomic operations: cheap enough for every
// iteration).
func (p *Pass) Stopped() bool { return p.Spend(1) }

// Units lists the extern units the pass's file belongs to: for a C++ file
// the entries whose compile reaches it, for a Python file the entries its
// stubs name. A file no unit reaches gets a pseudo-unit of its own closure.
func (p *Pass) Units() []*unit.Unit {
	p.lazy.units.once.Do(func() { p.lazy.units.v = p.computeUnits() })
	return p.lazy.units.v
}

// Closure is the pseudo-unit of the pass's file and what it includes
// (transitively): the file first. Pass.Includes and Pass.Consts are its
// files and constants.
func (p *Pass) Closure() *unit.Unit {
	p.lazy.closure.once.Do(func() {
		p.lazy.closure.v = p.store.New(p.runContext(), p.File.Path, append([]*grammar.File{p.File}, p.Includes...), nil, p.kind(), "closure")
	})
	return p.lazy.closure.v
}

// Reach is the pseudo-unit of everything the file's compiles see: the
// file, its includes, then each of its units' files.
func (p *Pass) Reach() *unit.Unit {
	p.lazy.reach.once.Do(func() {
		seen := map[*grammar.File]bool{}
		var files []*grammar.File
		add := func(fs []*grammar.File) {
			for _, f := range fs {
				if f != nil && f.Lang == grammar.CPP && !seen[f] {
					seen[f] = true
					files = append(files, f)
				}
			}
		}
		seen[p.File] = true
		files = append(files, p.File)
		add(p.Includes)
		for _, u := range p.Units() {
			if !u.Pseudo {
				add(u.Files)
			}
		}
		if c := p.Closure(); slices.Equal(files, c.Files) {
			// Nothing but the file's own includes (an entry's units are
			// its closure): the same inputs, the same facts, computed once.
			p.lazy.reach.v = []*unit.Unit{c}
			return
		}
		p.lazy.reach.v = []*unit.Unit{p.store.New(p.runContext(), p.File.Path, files, nil, p.kind(), "reach")}
	})
	return p.lazy.reach.v[0]
}

func (p *Pass) kind() workspace.Kind {
	if p.Ctx != nil {
		return p.Ctx.Kind
	}
	return workspace.KindAIV
}

func (p *Pass) computeUnits() []*unit.Unit {
	if p.WS == nil {
		return []*unit.Unit{p.Closure()}
	}
	var entries []string
	switch p.File.Lang {
	case grammar.CPP:
		if p.Ctx != nil {
			entries = p.Ctx.Units
		}
	case grammar.Python:
		seen := map[string]bool{}
		for _, s := range p.WS.StubsFor(p.File.Path) {
			for _, e := range p.WS.StubEntries(s) {
				if !seen[e] {
					seen[e] = true
					entries = append(entries, e)
				}
			}
		}
		sort.Strings(entries)
	}
	var out []*unit.Unit
	for _, e := range entries {
		if u := p.EntryUnit(e); u != nil {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return []*unit.Unit{p.Closure()}
	}
	return out
}

// EntryUnit returns the unit rooted at an extern entry file (one a stub
// names, say), or nil when the entry cannot be read.
func (p *Pass) EntryUnit(entry string) *unit.Unit {
	if p.WS == nil {
		return nil
	}
	return p.store.ForEntry(p.runContext(), p.WS, entry)
}

type lazy[T any] struct {
	once sync.Once
	v    T
}

// passUnits are a file's units, computed once per file and shared by the
// copies of its Pass (one per rule).
type passUnits struct {
	units, reach lazy[[]*unit.Unit]
	closure      lazy[*unit.Unit]
	args         lazy[[]abi.Access]
}

// ArgsAccesses is ArgsAccesses for the pass's file (asked once per file,
// whatever the number of rules asking).
func (p *Pass) ArgsAccesses() []abi.Access {
	if p.WS == nil {
		return nil
	}
	p.lazy.args.once.Do(func() { p.lazy.args.v = p.store.ArgsAccesses(p.runContext(), p.WS, p.File.Path) })
	return p.lazy.args.v
}

// ArgsAccessesOf is ArgsAccesses of another C++ file of the pass's
// workspace, with the pass's fact store (a fix that renumbers args[] reads
// every file of the units it changes).
func (p *Pass) ArgsAccessesOf(path string) []abi.Access {
	if p.WS == nil {
		return nil
	}
	return p.store.ArgsAccesses(p.Context(), p.WS, path)
}

// Bindings is EntryBindings in the pass's workspace; the file's own units
// are not built again.
func (p *Pass) Bindings(entry string) *abi.Bindings {
	if p.WS == nil {
		return nil
	}
	for _, u := range p.Units() {
		if !u.Pseudo && u.Entry == workspace.Abs(entry) {
			return u.Bindings()
		}
	}
	return p.store.EntryBindings(p.runContext(), p.WS, entry)
}

// Target is the chip the pass's file is compiled for: the configured one,
// else what its units' conditionals say (a header of several units is
// known only when they all agree).
func (p *Pass) Target() unit.Target {
	if p.Settings.Arch.Single() {
		return unit.Target{Arch: p.Settings.Arch, Source: "config"}
	}
	var out unit.Target
	for i, u := range p.Units() {
		t := u.Target()
		if i == 0 {
			out = t
			continue
		}
		if t.Arch != out.Arch {
			return unit.Target{Arch: grammar.ArchAny}
		}
	}
	if out.Arch == grammar.ArchNone {
		out.Arch = grammar.ArchAny
	}
	return out
}

// ArchAt is the set of chips that compile node n of file f for this pass:
// the target's, narrowed by the conditionals around n (code under `#if
// __NPU_ARCH__ == 3510` is A5 code whatever the unit). ArchNone: no chip
// of the target compiles it.
func (p *Pass) ArchAt(f *grammar.File, n *grammar.Node) grammar.Arch {
	return p.Target().Arch & p.Closure().ArchMap(f).At(n.Start)
}

// compiled reports whether a device compile keeps the byte at off of file:
// not under `#ifdef __CPU_SIM` or another never-device branch, and, for a
// header, not cut out by what every unit defines before including it.
func (p *Pass) compiled(path string, off uint32) bool {
	return p.compiledBy(path, off, nil)
}

// compiledBy is compiled over the units keep accepts (nil: every unit).
func (p *Pass) compiledBy(path string, off uint32, keep func(*unit.Unit) bool) bool {
	f := p.fileAt(path)
	if f == nil || f.Lang != grammar.CPP {
		return true
	}
	if f.Guards.CoresAt(off) == grammar.None {
		return false
	}
	seen := false
	for _, u := range p.Units() {
		if u.Pseudo || u.File(path) == nil || keep != nil && !keep(u) {
			continue
		}
		seen = true
		if u.IncludeGuards(f).CoresAt(off) != grammar.None {
			return true
		}
	}
	return !seen
}

// demoteUnseen offers a finding's safe fixes as unsafe when something
// before it in its function is out of the analysis's sight (a macro it
// cannot read, a condition on an unknown template argument): that
// construct may already have done what the fix adds, or made the fixed
// code wrong (a cube that returned inside a macro never meets
// `SyncAll<false>()`). The message says why.
func (p *Pass) demoteUnseen(d *Diagnostic) {
	safe := false
	for _, fx := range d.Fixes {
		safe = safe || fx.Applicability == Safe && len(fx.Edits) > 0
	}
	if !safe || d.Code == InternalCode {
		return
	}
	f := p.fileAt(d.File)
	if f == nil {
		return
	}
	us := p.Reach().UnseenBefore(f, d.Start)
	if len(us) == 0 {
		return
	}
	for i := range d.Fixes {
		if d.Fixes[i].Applicability == Safe {
			d.Fixes[i].Applicability = Unsafe
		}
	}
	d.Unseen = us
	more := ""
	if len(us) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(us)-1)
	}
	d.Message = CapMessage(d.Message + "; the fix is offered as unsafe: " + us[0].Why + more + ", and it may change what this code does")
	for _, u := range us {
		d.Related = append(d.Related, Related{File: u.File.Path, Start: u.Node.Start, End: u.Node.End, Message: CapMessage("extern-lsp could not see into this: " + u.Why)})
	}
}

// fileAt is the pass's file or the included file at path.
func (p *Pass) fileAt(path string) *grammar.File {
	if path == p.File.Path {
		return p.File
	}
	for _, inc := range p.Includes {
		if inc.Path == path {
			return inc
		}
	}
	return nil
}

// Sight counts what the analysis of a file could not see.
type Sight struct {
	// UndefinedMacros are statement uses of macro-like names with no
	// definition in any file of the unit.
	UndefinedMacros int
	// UnreadMacros are statement uses of macros the unit defines with a
	// body the analysis cannot read as statements.
	UnreadMacros int
	// TemplateConditions are conditions on template arguments the
	// analysis does not know with a return under them (the code after
	// them may not run on some instantiation).
	TemplateConditions int
}

// Add adds o's counts to s.
func (s *Sight) Add(o Sight) {
	s.UndefinedMacros += o.UndefinedMacros
	s.UnreadMacros += o.UnreadMacros
	s.TemplateConditions += o.TemplateConditions
}

// sight counts what the analysis could not see in the pass's file.
func (p *Pass) sight() Sight {
	var s Sight
	if p.File.Lang != grammar.CPP || p.File.Tree == nil {
		return s
	}
	u := p.Reach()
	for _, fn := range p.Nodes("function_definition") {
		if p.Context().Err() != nil {
			break
		}
		if cxx.EnclosingDefinition(fn) != nil {
			continue
		}
		for _, x := range u.UnseenIn(p.File, fn) {
			switch {
			case x.Undefined:
				s.UndefinedMacros++
			case x.Node.Kind() == "expression_statement":
				s.UnreadMacros++
			default:
				s.TemplateConditions++
			}
		}
	}
	return s
}
