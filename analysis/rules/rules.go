// Package rules holds extern-lsp's analyzers, one file per rule, each with
// its documentation and a fixture under testdata/. A rule asks the pass's
// units (analysis/unit) for the models it reads; a model only one rule
// reads is a key in that rule's file, and the helper files here
// (abifacts.go, gmcoherence.go, shared.go, ...) hold judgements several
// rules share over the units' models, no model of their own.
package rules

import (
	"sort"

	"github.com/extern-lsp/extern-lsp/analysis"
)

var all []*analysis.Analyzer

// register adds a rule to the list All returns; each rule file registers
// itself so adding a rule touches no shared file.
func register(a *analysis.Analyzer) *analysis.Analyzer {
	all = append(all, a)
	return a
}

// All returns every rule, ordered by code.
func All() []*analysis.Analyzer {
	out := append([]*analysis.Analyzer(nil), all...)
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Lookup finds a rule by code or name (case-insensitive).
func Lookup(codeOrName string) *analysis.Analyzer {
	return analysis.Lookup(all, codeOrName)
}
