package rules

import (
	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/analysis/unit"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// pollReaders are a file's reads of GM, by DMA and by scalar loads, each
// at the memory it reads with members followed to what the unit binds
// them to (Summaries.BoundOrigin): a status word stored through a local
// tensor bound into a window and polled through a member tensor bound
// into the same window is one word. Built once per file pass.
type pollReaders struct {
	reads  []pollRead
	fields map[string]bool // the data members the file declares
	built  bool
}

type pollRead struct {
	o     cxx.Origin
	at    *grammar.Node
	polls bool
}

// onlyPolled reports whether every read of the memory o a store writes
// (at what the unit binds it to) that can run after the store's signal
// polls it: reads it in a loop that repeats until the value read
// changes, so a write-back landing late only delays the reader. The
// reads after the signal are those of after (afterSignal). It holds only
// for memory at a data member the file declares, whose readers go
// through the file's class (code of other files in after naming none of
// its data members), and when at least one read is found: a store no
// read meets is someone else's to read.
func (pr *pollReaders) onlyPolled(pass *analysis.Pass, gm *cxx.GM, sum *cxx.Summaries, o cxx.Origin, after map[*grammar.Node]uint32) bool {
	if !pr.built {
		pr.build(pass, gm, sum)
	}
	if o.Kind != cxx.NamedOrigin || !pr.fields[o.Name] {
		return false
	}
	for fn, from := range after {
		if fn.Tree() != pass.File.Tree && (namesAnyFrom(fn, from, pr.fields) || readsGM(sum, fn, from)) {
			return false
		}
	}
	o = sum.BoundOrigin(o)
	found := false
	for _, r := range pr.reads {
		fn := cxx.EnclosingFunction(r.at)
		if from, ok := after[fn]; !ok || fn == nil || r.at.Start < from {
			continue
		}
		if !r.o.SameRegion(o) && r.o.Kind != cxx.ParamOrigin && r.o.Known() {
			// A read through a parameter may be of the word: its
			// caller names the memory.
			continue
		}
		if !r.polls {
			return false
		}
		found = true
	}
	return found
}

// polledAfter is onlyPolled for the reads that can run after point from
// of fn (afterSignal).
func (pr *pollReaders) polledAfter(pass *analysis.Pass, gm *cxx.GM, sum *cxx.Summaries, memo *callersFlushMemo, o cxx.Origin, fn *grammar.Node, from uint32) bool {
	if o.Kind != cxx.NamedOrigin {
		return false
	}
	after, ok := afterSignal(sum, pass.Reach().FuncIndex(), memo, fn, from)
	return ok && pr.onlyPolled(pass, gm, sum, o, after)
}

// afterSignal is the code that can run after point from of fn, by
// function and the offset it starts at: the rest of fn (from the start
// of the outermost loop around from: its next pass), the whole of each
// function it calls there, and, in each caller, what follows the call,
// up to the callers no function calls. ok is false when the walk is cut
// short (too deep) or reaches a function nothing calls that is not a
// kernel: its callers are not known.
func afterSignal(sum *cxx.Summaries, funcs *cxx.Funcs, memo *callersFlushMemo, fn *grammar.Node, from uint32) (map[*grammar.Node]uint32, bool) {
	memo.index(funcs)
	all := funcs.All()
	out := map[*grammar.Node]uint32{}
	ok := true
	var down func(fn *grammar.Node, from uint32, depth int)
	down = func(fn *grammar.Node, from uint32, depth int) {
		if at, seen := out[fn]; seen && at <= from {
			return
		}
		if depth > 8 {
			ok = false
			return
		}
		fn.Walk(func(p *grammar.Node) bool {
			if p.End <= from || p.Start >= from {
				return p.Start < from
			}
			if isLoop(p) {
				from = p.Start // the outermost loop around from
				return false
			}
			return true
		})
		if at, seen := out[fn]; seen && at <= from {
			return
		}
		out[fn] = from
		for _, n := range funcs.Calls(fn) {
			if n.Start < from {
				continue
			}
			if c, isCall := cxx.AsCall(n); isCall {
				for _, d := range funcs.Callees(c) {
					if d.Node != fn {
						down(d.Node, d.Node.Start, depth+1)
					}
				}
			}
		}
	}
	var up func(fn *grammar.Node, from uint32, depth int)
	up = func(fn *grammar.Node, from uint32, depth int) {
		if !ok {
			return
		}
		down(fn, from, depth)
		if depth > 6 {
			ok = false
			return
		}
		sites := memo.byName[cxx.FunctionName(fn)]
		if len(sites) == 0 {
			if f := sum.FileOf(fn); f == nil || !unit.IsKernelFunc(f, fn) {
				ok = false
			}
			return
		}
		for _, site := range sites {
			def := all[site.def]
			call := funcs.Calls(def.Node)[site.i]
			if def.Node == fn || otherClassCall(funcs, call, def.Node, fn) {
				continue
			}
			up(def.Node, call.End, depth+1)
		}
	}
	up(fn, from, 0)
	return out, ok
}

// readsGM reports whether fn, from offset from on, reads GM by DMA or
// through a GlobalTensor's GetValue: code of another file whose reads the
// file's model does not hold.
func readsGM(sum *cxx.Summaries, fn *grammar.Node, from uint32) bool {
	found := false
	fn.Walk(func(n *grammar.Node) bool {
		if found || n.End < from {
			return !found
		}
		if n.Kind() == "call_expression" && n.Start >= from {
			if _, ok := sum.DMARead(n); ok {
				found = true
			} else if c, ok := cxx.AsCall(n); ok && c.Name == "GetValue" && c.Receiver != nil {
				found = true
			}
		}
		return !found
	})
	return found
}

// otherClassCall reports whether call, in method caller, runs a method of
// caller's own class of fn's name rather than fn, a method of another
// class: an unqualified call (or one through this) in a method calls
// its class's own method when the class defines one.
func otherClassCall(funcs *cxx.Funcs, call, caller, fn *grammar.Node) bool {
	c, ok := cxx.AsCall(call)
	if !ok {
		return false
	}
	if r := cxx.Unparen(c.Receiver); r != nil && r.Kind() != "this" {
		return false
	}
	mine, theirs := cxx.ClassOf(caller), cxx.ClassOf(fn)
	if mine == "" || theirs == "" || mine == theirs {
		return false
	}
	for _, d := range funcs.Lookup(cxx.FunctionName(fn)) {
		if cxx.ClassOf(d.Node) == mine {
			return true
		}
	}
	return false
}

// namesAnyFrom reports whether fn, from offset from on, names one of
// names (as a variable or a field).
func namesAnyFrom(fn *grammar.Node, from uint32, names map[string]bool) bool {
	found := false
	fn.Walk(func(n *grammar.Node) bool {
		if found || n.End < from {
			return !found
		}
		if n.Start >= from && (n.Kind() == "identifier" || n.Kind() == "field_identifier") && names[n.Text()] {
			found = true
		}
		return !found
	})
	return found
}

func (pr *pollReaders) build(pass *analysis.Pass, gm *cxx.GM, sum *cxx.Summaries) {
	pr.built = true
	pr.fields = map[string]bool{}
	for _, d := range pass.File.Tree.OfKind("field_declaration") {
		for _, k := range d.NamedChildren() {
			if k.Field() == "declarator" && k.Kind() != "function_declarator" {
				if n := cxx.DeclaredName(k); n != "" {
					pr.fields[n] = true
				}
			}
		}
	}
	for _, n := range pass.File.Tree.OfKind("call_expression") {
		if r, ok := sum.DMARead(n); ok {
			pr.reads = append(pr.reads, pollRead{o: sum.BoundOrigin(r), at: n, polls: dmaPolls(n)})
		}
	}
	accs := gm.Accesses()
	for i := range accs {
		if r := &accs[i]; r.Kind != cxx.Write && r.Func() != nil {
			pr.reads = append(pr.reads, pollRead{o: sum.BoundOrigin(sum.OriginOf(r.Ptr())), at: r.Node, polls: polled(gm, r)})
		}
	}
}

// dmaPolls reports whether DMA read call sits in a loop that only ends on
// what it read: `while (true) { DataCopy(ub, flag, n); ...; if
// (ub.GetValue(0) == want) break; }`. The loop's test, when it has one,
// and the test of every break leaving it read the destination or a local
// of the loop taken from it, and no return or goto leaves it.
func dmaPolls(call *grammar.Node) bool {
	c, ok := cxx.AsCall(call)
	if !ok || len(c.Args) < 2 {
		return false
	}
	dst := cxx.Root(c.Args[0])
	fn := cxx.EnclosingFunction(call)
	if dst == "" || fn == nil {
		return false
	}
	var loop *grammar.Node
	for p := call.Parent(); p != nil && p != fn; p = p.Parent() {
		if isLoop(p) {
			loop = p
			break
		}
	}
	if loop == nil || loop.Kind() == "for_range_loop" {
		return false
	}
	// The names carrying what the read brought in: the destination and
	// the loop's locals assigned from an expression naming one of them.
	carriers := map[string]bool{dst: true}
	for grew := true; grew; {
		grew = false
		loop.Walk(func(n *grammar.Node) bool {
			var name string
			var val *grammar.Node
			switch n.Kind() {
			case "init_declarator":
				name, val = cxx.DeclaredName(n.ChildByField("declarator")), n.ChildByField("value")
			case "assignment_expression":
				if l := cxx.Unparen(n.ChildByField("left")); l != nil && l.Kind() == "identifier" {
					name, val = l.Text(), n.ChildByField("right")
				}
			}
			if name != "" && !carriers[name] && namesAny(val, carriers) {
				carriers[name], grew = true, true
			}
			return true
		})
	}
	exits := 0
	cond := cxx.ConditionOf(loop)
	if loop.Kind() == "do_statement" {
		cond = loop.ChildByField("condition")
	}
	if cond = cxx.Unparen(cond); cond != nil {
		if v, isConst := constTrue(cond); !isConst {
			if !namesAny(cond, carriers) {
				return false
			}
			exits++
		} else if !v {
			return false
		}
	} else if loop.Kind() == "for_statement" && (loop.ChildByField("initializer") != nil || loop.ChildByField("update") != nil) {
		return false // a counted loop with its test elsewhere
	}
	ok = true
	loop.Walk(func(n *grammar.Node) bool {
		if !ok {
			return false
		}
		switch n.Kind() {
		case "return_statement", "goto_statement":
			ok = false
		case "lambda_expression":
			return false
		case "break_statement":
			if breaksOut(n, loop) {
				if t := enclosingTest(n, loop); t == nil || !namesAny(cxx.ConditionOf(t), carriers) {
					ok = false
				}
				exits++
			}
		}
		return true
	})
	return ok && exits > 0
}

// breaksOut reports whether break b leaves loop (not an inner loop or
// switch).
func breaksOut(b, loop *grammar.Node) bool {
	for p := b.Parent(); p != nil && p != loop; p = p.Parent() {
		if isLoop(p) || p.Kind() == "switch_statement" {
			return false
		}
	}
	return true
}

// enclosingTest is the innermost if statement around n inside loop.
func enclosingTest(n, loop *grammar.Node) *grammar.Node {
	for p := n.Parent(); p != nil && p != loop; p = p.Parent() {
		if p.Kind() == "if_statement" {
			return p
		}
	}
	return nil
}

// namesAny reports whether e reads one of names.
func namesAny(e *grammar.Node, names map[string]bool) bool {
	found := false
	if e != nil {
		e.Walk(func(n *grammar.Node) bool {
			if n.Kind() == "identifier" && names[n.Text()] {
				found = true
			}
			return !found
		})
	}
	return found
}

// constTrue reports a loop test's value when it is a constant
// (`true`, `1`).
func constTrue(c *grammar.Node) (v, ok bool) {
	switch c.Kind() {
	case "true":
		return true, true
	case "false":
		return false, true
	case "number_literal":
		return c.Text() != "0", true
	}
	return false, false
}
