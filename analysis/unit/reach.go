package unit

import (
	"context"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Reached is the code of a unit its kernels can run: the entry file's
// (the author's own code, whatever calls it), the kernels' (`__global__`,
// a macro-declared one included), then the headers' functions that code
// names, to a fixed point. Names are resolved as the summaries resolve
// calls, by name (overloads, methods of every class, a macro's body for
// its use), and more loosely, so that no call the analysis cannot follow
// hides code: any word of reached code that names a function reaches it
// (a function pointer, a callback passed to a template, a macro's
// argument), a type's name reaches its constructors, destructor and
// operators, and an object's call its class's operator(). A header
// function nothing reaches is library code the kernels do not run: its
// obligations are its callers' (a store a library API leaves to its
// flush function), and the rules judging kernels do not judge it. A unit
// with no kernel and no function taking the args pointer in its entry
// file (a kernel declared in a way the analysis does not read), or whose
// reached code includes a header no search finds (the code behind it may
// call anything), reaches everything: what it runs is unknown.
type Reached struct {
	all bool
	// entry is the unit's entry file: all of it is reached.
	entry *grammar.Tree
	fns   map[*grammar.Node]bool
	// files are the trees holding a reached function.
	files map[*grammar.Tree]bool
}

// Func reports whether the unit's entries reach function definition fn
// (any node of a function: its outermost enclosing definition decides).
func (r *Reached) Func(fn *grammar.Node) bool {
	if r == nil || r.all || fn == nil || fn.Tree() == r.entry {
		return true
	}
	for o := cxx.EnclosingDefinition(fn); o != nil; o = cxx.EnclosingDefinition(fn) {
		fn = o
	}
	return fn.Kind() != "function_definition" || r.fns[fn]
}

// At reports whether the code at byte off of f is reached: outside any
// function (declarations, directives) it is, inside one the function
// decides.
func (r *Reached) At(f *grammar.File, off uint32) bool {
	if r == nil || r.all || f == nil || f.Tree == nil || f.Tree == r.entry {
		return true
	}
	defs := f.Tree.OfKind("function_definition")
	// The last definition starting at or before off; an enclosing one
	// starts before it, so it is one of its ancestors.
	i := lastStarting(defs, off)
	if i < 0 {
		return true
	}
	var outer *grammar.Node
	for fn := defs[i]; fn != nil; fn = cxx.EnclosingDefinition(fn) {
		if fn.Start <= off && off < fn.End {
			outer = fn
		}
	}
	return outer == nil || r.fns[outer]
}

// lastStarting is the index of the last of defs (in source order) starting at or
// before off, -1 for none.
func lastStarting(defs []*grammar.Node, off uint32) int {
	i, _ := slices.BinarySearchFunc(defs, off+1, func(n *grammar.Node, off uint32) int {
		if n.Start < off {
			return -1
		}
		return 1
	})
	return i - 1
}

// Count is the number of functions reached (-1 when every function is).
func (r *Reached) Count() int {
	if r.all {
		return -1
	}
	return len(r.fns)
}

// Reached is the code of the unit its kernels can run.
func (u *Unit) Reached() *Reached { return Fact(u, reachedKey) }

var reachedKey = &UnitKey[*Reached]{
	Name: "unit.reached",
	Compute: func(ctx context.Context, u *Unit) *Reached {
		if len(u.Files) == 0 || u.Files[0].Tree == nil {
			return &Reached{all: true}
		}
		r := reach(ctx, u.FuncIndex(), u.Files[0], Fact(u, expansionsKey))
		if !r.all {
			// A quoted include of reached code that names no file of the
			// unit hides code the kernel may run, and that code may call
			// any function of the unit: nothing is known unreached.
			for _, x := range u.UnresolvedIncludes() {
				if x.File.Tree == r.entry || r.files[x.File.Tree] {
					return &Reached{all: true}
				}
			}
		}
		return r
	},
}

// reach walks fs from the entry file's code and the macro-declared
// kernels' expansions (Reached).
func reach(ctx context.Context, fs *cxx.Funcs, entry *grammar.File, expanded []*grammar.File) *Reached {
	r := &Reached{entry: entry.Tree, fns: map[*grammar.Node]bool{}, files: map[*grammar.Tree]bool{}}
	var work []*grammar.Node
	add := func(d cxx.FuncDef) {
		if !r.fns[d.Node] {
			r.fns[d.Node] = true
			r.files[d.File.Tree] = true
			work = append(work, d.Node)
		}
	}
	// Operators are reached through their class's name, free ones always
	// (`a + b` names no function).
	ops := map[string][]cxx.FuncDef{}
	kernels := false
	for _, d := range fs.All() {
		switch {
		case strings.HasPrefix(d.Name, "operator"):
			if c := cxx.ClassOf(d.Node); c != "" {
				ops[c] = append(ops[c], d)
			} else {
				add(d)
			}
		case IsKernelFunc(d.File, d.Node):
			add(d)
			kernels = true
		case d.File == entry && !kernels:
			_, kernels = cxx.ArgsParam(d.File, d.Node)
		}
	}
	if !kernels {
		return &Reached{all: true}
	}
	named := map[string]bool{}
	name := func(b []byte, typ bool) {
		if named[string(b)] {
			return
		}
		s := string(b)
		named[s] = true
		for _, d := range fs.Lookup(s) {
			add(d)
		}
		for _, d := range ops[s] {
			add(d)
		}
		if typ {
			for _, d := range fs.Lookup("~" + s) {
				add(d)
			}
		}
	}
	visit := func(ds []grammar.Node) {
		for i := range ds {
			n := &ds[i]
			switch n.Kind() {
			case "identifier", "field_identifier", "namespace_identifier":
				name(n.Bytes(), false)
			case "type_identifier":
				name(n.Bytes(), true)
			case "call_expression":
				// An object called (`Kernel k; k(params);`): its class's
				// operator().
				if c, ok := cxx.AsCall(n); ok && c.Receiver == nil && len(fs.Lookup(c.Name)) == 0 {
					for _, d := range fs.Callees(c) {
						add(d)
					}
				}
			}
		}
	}
	visit(entry.Tree.Nodes)
	for _, ef := range expanded {
		if ef.Tree != nil {
			visit(ef.Tree.Nodes)
		}
	}
	for len(work) > 0 {
		if ctx.Err() != nil {
			return &Reached{all: true}
		}
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if n.Tree() != entry.Tree {
			visit(n.Descendants())
		}
	}
	return r
}
