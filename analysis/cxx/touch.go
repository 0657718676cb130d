package cxx

import (
	"slices"
	"sort"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A line of GM gets into a core's scalar data cache only when that core's
// scalar unit loads or stores through it: the runtime invalidates the
// cache at the start of every task, DMA (MTE) bypasses it, and the
// library's signal primitives clean and invalidate the line around their
// atomic store. So a read after a cross-core wait can be stale only when
// this core touched the memory before the writers' data arrived: before
// the wait, inside it (a poll of a signal word of that region), or on an
// earlier turn of a loop around it. Touches records those accesses.
//
// Regions carved at different constant offsets of one buffer are told
// apart (Origin.SameRegion), as everywhere else in the model: a region
// boundary is assumed not to split a cache line between what a wait
// publishes and what this core touched.

// Touch is one scalar access through the scalar cache: a load, a store,
// or a poll of a signal word.
type Touch struct {
	// origin is the memory, shared as an Effect's is.
	origin *Origin
	// At is the node of the summarized function the access happens at:
	// the access, or the call of the helper that does it.
	At *grammar.Node
	// Site is the access itself, possibly in a helper, in SiteFile.
	Site     *grammar.Node
	SiteFile *grammar.File
	Cores    grammar.Cores
}

// Origin is the memory accessed.
func (t Touch) Origin() Origin { return t.origin.value() }

type touchKey struct {
	fn, wait *grammar.Node
	o        *Origin // shared (Summaries.intern)
	inside   bool
}

// touchesOf returns fn's scalar accesses of known memory in source order,
// with the calls to functions of the unit expanded in place (At is then
// the call). Origins are relative to fn's parameters.
func (s *Summaries) touchesOf(fn *grammar.Node) []Touch {
	return expand(s, s.touches, fn, func(ts []Touch) bool { return len(ts) == 0 }, func() []Touch { return s.computeTouches(fn) })
}

func (s *Summaries) computeTouches(fn *grammar.Node) []Touch {
	body := fn.ChildByField("body")
	f := s.FileOf(fn)
	if body == nil || f == nil {
		return nil
	}
	var out []Touch
	add := func(o Origin, n *grammar.Node) {
		if !o.Known() {
			return
		}
		if cores := s.coresIn(f, n); cores != grammar.None {
			out = append(out, Touch{origin: s.intern(o), At: n, Site: n, SiteFile: f, Cores: cores})
		}
	}
	ds := body.Descendants()
	if s.spend(len(ds)) {
		return nil
	}
	for i := range ds {
		n := &ds[i]
		switch n.Kind() {
		case "subscript_expression", "pointer_expression", "field_expression":
			if EnclosingFunction(n) != fn {
				continue
			}
			if n.Kind() == "subscript_expression" && tensorArgument(n) {
				continue
			}
			if o, ok := s.accessOrigin(n); ok {
				add(o, n)
			}
		case "call_expression":
			c, ok := AsCall(n)
			if !ok || s.coresIn(f, n) == grammar.None {
				continue
			}
			if c.Receiver != nil && (c.Name == "GetValue" || c.Name == "SetValue") && len(c.Args) > 0 {
				// GlobalTensor::GetValue/SetValue load and store through
				// the scalar cache as `p[i]` does.
				o := s.originOf(c.Receiver)
				if !o.Known() {
					o = s.tensorViewOrigin(c.Receiver)
				}
				add(o, n)
				continue
			}
			if c.Name == "TWAIT" && c.Receiver == nil && len(c.Args) > 0 {
				// The poll loads the signal's line (after a dcci) and
				// leaves it cached.
				add(s.originOf(c.Args[0]), n)
				continue
			}
			for _, d := range s.funcs.Callees(c) {
				if d.Node == fn || s.coresOf(d.Node) == grammar.None || d.Body() == nil {
					continue
				}
				cores := s.coresIn(f, n)
				for _, t := range condenseTouches(s.touchesOf(d.Node)) {
					if t.At.Tree() == d.Node.Tree() && s.deadForCall(d.Node, t.At, n, fn) {
						continue
					}
					t.origin = s.intern(s.substitute(t.Origin(), c, n))
					t.At = n
					t.Cores &= cores
					if t.origin != nil && t.origin.Known() && t.Cores != grammar.None {
						out = append(out, t)
					}
				}
				break
			}
		}
	}
	return out
}

// tensorArgument reports whether a subscript is a tensor view handed to a
// tensor API (`DataCopy(ub, g[i], n)`, `g[i].GetValue(0)`), which loads
// nothing through the scalar cache itself.
func tensorArgument(n *grammar.Node) bool {
	p := n.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		p = p.Parent()
	}
	if p == nil {
		return false
	}
	if p.Kind() == "field_expression" && operatorText(p) == "." {
		if c := p.Parent(); c != nil && c.Kind() == "call_expression" && p.Field() == "function" {
			name := CallName(c)
			return name == "GetValue" || name == "SetValue" || name == "GetPhyAddr"
		}
		return false
	}
	if p.Kind() != "argument_list" {
		return false
	}
	c := p.Parent()
	return c != nil && c.Kind() == "call_expression" && tensorArgCalls[CallName(c)]
}

