package grammar

import (
	"sort"
	"strings"
)

// Arch is a set of target architectures: the chips a piece of code (or an
// extern unit) is compiled for.
type Arch uint8

const (
	// ArchA2A3 is dav-c220: the Atlas A2 and A3 series
	// (`--cce-aicore-arch=dav-c220-cube|vec`, `__NPU_ARCH__` 2201,
	// `__CCE_AICORE__` 220, `__DAV_C220_CUBE__` / `__DAV_C220_VEC__`).
	ArchA2A3 Arch = 1 << iota
	// ArchA5 is dav-c310 / dav-3510: Ascend 950 (`__DAV_C310__`,
	// `__NPU_ARCH__` 3510, `__CCE_AICORE__` 310).
	ArchA5

	ArchNone Arch = 0
	// ArchAny is an unknown target: either chip.
	ArchAny = ArchA2A3 | ArchA5
)

func (a Arch) String() string {
	switch a {
	case ArchA2A3:
		return "a2a3"
	case ArchA5:
		return "a5"
	case ArchAny:
		return "unknown"
	}
	return "none"
}

// ParseArch reads a configured target: "a2a3" or "a5".
func ParseArch(s string) (Arch, bool) {
	switch s {
	case "a2a3":
		return ArchA2A3, true
	case "a5":
		return ArchA5, true
	}
	return ArchNone, false
}

// Single reports whether a names exactly one chip.
func (a Arch) Single() bool { return a == ArchA2A3 || a == ArchA5 }

// archConfigs are the device compiles the arch model evaluates: both core
// types of each chip, and a compile for a chip that is neither (so that
// `#ifndef __DAV_C310__` or `__NPU_ARCH__ != 3510`, true on every other
// chip too, is not taken as evidence for A2/A3).
var archConfigs = []struct {
	arch Arch
	conf config
}{
	{ArchA2A3, deviceConfigs[0]},
	{ArchA2A3, deviceConfigs[1]},
	{ArchA5, a5Configs[0]},
	{ArchA5, a5Configs[1]},
	{ArchNone, config{"__DAV_CUBE__": 1, "__DAV_VEC__": 1, "__CCE_AICORE__": 1, "__NPU_ARCH__": 1}},
}

// archMacros are never defined in a compile whose config does not define
// them: the chip macros of the other chip.
var archMacros = map[string]bool{"__DAV_C310__": true, "__DAV_C220__": true}

// ArchEvidence is a conditional branch that only one chip compiles, such
// as `#if __NPU_ARCH__ == 3510` or `#ifdef __DAV_C220_VEC__`.
type ArchEvidence struct {
	Arch       Arch
	Start, End uint32 // the directive
	Kind, Cond string // "if", "ifdef" or "elif", and its condition
}

// ArchMap is the chip model of one file: which chips compile each byte,
// and the branches that name one chip.
type ArchMap struct {
	segs     []archSeg
	Evidence []ArchEvidence
}

type archSeg struct {
	start uint32
	arch  Arch
}

// At returns the chips whose compile keeps the byte at off (ArchAny when
// no conditional says otherwise).
func (m *ArchMap) At(off uint32) Arch {
	if m == nil || len(m.segs) == 0 {
		return ArchAny
	}
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].start > off }) - 1
	if i < 0 {
		return ArchAny
	}
	return m.segs[i].arch
}

// ScanArch evaluates a file's conditionals for each chip's device compiles.
// Unknown conditions keep code for every chip.
func ScanArch(g *Guards) *ArchMap { return ScanArchSrc(g, nil) }

