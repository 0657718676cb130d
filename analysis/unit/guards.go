package unit

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// includeGuardsKey holds, for each header of a unit whose conditionals test
// a macro the unit #defines or #undefs before including it, the header's
// guard model under that macro state: `#define NO_GLOBAL_ENTRY` /
// `#include "body.cce"` / `#undef NO_GLOBAL_ENTRY` compiles the header
// without its `#ifndef NO_GLOBAL_ENTRY` entry. A macro no file and no
// build file of the tree defines (workspace.MacroDefinedNowhere) is
// undefined in every file, the entry's too: `#ifdef DEBUG_STOP` code is
// in no build.
//
// What it reads of the files is their directives and includes, and each
// file's own guards under the state it is included in: after an edit
// that leaves every outline as it was, the edited files' guards are made
// again under the states the value keeps, the others' kept (Rekey).
var includeGuardsKey = &UnitKey[*unitGuards]{
	Name: "unit.include-guards",
	Rekey: func(_ context.Context, u *Unit, old *unitGuards, files []*grammar.File) *unitGuards {
		out := &unitGuards{byFile: make(map[*grammar.File]*grammar.Guards, len(old.byFile)), under: make(map[*grammar.File]map[string]bool, len(old.under)), chip: old.chip, vals: old.vals}
		for i, f := range files {
			nf := u.Files[i]
			st, ok := old.under[f]
			if !ok {
				continue
			}
			out.under[nf] = st
			if g, ok := old.byFile[f]; ok {
				if nf != f {
					g = FileFact(u, nf, guardVariantsKey).under(st, old.chip, old.vals)
				}
				out.byFile[nf] = g
			}
		}
		return out
	},
	Compute: func(ctx context.Context, u *Unit) *unitGuards {
		out := map[*grammar.File]*grammar.Guards{}
		if len(u.Files) == 0 {
			return &unitGuards{byFile: out}
		}
		// Start from every file no other file of the unit includes: the
		// entry of a unit, the entries of the union of a header's units.
		nowhere := map[string]bool{}
		files := u.Files
		if len(u.UnresolvedIncludes()) > 0 {
			// A project header the unit includes but no root holds
			// could define any macro: say nothing then.
			files = nil
		}
		for _, f := range files {
			for _, d := range f.Guards.Directives {
				switch d.Kind {
				case "if", "ifdef", "ifndef", "elif":
					for _, m := range d.Macros {
						if _, seen := nowhere[m.Name]; !seen && u.ws != nil && u.ws.MacroDefinedNowhere(m.Name) {
							nowhere[m.Name] = false
						}
					}
				}
			}
		}
		// A switch that blanks the CCE qualifiers is off in a device
		// build whatever an unseen header does.
		for _, f := range u.Files {
			for _, m := range hostSwitches(f) {
				nowhere[m] = false
			}
		}
		state := map[*grammar.File]map[string]bool{}
		var queue []*grammar.File
		// A unit built for A5 alone compiles every file's chip
		// conditionals for A5, the ones a header leaves open too.
		var chip grammar.Arch
		if t := u.Target(); t.Arch == grammar.ArchA5 {
			chip = t.Arch
		}
		// Macros its headers define per core type (`#define IS_VEC 1`
		// under a vector guard) select cores where a file tests them.
		vals := coreValues(u)
		differs := func(g *grammar.Guards, st map[string]bool) bool {
			return testsAny(g, st) || chip != grammar.ArchNone && g.TestsChip() || testsValued(g, vals)
		}
		for _, f := range unitRoots(u) {
			state[f] = maps.Clone(nowhere)
			if differs(f.Guards, nowhere) {
				out[f] = FileFact(u, f, guardVariantsKey).under(nowhere, chip, vals)
			}
			queue = append(queue, f)
		}
		// mixed are the headers included under different macro states
		// (from two entries, or twice): no one state is theirs, so they
		// keep their own guards, which compile every branch either
		// state could.
		mixed := map[*grammar.File]bool{}
		for len(queue) > 0 && ctx.Err() == nil {
			f := queue[0]
			queue = queue[1:]
			g := out[f]
			if g == nil {
				g = f.Guards
			}
			cur := map[string]bool{}
			for k, v := range state[f] {
				cur[k] = v
			}
			incs := map[int]grammar.Include{}
			for _, inc := range f.Includes {
				incs[inc.Line] = inc
			}
			for _, d := range g.Directives {
				if g.CoresAt(d.Start) == grammar.None {
					continue
				}
				switch d.Kind {
				case "define", "undef":
					if len(d.Macros) > 0 {
						cur[d.Macros[0].Name] = d.Kind == "define"
					}
				case "include":
					t := u.Resolve(f, incs[d.Line])
					if t == nil {
						continue
					}
					if prev := state[t]; prev != nil {
						if !mixed[t] && !sameTested(t.Guards, prev, cur) {
							mixed[t] = true
							delete(out, t)
						}
						continue
					}
					st := map[string]bool{}
					for k, v := range cur {
						st[k] = v
					}
					state[t] = st
					if differs(t.Guards, st) {
						out[t] = FileFact(u, t, guardVariantsKey).under(st, chip, vals)
					}
					queue = append(queue, t)
				}
			}
		}
		return &unitGuards{byFile: out, under: state, chip: chip, vals: vals}
	},
}

