package abi

import "github.com/extern-lsp/extern-lsp/grammar"

// HasArgsFunctions reports whether some function of f takes an args
// pointer. Every access Accesses reports sits in such a function, so a file
// without one (most vendored headers) has none, whatever its unit.
func HasArgsFunctions(f *grammar.File) bool {
	if f == nil || f.Tree == nil || f.Lang != grammar.CPP {
		return false
	}
	for _, n := range f.Tree.OfKind("function_definition") {
		if readFnParams(f, n).args != "" {
			return true
		}
	}
	return false
}
