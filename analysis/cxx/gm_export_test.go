package cxx

import "github.com/extern-lsp/extern-lsp/grammar"

// The GM model's entry points only tests use.

// NewGM builds the model of f. includes are the workspace files f
// includes, whose struct members, type aliases, GM-returning functions and
// dcci helpers are taken into account.
func NewGM(ff FileFacts, f *grammar.File, includes []*grammar.File) *GM {
	ff = factsOr(ff)
	if f == nil || f.Tree == nil {
		return newGM(f)
	}
	return buildGM(ff, f, gmFiles(includes))
}

// Dccis returns the dcci calls (and dcci helper calls) directly in fn, in
// source order; fn nil gives those outside any function.
func (g *GM) Dccis(fn *grammar.Node) []Dcci {
	fd, ok := g.fnDccis(fn)
	if !ok {
		return nil
	}
	ds := make([]Dcci, len(fd.recs))
	for i := range ds {
		ds[i] = fd.dcci(int32(i))
	}
	return ds
}

// FlushedAfter returns a dcci after the access in its function that
// writes the lines of the same memory (or of the entire cache) out. nil
// when there is none.
func (g *GM) FlushedAfter(a Access) *Dcci {
	return g.FlushedBefore(a, ^uint32(0))
}
