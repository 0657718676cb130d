package unit

import (
	"context"
	"slices"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Models several rules share, memoized per unit.

// gmKey is the GM model of a closure's file (its includes' structs,
// aliases and helpers taken into account), over the includes' GMEnv: an
// edit of the file reuses what its includes make.
var gmKey = &UnitKey[*cxx.GM]{
	Name: "unit.gm",
	Compute: func(ctx context.Context, u *Unit) *cxx.GM {
		return cxx.NewGMWith(u, u.Files[0], includesGMEnv(ctx, u))
	},
}

// includesGMEnv is the GMEnv of a closure's includes. An entry includes
// its body header first, then what the header includes: when the header's
// model has built the environment of those, the entry's is made from it
// (an edit of the header then builds one environment, not two).
//
// When the file's only include is the header (an entry and its body), the
// rest is the header's own includes, whose environment the header's model
// will need: it is built first, the same way (includesEnvKey), then
// extended, so an entry checked before its header does not build two
// environments of the same headers, and a chain of headers each including
// the next builds each level's once, from the level below (each built
// afresh made a chain of 1,500 headers quadratic). A header of #includes
// alone has no model (no rule runs on it): the environment of its
// includes is not built for it.
func includesGMEnv(ctx context.Context, u *Unit) *cxx.GMEnv {
	hs := u.Headers()
	if len(hs) > 1 {
		rest, ok := Cached(u.Part("gm-includes", hs[1:]), gmEnvKey)
		if !ok && soleInclude(u, u.Files[0], hs) && !OnlyIncludes(hs[0]) {
			rest, ok = Fact(u.Part("gm-closure", hs), includesEnvKey), true
		}
		if ok {
			if env := cxx.PrependGMEnv(u, hs[0], rest); env != nil {
				return env
			}
		}
	}
	return Fact(u.Part("gm-includes", hs), gmEnvKey)
}

// includesEnvKey is includesGMEnv of a closure (a Part of the closure's
// files, the file first).
var includesEnvKey = &UnitKey[*cxx.GMEnv]{Name: "unit.includesGMEnv"}

func init() { includesEnvKey.Compute = includesGMEnv } // it recurses through the key

// soleInclude reports whether hs[0] is the only header of u that f
// includes itself (the others reached through it). It decides only what
// is built first (PrependGMEnv checks the result).
func soleInclude(u *Unit, f *grammar.File, hs []*grammar.File) bool {
	found := false
	for _, inc := range f.Includes {
		t := u.Resolve(f, inc)
		if t == nil || !slices.Contains(hs, t) {
			continue
		}
		if t != hs[0] || found {
			return false
		}
		found = true
	}
	return found
}

// gmEnvKey is what a list of included files makes of a GM model.
var gmEnvKey = &UnitKey[*cxx.GMEnv]{
	Name:    "unit.gmEnv",
	Compute: func(_ context.Context, u *Unit) *cxx.GMEnv { return cxx.NewGMEnv(u, u.Files) },
}

// GM is the GM model of the unit's first file over its includes (of a
// file's closure: the file's model).
func (u *Unit) GM() *cxx.GM { return Fact(u, gmKey) }

// funcsKey indexes the functions defined in a unit's files.
var funcsKey = &UnitKey[*cxx.Funcs]{
	Name:    "unit.funcs-index",
	Compute: func(_ context.Context, u *Unit) *cxx.Funcs { return cxx.FuncsOf(u, u.CodeFiles()...) },
}

// FuncIndex indexes the functions defined in the unit's files and macro
// bodies (of a file's reach: to find a helper's callers from its header).
func (u *Unit) FuncIndex() *cxx.Funcs { return Fact(u, funcsKey) }

// summariesKey summarizes the functions of a unit's files: provenance,
// cache maintenance, barriers, DMA writes, facts from the callers.
var summariesKey = &UnitKey[*cxx.Summaries]{
	Name: "unit.summaries",
	Compute: func(ctx context.Context, u *Unit) *cxx.Summaries {
		s := cxx.SummarizeWith(u, Fact(u, funcsKey), u.CodeFiles()...).Metered(cxx.MeterOf(ctx))
		if len(u.Files) > 2 {
			// The calls of the files after the first are joined once for
			// every unit holding those parses: an edit of the entry (or of
			// a header's closure, the header first) joins the edited
			// file's calls with them, not the unit's thousands again.
			part := u.Part("calls", u.Files[1:])
			s = s.JoinCallers(func() *cxx.Calls { return Fact(part, joinedCallsKey) })
		}
		return s
	},
	Steps: true,
}

// joinedCallsKey joins the calls of a part's files by called name.
var joinedCallsKey = &UnitKey[*cxx.Calls]{
	Name:    "unit.joined-calls",
	Compute: func(_ context.Context, u *Unit) *cxx.Calls { return cxx.JoinCalls(u, u.Files...) },
}

// Summaries summarizes every function of the unit: provenance, cache
// maintenance, barriers, DMA writes, facts from the callers.
func (u *Unit) Summaries() *cxx.Summaries { return Fact(u, summariesKey) }

// NameDef is a definition giving a name a value: `T x = v;` or `x = v`
// (also `this->x_ = v`, `ctx.x = v`).
type NameDef struct{ Name, Value *grammar.Node }

// nameDefsKey lists a unit's definitions in file and source order, for the
// rules that follow which names derive from a core or lane id.
var nameDefsKey = &UnitKey[[]NameDef]{
	Name: "unit.nameDefs",
	Compute: func(_ context.Context, u *Unit) []NameDef {
		var defs []NameDef
		for _, f := range u.Files {
			for i := range f.Tree.Nodes {
				n := &f.Tree.Nodes[i]
				switch n.Kind() {
				case "init_declarator":
					if d, v := n.ChildByField("declarator"), n.ChildByField("value"); d != nil && v != nil {
						defs = append(defs, NameDef{d, v})
					}
				case "assignment_expression":
					if l, r := n.ChildByField("left"), n.ChildByField("right"); l != nil && r != nil {
						defs = append(defs, NameDef{l, r})
					}
				case "field_initializer":
					// A constructor's `aivIdx(GetBlockIdx())`: the member's
					// value, when one argument gives it.
					if kids := n.NamedChildren(); len(kids) == 2 && kids[0].Kind() == "field_identifier" {
						if args := kids[1].NamedChildren(); len(args) == 1 && args[0].Kind() != "comment" {
							defs = append(defs, NameDef{kids[0], args[0]})
						}
					}
				}
			}
		}
		return defs
	},
}

// NameDefs lists the unit's definitions in file and source order.
func (u *Unit) NameDefs() []NameDef { return Fact(u, nameDefsKey) }

// OnlyIncludes reports whether f holds nothing but #includes, include
// guards, pragmas and comments: no declaration, no macro with a value.
func OnlyIncludes(f *grammar.File) bool {
	if f.Tree == nil || f.Lang != grammar.CPP {
		return false
	}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if !n.IsNamed() {
			continue
		}
		switch n.Kind() {
		case "translation_unit", "comment", "preproc_include", "string_literal", "string_content", "escape_sequence",
			"system_lib_string", "preproc_ifdef", "preproc_def", "preproc_call", "preproc_directive":
		case "identifier":
			if n.Field() != "name" {
				return false
			}
		case "preproc_arg":
			if n.Field() != "argument" {
				return false // a #define's value
			}
		default:
			return false
		}
	}
	return true
}