// accessOrigin is the memory a scalar access through the scalar cache at n
// loads or stores: `p[i]`, `*p`, `p->f`, in any value context (a load, a
// store, or both). Taking an address, the args[] slots and the tensor
// descriptor fields are not accesses of the tensor's data.
func (s *Summaries) accessOrigin(n *grammar.Node) (Origin, bool) {
	var base *grammar.Node
	switch n.Kind() {
	case "subscript_expression":
		base = Unparen(n.ChildByField("argument"))
		if base != nil && base.Kind() == "identifier" && s.isArgsName(base) {
			return Origin{}, false
		}
		if base != nil && s.globalTensor(base) {
			// `g[i]` of a GlobalTensor is a view (`auto row = g[i];`),
			// not a load.
			return Origin{}, false
		}
	case "pointer_expression":
		if operatorText(n) != "*" {
			return Origin{}, false
		}
		base = n.ChildByField("argument")
	case "field_expression":
		if operatorText(n) != "->" {
			return Origin{}, false
		}
		if fld := n.ChildByField("field"); fld == nil || descriptorFields[fld.Text()] {
			return Origin{}, false
		}
		if p := n.Parent(); p != nil && p.Kind() == "call_expression" && n.Field() == "function" {
			return Origin{}, false
		}
		base = n.ChildByField("argument")
	}
	if base == nil {
		return Origin{}, false
	}
	if _, ok := accessContext(n); !ok {
		return Origin{}, false
	}
	o := s.originOf(base)
	return o, o.Known()
}

// globalTensor reports whether every declaration of e's root name in the
// unit is a GlobalTensor.
func (s *Summaries) globalTensor(e *grammar.Node) bool {
	ts := s.funcs.TypesOf(Root(e))
	return len(ts) > 0 && !slices.ContainsFunc(ts, func(t string) bool { return !strings.Contains(t, "GlobalTensor") })
}

// condenseTouches keeps, in order, the first and the last touch of each
// memory and cores of a long list (see condense).
func condenseTouches(ts []Touch) []Touch {
	type key struct {
		o     *Origin
		cores grammar.Cores
	}
	return condenseBy(ts, func(t Touch) key { return key{t.origin, t.Cores} })
}

// touchBefore returns a scalar access of this core (on cores) to memory
// that can be region o (in fn's terms) which can run before the wait at
// node w of fn completes: before w, in it, or anywhere in a loop of fn
// around w; or, in a caller, before the call of fn. nil when there is none.
func (s *Summaries) touchBefore(fn *grammar.Node, o Origin, w *grammar.Node, cores grammar.Cores, inside bool) *Touch {
	k := touchKey{fn: fn, wait: w, o: s.intern(o), inside: inside}
	return expand(s, s.touched, k, nil, func() *Touch { return s.computeTouchBefore(fn, o, w, cores, inside) })
}