// unitGuards are a unit's guard models of its headers compiled under
// macros it sets (byFile), and the macro state each file is included in
// (under).
type unitGuards struct {
	byFile map[*grammar.File]*grammar.Guards
	under  map[*grammar.File]map[string]bool
	// chip is the chip the models compile for: ArchA5 for a unit built
	// for A5 alone, else ArchNone (the files' own choice).
	chip grammar.Arch
	// vals are the unit's core-valued macros (coreValues).
	vals grammar.CoreValues
}

// guardVariantsKey holds a file's guard models under the macro states
// its includers leave, computed once per parse and shared by every unit
// including it (one header, hundreds of entries' units).
var guardVariantsKey = &FileKey[*guardVariants]{
	Name:    "unit.guard-variants",
	Compute: func(_ context.Context, f *grammar.File) *guardVariants { return &guardVariants{f: f} },
}

// guardVariants are a file's guard models by macro state, keyed by what
// the state says of the macros the file's conditionals test: those alone
// are read (grammar.Guards.With), so units whose states differ elsewhere
// share one model.
type guardVariants struct {
	f  *grammar.File
	mu sync.Mutex
	// tested are the macros the file's conditionals name, sorted, once
	// asked.
	tested []string
	byKey  map[string]*grammar.Guards
}

// under is the file's guard model after st, compiled for chip (ArchNone:
// the chip the file's own conditionals name, as its parse did).
func (v *guardVariants) under(st map[string]bool, chip grammar.Arch, vals grammar.CoreValues) *grammar.Guards {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.tested == nil {
		v.tested = []string{}
		for _, d := range v.f.Guards.Directives {
			switch d.Kind {
			case "if", "ifdef", "ifndef", "elif":
				for _, m := range d.Macros {
					v.tested = append(v.tested, m.Name)
				}
			}
		}
		slices.Sort(v.tested)
		v.tested = slices.Compact(v.tested)
		v.byKey = map[string]*grammar.Guards{}
	}
	key := []byte{byte(chip)}
	pre := map[string]bool{}
	for _, name := range v.tested {
		if on, ok := st[name]; ok {
			pre[name] = on
			key = append(append(key, name...), '=', '0', ';')
			if on {
				key[len(key)-2] = '1'
			}
		}
	}
	var used grammar.CoreValues
	for _, name := range v.tested {
		if cv, ok := vals[name]; ok {
			if used == nil {
				used = grammar.CoreValues{}
			}
			used[name] = cv
			key = fmt.Appendf(key, "%s=%v;", name, cv)
		}
	}
	if g, ok := v.byKey[string(key)]; ok {
		return g
	}
	g := v.f.Guards.ForUnit(pre, chip, used)
	v.byKey[string(key)] = g
	return g
}

// unitRoots are the files of u that no file of u includes, in u's order;
// the first file when every file is included (an include cycle).
func unitRoots(u *Unit) []*grammar.File {
	included := map[*grammar.File]bool{}
	for _, f := range u.Files {
		for _, inc := range f.Includes {
			if t := u.Resolve(f, inc); t != nil && t != f {
				included[t] = true
			}
		}
	}
	var roots []*grammar.File
	for _, f := range u.Files {
		if !included[f] {
			roots = append(roots, f)
		}
	}
	if len(roots) == 0 {
		roots = u.Files[:1]
	}
	return roots
}

// sameTested reports whether two macro states agree on every macro g's
// conditionals test.
func sameTested(g *grammar.Guards, a, b map[string]bool) bool {
	for _, d := range g.Directives {
		switch d.Kind {
		case "if", "ifdef", "ifndef", "elif":
			for _, m := range d.Macros {
				va, oka := a[m.Name]
				vb, okb := b[m.Name]
				if va != vb || oka != okb {
					return false
				}
			}
		}
	}
	return true
}

// testsValued reports whether a conditional of g names a macro of vals.
func testsValued(g *grammar.Guards, vals grammar.CoreValues) bool {
	return len(vals) > 0 && g.Tests(func(name string) bool { _, ok := vals[name]; return ok })
}

