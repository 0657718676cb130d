package rules

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// PTOCoreMacro flags a core-type guard written in pto-isa's macro family in
// an extern that keys its core split on the C220 family (or, by policy, any
// guard outside the configured family).
var PTOCoreMacro = register(&analysis.Analyzer{
	Code:     "EXT006",
	Name:     "pto-core-macro",
	Severity: analysis.SeverityWarning,
	Lang:     grammar.CPP,
	Premise:  analysis.PremiseRuntime,
	Fixable:  true,
	Doc: analysis.Doc{
		Summary: "a guard on pto-isa's `__DAV_CUBE__`/`__DAV_VEC__` in an extern that keys its core split on `__DAV_C220_CUBE__`/`__DAV_C220_VEC__`",
		What: "Flags `#if`/`#ifdef`/`#ifndef`/`#elif` conditions that test pto-isa's `__DAV_CUBE__` or `__DAV_VEC__` when " +
			"the extern otherwise keys its core split on the C220 macros: a C220 guard in the file, a file it includes, " +
			"or another file of the same extern unit. Silent when every guard uses one family, when the condition tests " +
			"both families for the same core (`defined(__DAV_VEC__) || defined(__DAV_C220_VEC__)`), when the pto guard " +
			"is nested inside a C220 guard that selects the same core, and for `#if` groups that only `#define` or " +
			"`#undef` (bridges between the families). The project setting `core-macro-family` picks the policy: " +
			"`consistent` (the default: this description), `c220` flags every pto guard, `pto` flags every C220 guard " +
			"instead, `any` turns the rule off.",
		Why: "The guide (§5) found that pto-isa's SYNCALL keys on `__DAV_CUBE__`/`__DAV_VEC__` while the CCEC extern " +
			"flow compiles with `__DAV_C220_CUBE__`/`__DAV_C220_VEC__`, and that a pto barrier ported by hand under the " +
			"pto macros silently compiled to a no-op. The exact fact is narrower: on A2/A3 devices ccec defines both " +
			"families, so such a guard does compile there; but `__DAV_C220_*` is undefined on a5 and in the a2a3sim " +
			"simulator, where only `__CPU_SIM` plus `__DAV_VEC__`/`__DAV_CUBE__` exist. A file that mixes the families " +
			"therefore compiles one half of a barrier or handshake and drops the other on some target: a hang or a " +
			"no-op barrier that the device build does not show. Keep one family per extern.",
		Example: "#ifdef __DAV_C220_VEC__\n  rope_phase();\n#endif\n#ifdef __DAV_VEC__   // hand-ported pto barrier\n" +
			"  ffts_cross_core_sync(PIPE_MTE3, cfg);\n#endif",
		UseInstead: "#ifdef __DAV_C220_VEC__\n  rope_phase();\n#endif\n#ifdef __DAV_C220_VEC__\n" +
			"  ffts_cross_core_sync(PIPE_MTE3, cfg);\n#endif",
		FixSafety: "Safe: renames the macro to the same core's macro of the family the extern uses " +
			"(`__DAV_VEC__` → `__DAV_C220_VEC__`, `__DAV_CUBE__` → `__DAV_C220_CUBE__`, or back under `pto`); on A2/A3 " +
			"devices both are defined for the same core, so the device build is unchanged. Unsafe where another " +
			"chip or the CPU simulator may build the file (its conditionals name both A2/A3 and A5, units for both " +
			"chips compile it, or a build file above it defines `__CPU_SIM`): there the families differ. A chip gate " +
			"such as `#if defined(__DAV_C220_CUBE__) || defined(__DAV_C220_VEC__)`, true on both cores, selects the " +
			"chip and is not the file's core split.",
		Guide: "§5",
	},
	Run: runPTOCoreMacro,
})

// The family names double as the policy names of core-macro-family.
const (
	familyConsistent = analysis.FamilyConsistent
	familyC220       = analysis.FamilyC220
	familyPTO        = analysis.FamilyPTO
	familyAny        = analysis.FamilyAny
)

// coreMacroPolicy reads the project's core-macro-family setting; unset (or
// unknown) means "consistent": the family the extern already uses.
func coreMacroPolicy(pass *analysis.Pass) string {
	switch p := pass.Settings.Family(); p {
	case familyC220, familyPTO, familyAny:
		return p
	}
	return familyConsistent
}

