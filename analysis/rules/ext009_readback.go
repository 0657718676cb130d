package rules

import (
	"slices"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// readBack is this core's own DMA read of a stored buffer that follows
// the store in program order, in another function than the store's,
// before any write-back of it: the function it is in.
type readBack struct {
	call *grammar.Node
	fn   *grammar.Node
}

// readBackDepth bounds the walk: levels down into callees and up into
// callers, each.
const readBackDepth = 4

// readBackLater finds this core's DMA read of memory o (a member or a
// global: the same name in every function of the file) after the store
// a, in program order, with no write-back covering o on the way: in a
// function a's function calls after the store, or after the call in a
// caller (up to the kernel) and the functions it calls after it
// (`Init() { ...; SetIdentity(); }` storing the diagonal, `Process() {
// DataCopy(ub, uGm[...]) }` reading it). A build that keeps the compiler's
// scalar dcci insertion does not write the dirty line out before this
// core's own MTE2 reads GM: an SVD kernel's history fixed this shape,
// in a default build, with a whole-cache write-back before the read.
// nil when none is found.
func readBackLater(pass *analysis.Pass, sum *cxx.Summaries, m *callersFlushMemo, a *cxx.Access, o cxx.Origin, cores grammar.Cores) *readBack {
	if o.Kind != cxx.NamedOrigin || local(a.Root(), a) {
		return nil
	}
	w := &readBackWalk{pass: pass, sum: sum, funcs: pass.Reach().FuncIndex(), o: o, cores: cores, down: map[*grammar.Node]int8{}, exits: m.exits, class: cxx.ClassOf(a.Func())}
	fn := a.Func()
	r, stop := w.in(fn, a.Node, 0)
	if r != nil || stop {
		return r
	}
	return w.up(m, fn, 0, map[*grammar.Node]bool{fn: true})
}

type readBackWalk struct {
	pass  *analysis.Pass
	sum   *cxx.Summaries
	funcs *cxx.Funcs
	o     cxx.Origin
	cores grammar.Cores
	// down memoizes a callee's answer from its start: 1 a read, 2 a
	// write-back first, 3 neither; reads by callee.
	down  map[*grammar.Node]int8
	reads map[*grammar.Node]*readBack
	exits blockReturns
	// class is the store's function's class: another class's member
	// of the name is another object's memory.
	class string
}

// in walks fn from after node after (its start for nil) to its end, or
// to a return ending after's path: the first DMA read of o, or stop when
// a write-back covering o comes first.
func (w *readBackWalk) in(fn, after *grammar.Node, depth int) (*readBack, bool) {
	if fn.Tree() != w.pass.File.Tree {
		return nil, true
	}
	from, end := fn.Start, fn.End
	if after != nil {
		from, end = after.End, w.exits.exitAfter(fn, after)
	}
	wbAt, written := end, false
	if wb := w.sum.Index(fn).NextCovering(cxx.WriteBack, w.o, w.cores, from, end, nil); wb >= 0 {
		wbAt, written = w.sum.Index(fn).Effect(wb).At.Start, true
	}
	for _, n := range w.funcs.OwnCalls(fn) {
		if n.Start < from {
			continue
		}
		if n.Start >= wbAt {
			return nil, written
		}
		if w.pass.Cores(n)&w.cores == 0 || after != nil && otherBranch(w.exits.chains, after, n) {
			// Not run, or on the other side of an if around after.
			continue
		}
		if r, ok := w.sum.DMARead(n); ok {
			if r.SameRegion(w.o) && (w.class == "" || cxx.ClassOf(fn) == w.class) {
				return &readBack{call: n, fn: fn}, false
			}
			continue
		}
		if depth >= readBackDepth {
			continue
		}
		c, ok := cxx.AsCall(n)
		if !ok {
			continue
		}
		for _, d := range w.funcs.OfClass(n, c, w.funcs.Callees(c)) {
			if d.Node == fn || d.File != w.pass.File || !cxx.Takes(d.Node, len(c.Args)) {
				continue
			}
			r, stop := w.callee(d.Node, depth+1)
			if r != nil {
				return r, false
			}
			if stop {
				return nil, true
			}
		}
	}
	// A write-back ends the walk; a return goes on in the callers.
	return nil, written
}

// callee is in from the start of fn, memoized.
func (w *readBackWalk) callee(fn *grammar.Node, depth int) (*readBack, bool) {
	switch w.down[fn] {
	case 1:
		return w.reads[fn], false
	case 2:
		return nil, true
	case 3:
		return nil, false
	case 4:
		// On the way: a recursive call.
		return nil, false
	}
	w.down[fn] = 4
	r, stop := w.in(fn, nil, depth)
	switch {
	case r != nil:
		w.down[fn] = 1
		if w.reads == nil {
			w.reads = map[*grammar.Node]*readBack{}
		}
		w.reads[fn] = r
	case stop:
		w.down[fn] = 2
	default:
		w.down[fn] = 3
	}
	return r, stop
}

// up continues after each call of fn in its callers of the file, and
// theirs, up to a kernel: the first read any path reaches.
func (w *readBackWalk) up(m *callersFlushMemo, fn *grammar.Node, depth int, seen map[*grammar.Node]bool) *readBack {
	if depth >= readBackDepth {
		return nil
	}
	m.index(w.funcs)
	all := w.funcs.All()
	for _, site := range m.byName[cxx.FunctionName(fn)] {
		def := all[site.def]
		if seen[def.Node] || def.File != w.pass.File {
			continue
		}
		call := w.funcs.Calls(def.Node)[site.i]
		// The call runs fn, not a same-named method of another class.
		if c, ok := cxx.AsCall(call); !ok || !cxx.Takes(fn, len(c.Args)) || !slices.ContainsFunc(w.funcs.OfClass(call, c, w.funcs.Callees(c)), func(d cxx.FuncDef) bool { return d.Node == fn }) {
			continue
		}
		r, stop := w.in(def.Node, call, 0)
		if r != nil {
			return r
		}
		if stop {
			continue
		}
		seen[def.Node] = true
		if r := w.up(m, def.Node, depth+1, seen); r != nil {
			return r
		}
	}
	return nil
}