func (s *Summaries) computeTouchBefore(fn *grammar.Node, o Origin, w *grammar.Node, cores grammar.Cores, inside bool) *Touch {
	var loop *grammar.Node
	for p := w.Parent(); p != nil && p != fn && p.Kind() != "lambda_expression"; p = p.Parent() {
		switch p.Kind() {
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
			loop = p
		}
	}
	x := s.touchIndexOf(fn)
	for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
		if cores&core == 0 {
			continue
		}
		// The last access before (or in) the wait, unless an invalidation
		// between them dropped its line.
		if t := x.lastTouch(o, core, w.Tree(), w.Start+1, func(t *Touch) bool { return inside && t.At == w || Precedes(t.At, w) }); t != nil {
			if i := x.lastInvalidation(o, core, w.Start, func(i *Effect) bool { return i.At != w && Precedes(i.At, w) }); i == nil || !invalidates(*i, *t) {
				return t
			}
		}
		if loop == nil {
			continue
		}
		// The last access of the loop after the wait runs before it on
		// the next turn, unless an invalidation after it in the loop, or
		// before the wait in it, drops the line. A caller's call is such
		// an access too: the callee's last read on one turn (a poll's,
		// which ends it) precedes its wait on the next.
		t := x.lastTouch(o, core, w.Tree(), loop.End, func(t *Touch) bool { return (t.At.Start > w.Start || !inside && t.At == w) && loop.Contains(t.At) })
		if t == nil {
			continue
		}
		if i := x.lastInvalidation(o, core, loop.End, func(i *Effect) bool { return loop.Contains(i.At) }); i != nil && invalidates(*i, *t) {
			continue
		}
		if i := x.lastInvalidation(o, core, w.Start, func(i *Effect) bool { return loop.Contains(i.At) && i.At != w && Precedes(i.At, w) }); i != nil {
			continue
		}
		return t
	}
	for _, cs := range s.callSitesOf(fn) {
		c, ok := AsCall(cs.Call)
		if !ok {
			continue
		}
		co := s.substitute(o, c, cs.Call)
		if !co.Known() {
			continue
		}
		if t := s.touchBefore(cs.Caller.Node, co, cs.Call, cores, false); t != nil {
			return t
		}
	}
	return nil
}

// invalidates reports whether invalidation i runs after touch t.
func invalidates(i Effect, t Touch) bool {
	if i.At == t.At {
		// One helper call does both: its own order decides.
		return i.Site.Tree() == t.Site.Tree() && t.Site.End <= i.Site.Start && !testedAfter(t.Site, i.Site)
	}
	return Precedes(t.At, i.At) && !testedAfter(t.At, i.At)
}

// testedAfter reports whether read r is in the test of a `while` or `for`
// loop whose body holds x: the test runs after the body, so the read
// that ends the loop (`while (*sig != v) dcci(sig, ...);`) comes after
// the last pass's x and leaves its line cached.
func testedAfter(r, x *grammar.Node) bool {
	for p := r.Parent(); p != nil; p = p.Parent() {
		switch p.Kind() {
		case "while_statement", "for_statement":
			if b := p.ChildByField("body"); b != nil && b.Contains(x) && !b.Contains(r) {
				return true
			}
		case "function_definition", "lambda_expression":
			return false
		}
	}
	return false
}

// touchIndex finds the last access of a memory region, and the last
// invalidation covering it, before a point of one function in logarithmic
// time: a wait or DMA write per statement asks once each, and a scan of
// the function per question would be quadratic.
type touchIndex struct {
	touches map[touchIndexKey][]Touch
	invs    map[touchIndexKey][]Effect
}

type touchIndexKey struct {
	core grammar.Cores
	buf  Origin // the buffer; NoOrigin with all for whole-cache invalidations
	all  bool
	// off is the region's constant offset; unknown for a region at a
	// non-constant one, whole for every region of the buffer.
	off     int64
	unknown bool
	whole   bool
}