// coreMacroUse is one core macro tested by a conditional directive.
type coreMacroUse struct {
	dir    *grammar.Directive
	ref    grammar.MacroRef
	core   grammar.Cores
	family string
	// exempt: the directive also tests the other family for this core, is
	// nested in a guard of the other family for this core, or belongs to a
	// #define-only bridge group.
	exempt bool
}

// coreMacroUses lists the core macros tested by a file's conditional
// directives, marking the exempt ones.
func coreMacroUses(f *grammar.File) []coreMacroUse {
	if f == nil || f.Guards == nil {
		return nil
	}
	dirs := f.Guards.Directives
	bridge := bridgeGroups(f)
	var out []coreMacroUse
	// stack holds, per open group, the index of its current branch.
	var stack []int
	for i := range dirs {
		d := &dirs[i]
		switch d.Kind {
		case "if", "ifdef", "ifndef":
			out = appendUses(out, f, d, stack, bridge)
			stack = append(stack, i)
		case "elif", "else":
			if len(stack) > 0 {
				stack[len(stack)-1] = i
			}
			if d.Kind == "elif" {
				encl := stack
				if len(encl) > 0 {
					encl = encl[:len(encl)-1]
				}
				out = appendUses(out, f, d, encl, bridge)
			}
		case "endif":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return out
}

func appendUses(out []coreMacroUse, f *grammar.File, d *grammar.Directive, enclosing []int, bridge map[int]bool) []coreMacroUse {
	dirs := f.Guards.Directives
	for _, ref := range d.Macros {
		cm, ok := grammar.CoreMacros[ref.Name]
		if !ok {
			continue
		}
		u := coreMacroUse{dir: d, ref: ref, core: cm.Core, family: cm.Family}
		if bridge[d.Group] || testsFamily(d.Macros, cm.Core, otherFamily(cm.Family)) || archGate(d) {
			u.exempt = true
		}
		for _, b := range enclosing {
			bd := &dirs[b]
			macros := bd.Macros
			if bd.Kind == "else" && bd.Group >= 0 {
				macros = dirs[bd.Group].Macros
			}
			if bd.BranchCores == cm.Core && testsFamily(macros, grammar.Both, otherFamily(cm.Family)) {
				u.exempt = true
			}
			if bridge[bd.Group] {
				u.exempt = true
			}
		}
		out = append(out, u)
	}
	return out
}

// archGate reports whether a conditional selects the chip, not the core:
// `#if defined(__DAV_C220_CUBE__) || defined(__DAV_C220_VEC__)` is true on
// both cores of A2/A3 (ascendc-facts.md, "Launch and build models"). Its
// condition names only core macros, of one family, and both cores take it.
func archGate(d *grammar.Directive) bool {
	if d.Kind != "if" && d.Kind != "elif" || d.BranchCores != grammar.Both {
		return false
	}
	family := ""
	var cores grammar.Cores
	for _, m := range d.Macros {
		cm, ok := grammar.CoreMacros[m.Name]
		if !ok || family != "" && cm.Family != family {
			return false
		}
		family, cores = cm.Family, cores|cm.Core
	}
	return cores == grammar.Both
}

func otherFamily(f string) string {
	if f == familyC220 {
		return familyPTO
	}
	return familyC220
}

// testsFamily reports whether macros include a core macro of family for
// one of the cores.
func testsFamily(macros []grammar.MacroRef, cores grammar.Cores, family string) bool {
	for _, m := range macros {
		if cm, ok := grammar.CoreMacros[m.Name]; ok && cm.Family == family && cm.Core&cores != 0 {
			return true
		}
	}
	return false
}

// bridgeGroups returns the #if groups (by opening directive index) whose
// body is only preprocessor lines with at least one #define or #undef: the
// glue that maps one family onto the other.
func bridgeGroups(f *grammar.File) map[int]bool {
	dirs := f.Guards.Directives
	out := map[int]bool{}
	defines := map[int]bool{}
	var stack []int
	for i := range dirs {
		d := &dirs[i]
		switch d.Kind {
		case "if", "ifdef", "ifndef":
			stack = append(stack, i)
		case "define", "undef":
			for _, g := range stack {
				defines[g] = true
			}
		case "endif":
			if len(stack) == 0 {
				continue
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if defines[open] && onlyPreprocessor(f.Src[dirs[open].End:d.Start]) {
				out[open] = true
			}
		}
	}
	return out
}

// onlyPreprocessor reports whether text holds nothing but directives,
// comments and blank lines.
func onlyPreprocessor(text []byte) bool {
	inBlock := false
	cont := false
	for _, line := range strings.Split(string(text), "\n") {
		l := strings.TrimSpace(line)
		wasCont := cont
		cont = strings.HasSuffix(l, "\\")
		if inBlock {
			if i := strings.Index(l, "*/"); i >= 0 {
				inBlock = false
				l = strings.TrimSpace(l[i+2:])
			} else {
				continue
			}
		}
		if wasCont || l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "//") {
			continue
		}
		if strings.HasPrefix(l, "/*") {
			if !strings.Contains(l[2:], "*/") {
				inBlock = true
			}
			continue
		}
		return false
	}
	return true
}

func runPTOCoreMacro(pass *analysis.Pass) {
	policy := coreMacroPolicy(pass)
	if policy == familyAny {
		return
	}
	uses := coreMacroUses(pass.File)
	// The family to flag: pto guards unless the project keys on pto.
	flagged, want := familyPTO, familyC220
	if policy == familyPTO {
		flagged, want = familyC220, familyPTO
	}
	var hits []coreMacroUse
	for _, u := range uses {
		if u.family == flagged && !u.exempt {
			hits = append(hits, u)
		}
	}
	if len(hits) == 0 {
		return
	}
	// Under "consistent" the extern must key on C220 somewhere: in this
	// file, else in another file of the extern unit.
	var anchor *grammar.File
	var anchorUse coreMacroUse
	if policy == familyConsistent {
		anchor, anchorUse = findFamilyUse(pass.File, uses, want)
		if anchor == nil {
			for _, g := range pass.Reach().Headers() {
				if anchor, anchorUse = findFamilyUse(g, coreMacroUses(g), want); anchor != nil {
					break
				}
			}
		}
		if anchor == nil {
			return
		}
	}
	// Renaming a guard into the other family is safe only when no other
	// chip (or the simulator) builds the file: there the families differ.
	fixSafety := analysis.Safe
	other, why := pass.OtherChipBuilds()
	if other {
		fixSafety = analysis.Unsafe
	}
	for _, u := range hits {
		to := sameCoreMacro(u.core, want)
		var msg string
		if flagged == familyPTO {
			msg = "`" + u.ref.Name + "` is pto-isa's core macro, but this " + pass.Models().Noun() + " keys its core split on `" + to + "`"
			if policy == familyC220 {
				msg = "`" + u.ref.Name + "` is pto-isa's core macro; this project keys core guards on the C220 family (core-macro-family = \"c220\")"
			}
			msg += ": the families differ on a5 and in the simulator, so a barrier hand-ported under it can lose " +
				"its other half; guard it on `" + to + "`"
			if other {
				msg += " (the rename is unsafe here: " + why + ")"
			}
		} else {
			msg = "`" + u.ref.Name + "` is undefined on a5 and in the a2a3sim simulator, and this project keys core guards " +
				"on pto-isa's family (core-macro-family = \"pto\"); guard it on `" + to + "`"
		}
		d := analysis.Diagnostic{
			Start:   u.ref.Start,
			End:     u.ref.End,
			Message: msg,
			Fixes: []analysis.Fix{{
				Title:         "Replace `" + u.ref.Name + "` with `" + to + "`",
				Applicability: fixSafety,
				Edits:         []analysis.TextEdit{{Start: u.ref.Start, End: u.ref.End, NewText: to}},
			}},
		}
		if anchor != nil {
			d.Related = []analysis.Related{{File: anchor.Path, Start: anchorUse.ref.Start, End: anchorUse.ref.End,
				Message: "the " + pass.Models().Noun() + " keys its core split on `" + anchorUse.ref.Name + "` here"}}
		}
		pass.Report(d)
	}
}

// findFamilyUse returns the first non-exempt guard of a family.
func findFamilyUse(f *grammar.File, uses []coreMacroUse, family string) (*grammar.File, coreMacroUse) {
	for _, u := range uses {
		if u.family == family && !u.exempt {
			return f, u
		}
	}
	return nil, coreMacroUse{}
}

// sameCoreMacro names a core's macro in a family.
func sameCoreMacro(core grammar.Cores, family string) string {
	for name, cm := range grammar.CoreMacros {
		if cm.Core == core && cm.Family == family {
			return name
		}
	}
	return ""
}
