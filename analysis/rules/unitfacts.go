package rules

import (
	"context"
	"path/filepath"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/workspace"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Models several rules share, memoized per unit.

// gmKey is the GM model of a closure's file (its includes' structs,
// aliases and helpers taken into account), over the includes' GMEnv: an
// edit of the file reuses what its includes make.
var gmKey = &analysis.UnitKey[*cxx.GM]{
	Name: "rules.gm",
	Compute: func(ctx context.Context, u *analysis.Unit) *cxx.GM {
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
// will need: it is built first, then extended, so an entry checked before
// its header does not build two environments of the same headers.
func includesGMEnv(ctx context.Context, u *analysis.Unit) *cxx.GMEnv {
	hs := u.Headers()
	if len(hs) > 1 {
		rest, ok := analysis.CachedUnitFact(u.Part("gm-includes", hs[1:]), gmEnvKey)
		if !ok && soleInclude(u.Files[0], hs) {
			rest, ok = analysis.UnitFactOf(ctx, u.Part("gm-includes", hs[1:]), gmEnvKey), true
		}
		if ok {
			if env := cxx.PrependGMEnv(u, hs[0], rest); env != nil {
				return env
			}
		}
	}
	return analysis.UnitFactOf(ctx, u.Part("gm-includes", hs), gmEnvKey)
}

// soleInclude reports whether hs[0] is likely the only header f includes
// itself (the others reached through it): of f's quoted includes, one
// names a file of hs, and that is hs[0]. A guess by file names, which
// decides only what is built first (PrependGMEnv checks the result).
func soleInclude(f *grammar.File, hs []*grammar.File) bool {
	found := false
	for _, inc := range f.Includes {
		if inc.System {
			continue
		}
		base := filepath.Base(inc.Path)
		for i, h := range hs {
			if filepath.Base(h.Path) != base {
				continue
			}
			if i > 0 || found {
				return false
			}
			found = true
		}
	}
	return found
}

// gmEnvKey is what a list of included files makes of a GM model.
var gmEnvKey = &analysis.UnitKey[*cxx.GMEnv]{
	Name:    "rules.gmEnv",
	Compute: func(_ context.Context, u *analysis.Unit) *cxx.GMEnv { return cxx.NewGMEnv(u, u.Files) },
}

// fileGM returns the file's GM model.
func fileGM(pass *analysis.Pass) *cxx.GM { return analysis.UnitFact(pass, pass.Closure(), gmKey) }

// funcsKey indexes the functions defined in a unit's files.
var funcsKey = &analysis.UnitKey[*cxx.Funcs]{
	Name:    "rules.funcs",
	Compute: func(_ context.Context, u *analysis.Unit) *cxx.Funcs { return cxx.FuncsOf(u, u.CodeFiles()...) },
}

// workspaceFuncs is the shared index of the functions defined in the file
// and its workspace includes.
func workspaceFuncs(pass *analysis.Pass) *cxx.Funcs {
	return analysis.UnitFact(pass, pass.Closure(), funcsKey)
}

// unitFuncs indexes the functions of every file of every extern unit the
// file belongs to (its includes, the entries that include it and theirs),
// to find a helper's callers from the helper's header.
func unitFuncs(pass *analysis.Pass) *cxx.Funcs {
	return analysis.UnitFact(pass, pass.Reach(), funcsKey)
}

// summariesKey summarizes the functions of a unit's files: provenance,
// cache maintenance, barriers, DMA writes, facts from the callers.
var summariesKey = &analysis.UnitKey[*cxx.Summaries]{
	Name: "rules.summaries",
	Compute: func(ctx context.Context, u *analysis.Unit) *cxx.Summaries {
		return cxx.SummarizeWith(u, analysis.UnitFactOf(ctx, u, funcsKey), u.CodeFiles()...)
	},
}

// unitSummaries summarizes every function the file's compiles see (its
// includes, the entries that include it and theirs): a helper's callers
// are found from the helper's header.
func unitSummaries(pass *analysis.Pass) *cxx.Summaries {
	return analysis.UnitFact(pass, pass.Reach(), summariesKey)
}

// nameDef is a definition giving a name a value: `T x = v;` or `x = v`
// (also `this->x_ = v`, `ctx.x = v`).
type nameDef struct{ name, value *grammar.Node }

// nameDefsKey lists a unit's definitions in file and source order, for the
// rules that follow which names derive from a core or lane id.
var nameDefsKey = &analysis.UnitKey[[]nameDef]{
	Name: "rules.nameDefs",
	Compute: func(_ context.Context, u *analysis.Unit) []nameDef {
		var defs []nameDef
		for _, f := range u.Files {
			for i := range f.Tree.Nodes {
				n := &f.Tree.Nodes[i]
				switch n.Kind() {
				case "init_declarator":
					if d, v := n.ChildByField("declarator"), n.ChildByField("value"); d != nil && v != nil {
						defs = append(defs, nameDef{d, v})
					}
				case "assignment_expression":
					if l, r := n.ChildByField("left"), n.ChildByField("right"); l != nil && r != nil {
						defs = append(defs, nameDef{l, r})
					}
				}
			}
		}
		return defs
	},
}

// kindCores is the cores the file's extern kind compiles it for: one for an
// AIV- or AIC-only extern, both otherwise.
func kindCores(pass *analysis.Pass) grammar.Cores {
	if pass.Ctx != nil {
		switch pass.Ctx.Kind {
		case workspace.KindAIV:
			return grammar.AIV
		case workspace.KindAIC:
			return grammar.AIC
		}
	}
	return grammar.Both
}

// derivedNames follows a unit's definitions to the names whose value reads
// a seed (as reads judges it, given the names found so far) or another such
// name, over three rounds (as far as chains in real kernels go). added is
// told of each name with the definition that made it one.
func derivedNames(defs []nameDef, reads func(names map[string]bool, value *grammar.Node) bool, added func(name string, d nameDef)) map[string]bool {
	names := map[string]bool{}
	for round := 0; round < 3; round++ {
		changed := false
		for _, d := range defs {
			name := cxx.DeclaredName(d.name)
			if name == "" {
				name = laneRootName(d.name)
			}
			if name == "" || names[name] || !reads(names, d.value) {
				continue
			}
			names[name] = true
			if added != nil {
				added(name, d)
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	return names
}