func (s *Summaries) touchIndexOf(fn *grammar.Node) *touchIndex {
	if s.touchIdx == nil {
		s.touchIdx = map[*grammar.Node]*touchIndex{}
	}
	if x, ok := s.touchIdx[fn]; ok {
		return x
	}
	x := &touchIndex{touches: map[touchIndexKey][]Touch{}, invs: map[touchIndexKey][]Effect{}}
	for _, core := range []grammar.Cores{grammar.AIC, grammar.AIV} {
		for _, t := range s.touchesOf(fn) {
			if t.Cores&core == 0 {
				continue
			}
			for _, k := range regionKeys(core, t.Origin()) {
				x.touches[k] = append(x.touches[k], t)
			}
		}
		for _, e := range s.effectsScanned(fn).all() {
			if e.Kind != Invalidate || e.Cores&core == 0 {
				continue
			}
			if e.All {
				k := touchIndexKey{core: core, all: true}
				x.invs[k] = append(x.invs[k], e)
				continue
			}
			if o := e.Origin(); o.Known() {
				k := touchIndexKey{core: core, buf: o.buffer()}
				x.invs[k] = append(x.invs[k], e)
			}
		}
	}
	s.touchIdx[fn] = x
	return x
}

// regionKeys are the lists an access of region o goes in: its buffer's
// and its region's.
func regionKeys(core grammar.Cores, o Origin) []touchIndexKey {
	b := o.buffer()
	keys := []touchIndexKey{{core: core, buf: b, whole: true}}
	if o.OffUnknown {
		return append(keys, touchIndexKey{core: core, buf: b, unknown: true})
	}
	return append(keys, touchIndexKey{core: core, buf: b, off: o.Off})
}

// maxBack bounds how many earlier entries a question looks at when the
// last one does not qualify (it is in another branch).
const maxBack = 8

// lastTouch returns the last access of memory that can be region o, on
// core, in tree, starting before end, that ok accepts.
func (x *touchIndex) lastTouch(o Origin, core grammar.Cores, tree *grammar.Tree, end uint32, ok func(*Touch) bool) *Touch {
	b := o.buffer()
	lists := [][]Touch{x.touches[touchIndexKey{core: core, buf: b, whole: true}]}
	if !o.OffUnknown {
		lists = [][]Touch{x.touches[touchIndexKey{core: core, buf: b, off: o.Off}], x.touches[touchIndexKey{core: core, buf: b, unknown: true}]}
	}
	var best *Touch
	for _, l := range lists {
		i := sort.Search(len(l), func(i int) bool { return l[i].At.Start >= end })
		for j := i - 1; j >= 0 && j >= i-maxBack; j-- {
			t := &l[j]
			if t.At.Tree() == tree && regionsMeet(t.origin.value().Region, o.Region) && ok(t) {
				if best == nil || t.At.Start > best.At.Start {
					best = t
				}
				break
			}
		}
	}
	if best == nil {
		return nil
	}
	t := *best
	return &t
}

// lastInvalidation returns the last invalidation covering region o, on
// core, starting before end, that ok accepts.
func (x *touchIndex) lastInvalidation(o Origin, core grammar.Cores, end uint32, ok func(*Effect) bool) *Effect {
	var best *Effect
	for _, k := range []touchIndexKey{{core: core, all: true}, {core: core, buf: o.buffer()}} {
		l := x.invs[k]
		i := sort.Search(len(l), func(i int) bool { return l[i].At.Start >= end })
		for j, n := i-1, 0; j >= 0 && n < maxBack; j-- {
			e := &l[j]
			if !e.Covers(o) {
				continue
			}
			n++
			if ok(e) {
				if best == nil || e.At.Start > best.At.Start {
					best = e
				}
				break
			}
		}
	}
	return best
}

// TouchBefore returns a scalar access of this core (on cores) to memory
// that can be region o (in fn's terms) that can run before the wait at
// node w of fn completes, and so can have cached a line of it before
// another core's write to it arrived: before w, in it (a poll of a signal
// word there), anywhere in a loop around w, or in a caller before the call
// of fn; helpers expanded. nil when nothing in the task can have brought
// the line into this core's cache before the wait.
func (s *Summaries) TouchBefore(fn *grammar.Node, o Origin, w *grammar.Node, cores grammar.Cores) *Touch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.touchBefore(fn, o, w, cores, true)
}