// coreValues are the unit's macros whose value differs between the core
// types: each object-like `#define NAME N` (an integer, or nothing) of its
// files, live in one core's compile of its file (its own guards), gives
// NAME that value there (`#if defined(__DAV_C220_VEC__)` / `#define IS_VEC
// 1` / `#else` / `#define IS_VEC 0`). A macro defined twice on one core
// with other values, undefined anywhere, or given a body the model does
// not read is left out, as is one both cores see alike.
func coreValues(u *Unit) grammar.CoreValues {
	var out grammar.CoreValues
	bad := map[string]bool{}
	for _, f := range u.Files {
		for _, d := range f.Guards.Directives {
			if d.Kind != "define" && d.Kind != "undef" || len(d.Macros) == 0 {
				continue
			}
			name := d.Macros[0].Name
			if d.Kind == "undef" {
				bad[name] = true
				continue
			}
			body := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d.Cond), name))
			if strings.HasPrefix(body, "(") && !strings.HasPrefix(strings.TrimSpace(d.Cond), name+" ") {
				continue // function-like
			}
			v := int64(1)
			if body != "" {
				n, err := strconv.ParseInt(strings.TrimRight(body, "uUlL"), 0, 64)
				if err != nil {
					bad[name] = true
					continue
				}
				v = n
			}
			cores := f.Guards.CoresAt(d.Start)
			if cores == grammar.None {
				continue
			}
			if out == nil {
				out = grammar.CoreValues{}
			}
			cv := out[name]
			for cfg := range 2 {
				if cores&grammar.Cores(1<<cfg) == 0 {
					continue
				}
				if cv.Defined[cfg] && cv.Val[cfg] != v {
					bad[name] = true
				}
				cv.Defined[cfg], cv.Val[cfg] = true, v
			}
			out[name] = cv
		}
	}
	for name, cv := range out {
		if bad[name] || cv.Defined[0] == cv.Defined[1] && cv.Val[0] == cv.Val[1] {
			delete(out, name)
		}
	}
	return out
}

// testsAny reports whether a conditional of g names a macro of st.
func testsAny(g *grammar.Guards, st map[string]bool) bool {
	return len(st) > 0 && g.Tests(func(name string) bool { _, ok := st[name]; return ok })
}

// IncludeGuards returns f's guard model in this unit: its own, or the one
// under the macros the unit defines before including it.
func (u *Unit) IncludeGuards(f *grammar.File) *grammar.Guards {
	if g := Fact(u, includeGuardsKey).byFile[f]; g != nil {
		return g
	}
	return f.Guards
}

// CoresOf is the cores that compile node n of f in this unit: f's own
// guards and core tests (grammar.File.CoresOf), narrowed by f's guard
// model in the unit (IncludeGuards: the macros its includers set, the
// unit's chip, its core-valued macros).
func (u *Unit) CoresOf(f *grammar.File, n *grammar.Node) grammar.Cores {
	return cxx.CoresIn(f, n, u.IncludeGuards)
}

// hostSwitches are the macros under which f defines a CCE qualifier away
// (`#ifdef ENABLE_CPU_TRACE_INTRINSIC` / `#define __gm__`): a device
// compile keeps `__gm__` and `__aicore__` as its own words, so a switch
// that blanks them builds for the host, and is off in every device build,
// like `__CPU_SIM`.
func hostSwitches(f *grammar.File) []string {
	var out []string
	// open holds, per open #if group, the macro its first branch tests
	// (`#ifdef M`, `#if defined(M)`, `#if M`), "" once past that branch.
	var open []string
	for _, d := range f.Guards.Directives {
		switch d.Kind {
		case "if", "ifdef":
			m := ""
			if names := condMacros(d); len(names) == 1 {
				m = names[0]
			}
			open = append(open, m)
		case "ifndef":
			open = append(open, "")
		case "elif", "else":
			if len(open) > 0 {
				open[len(open)-1] = ""
			}
		case "endif":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case "define":
			if len(d.Macros) == 0 || !cceQualifiers[d.Macros[0].Name] || len(bytes.TrimSpace(f.Src[d.Macros[0].End:d.End])) > 0 {
				continue
			}
			// The innermost group that tests a switch (an `#ifndef
			// __gm__` around the define tests the qualifier itself).
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] != "" {
					if !slices.Contains(out, open[i]) {
						out = append(out, open[i])
					}
					break
				}
			}
		}
	}
	return out
}

// cceQualifiers are the words ccec defines for device code.
var cceQualifiers = map[string]bool{"__gm__": true, "__aicore__": true, "__global__": true}

// condMacros are the macros a condition names, but `defined`.
func condMacros(d grammar.Directive) []string {
	var out []string
	for _, m := range d.Macros {
		if m.Name != "defined" {
			out = append(out, m.Name)
		}
	}
	return out
}
