package abi

import (
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// DefReadHook is defReadHook, for the tests of package abi_test.
var DefReadHook = &defReadHook

// FindHelpers finds the args helpers defined in files, including helpers
// that forward to other helpers.
func FindHelpers(files ...*grammar.File) Helpers {
	parts := make([]*FileHelpers, len(files))
	for i, f := range files {
		parts[i] = ScanHelpers(f)
	}
	return JoinHelpers(parts...)
}

// Bind follows the unit whose entry file is entry through its call graph,
// looking up functions in files (the entry's closure): `run<true>(args)`
// binds WithRope=true, templates instantiated from a bound template with its
// own parameters (`inner<WithRope>(args)`) inherit the value, and calls in a
// branch discarded by a bound flag are not followed.
func Bind(entry *grammar.File, files []*grammar.File, consts *cxx.Resolver) *Bindings {
	if entry == nil || entry.Tree == nil {
		return nil
	}
	var defs []*FileDefs
	seen := map[*grammar.File]bool{entry: true}
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			defs = append(defs, IndexDefs(f))
		}
	}
	if consts == nil {
		consts = cxx.NewResolver(append(append([]*grammar.File(nil), files...), entry)...)
	}
	return BindDefs(entry, IndexDefs(entry), JoinDefs(defs), consts)
}