// ScanArchSrc is ScanArch reading the branches' text in src: a branch for
// other chips that holds no code (`#else (void)args; #endif` after the
// dav-c220 cube and vector branches) does not make the file theirs.
func ScanArchSrc(g *Guards, src []byte) *ArchMap {
	m := &ArchMap{}
	if g == nil {
		return m
	}
	n := len(archConfigs)
	// A frame is one #if group: per config whether a branch was taken and
	// the current branch's truth; the chips its one-chip branches name and
	// the chips its other branches compile for.
	type archFrame struct {
		taken, cur []tri
		named      []ArchEvidence
		others     Arch
		// pending are the chips the current branch compiles for, added
		// to others at its end unless its body holds no code; body is
		// where it starts.
		pending Arch
		body    uint32
		// sure: per compile, whether a named branch surely takes it.
		sure []bool
	}
	var stack []archFrame
	live := func() Arch {
		var a Arch
		for c := 0; c < n; c++ {
			s := triTrue
			for _, f := range stack {
				s = triAnd(s, f.cur[c])
			}
			if s != triFalse {
				a |= archConfigs[c].arch
			}
		}
		return a
	}
	push := func(off uint32) {
		a := live()
		if k := len(m.segs); k > 0 && m.segs[k-1].arch == a {
			return
		}
		m.segs = append(m.segs, archSeg{off, a})
	}
	push(0)
	undef := make([]map[string]bool, n)
	for c := range undef {
		undef[c] = archUndefined(archConfigs[c].conf)
	}
	eval := func(d *Directive) []tri {
		r := make([]tri, n)
		for c := 0; c < n; c++ {
			conf := archConfigs[c].conf
			switch d.Kind {
			case "ifdef":
				r[c] = definedIn(firstWord(d.Cond), conf, undef[c])
			case "ifndef":
				r[c] = triNot(definedIn(firstWord(d.Cond), conf, undef[c]))
			default:
				r[c] = evalCond(d.Cond, conf, undef[c])
			}
		}
		return r
	}
	// branch files one branch of the top group: as naming a chip, or as
	// code other chips compile.
	branch := func(d *Directive, own []tri) {
		f := &stack[len(stack)-1]
		f.pending, f.body = 0, d.End
		if e, ok := namesChip(d, own); ok {
			f.named = append(f.named, e)
			for c, t := range own {
				f.sure[c] = f.sure[c] || t == triTrue
			}
			return
		}
		for c, t := range own {
			if t != triFalse {
				f.pending |= archConfigs[c].arch
			}
		}
	}
	// settle ends the top group's current branch at off.
	settle := func(off uint32) {
		f := &stack[len(stack)-1]
		if f.pending != 0 && (src == nil || off > uint32(len(src)) || f.body > off || !emptyBranch(src[f.body:off])) {
			f.others |= f.pending
		}
		f.pending = 0
	}
	for i := range g.Directives {
		d := &g.Directives[i]
		switch d.Kind {
		case "if", "ifdef", "ifndef":
			r := eval(d)
			stack = append(stack, archFrame{taken: r, cur: append([]tri(nil), r...), sure: make([]bool, n)})
			branch(d, r)
		case "elif":
			if len(stack) == 0 {
				continue
			}
			settle(d.Start)
			f := &stack[len(stack)-1]
			r := eval(d)
			for c := 0; c < n; c++ {
				f.cur[c] = triAnd(triNot(f.taken[c]), r[c])
				f.taken[c] = triOr(f.taken[c], r[c])
			}
			branch(d, r)
		case "else":
			if len(stack) == 0 {
				continue
			}
			settle(d.Start)
			f := &stack[len(stack)-1]
			for c := 0; c < n; c++ {
				f.cur[c] = triNot(f.taken[c])
				f.taken[c] = triTrue
			}
			branch(d, f.cur)
		case "endif":
			if len(stack) == 0 {
				continue
			}
			settle(d.Start)
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			m.closeGroup(f.named, f.others, f.sure)
		default:
			continue
		}
		push(d.End)
	}
	return m
}

// emptyBranch reports whether a branch's text holds no code: comments,
// `(void)name;` casts that silence unused parameters, and empty statements;
// or stops the compile (`#else #error "build for dav-c220"`): the chips
// taking it build nothing of the file.
func emptyBranch(b []byte) bool {
	t := stripBlockComments(string(b))
	if stopsCompile(t) {
		return true
	}
	for _, line := range strings.Split(t, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		for _, st := range strings.Split(line, ";") {
			st = strings.TrimSpace(st)
			if st == "" {
				continue
			}
			if !strings.HasPrefix(st, "(void)") || !isIdentText(strings.TrimSpace(st[len("(void)"):])) {
				return false
			}
		}
	}
	return true
}

// stopsCompile reports whether a branch's text holds an `#error` outside
// any conditional of its own.
func stopsCompile(t string) bool {
	depth := 0
	for _, line := range strings.Split(t, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "#") {
			continue
		}
		switch d := strings.TrimSpace(line[1:]); {
		case strings.HasPrefix(d, "if"):
			depth++
		case strings.HasPrefix(d, "endif"):
			depth--
		case depth == 0 && strings.HasPrefix(d, "error"):
			return true
		}
	}
	return false
}

func isIdentText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// closeGroup keeps the evidence of a finished #if group. A group that
// switches on the chip (its named branches take every compile of their
// chips) and compiles other code for the other chip (`#if
// defined(__DAV_C310__) … #else … #endif`) supports both: it is evidence
// for both, which leaves a unit's target unknown. A core split on one
// chip's macros (`#ifdef __DAV_C220_VEC__ … #else … #endif`, the else
// being that chip's cube) names that chip alone.
func (m *ArchMap) closeGroup(named []ArchEvidence, others Arch, sure []bool) {
	if len(named) == 0 {
		return
	}
	var chips Arch
	for _, e := range named {
		chips |= e.Arch
	}
	m.Evidence = append(m.Evidence, named...)
	for c, cfg := range archConfigs {
		if chips&cfg.arch != 0 && !sure[c] {
			return
		}
	}
	if rest := others & ArchAny &^ chips; rest != 0 {
		e := named[0]
		e.Arch = rest
		m.Evidence = append(m.Evidence, e)
	}
}

// namesChip reports a branch whose own condition is true for one chip and
// false for the other and for any other chip. An #ifndef or a negation
// that holds on every chip but one is not evidence: it excludes a chip, it
// does not name one.
func namesChip(d *Directive, r []tri) (ArchEvidence, bool) {
	if d.Kind == "ifndef" || d.Kind == "else" {
		return ArchEvidence{}, false
	}
	var sure, maybe Arch // chips with a compile that surely / possibly takes the branch
	for c, t := range r {
		if t == triFalse {
			continue
		}
		a := archConfigs[c].arch
		if a == ArchNone {
			return ArchEvidence{}, false
		}
		maybe |= a
		if t == triTrue {
			sure |= a
		}
	}
	if maybe.Single() && sure == maybe {
		return ArchEvidence{Arch: maybe, Start: d.Start, End: d.End, Kind: d.Kind, Cond: d.Cond}, true
	}
	return ArchEvidence{}, false
}

// archUndefined makes the chip macros a config does not define known to
// be undefined there.
func archUndefined(conf config) map[string]bool {
	out := map[string]bool{}
	for name := range archMacros {
		if _, ok := conf[name]; !ok {
			out[name] = false
		}
	}
	return out
}
