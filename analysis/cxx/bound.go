package cxx

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// A member or global the unit points at one memory: a GlobalTensor bound
// once by SetGlobalBuffer (`statusGlobal_.SetGlobalBuffer((__gm__ int32_t
// *)statusGm_)`), a pointer assigned once (`statusGm_ = winIn_ +
// dataSize_`). Its origin is a name of its own (NamedOrigin) wherever it
// is used; BoundOrigin follows it to the memory it was bound to, so that
// two members bound into one window are seen as one buffer.

// boundEntry is what the unit binds one name to: the origin of the value,
// resolved itself; ok false when the name is bound to different memory
// in different places, or to what only its own function can name (a
// parameter, a local).
type boundEntry struct {
	o  Origin
	ok bool
}

// BoundOrigin is o with a member or global name the unit binds once
// replaced by the memory it was bound to, offsets and regions joined
// (`statusGlobal_[i]` is at `winIn_`, region `dataSize_`). Assignments of
// the name from itself (`winIn_ = winIn_ + half * id`) keep its memory at
// an offset the analysis does not know. Any other origin is returned as
// is. The bindings are read once per unit.
func (s *Summaries) BoundOrigin(o Origin) Origin {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.boundOrigin(o, 0)
}

// maxBoundHops bounds the names followed from one to the next.
const maxBoundHops = 8

func (s *Summaries) boundOrigin(o Origin, hops int) Origin {
	if o.Kind != NamedOrigin || hops >= maxBoundHops {
		return o
	}
	b, ok := s.bindings()[o.Name]
	if !ok || !b.ok {
		return o
	}
	r := s.boundOrigin(b.o, hops+1)
	r.Off += o.Off
	r.idx += o.idx
	r.OffUnknown = r.OffUnknown || o.OffUnknown
	r.Region = joinRegion(r.Region, o.Region)
	return r
}

// bindings reads every binding of a member or global in the unit's files
// (once): SetGlobalBuffer on the name (or `this->name`), `name = v`,
// `this->name = v`, and constructor initializers `name(v)`.
func (s *Summaries) bindings() map[string]boundEntry {
	if s.bound != nil {
		return s.bound
	}
	s.bound = map[string]boundEntry{}
	add := func(name string, v *grammar.Node) {
		if name == "" || v == nil {
			return
		}
		o := s.originOf(v)
		prev, seen := s.bound[name]
		switch {
		case o.Kind == NamedOrigin && o.Name == name:
			// From itself: the same memory, at an offset it moves by.
			if seen && prev.ok {
				prev.o.OffUnknown = true
				s.bound[name] = prev
			} else if !seen {
				s.bound[name] = boundEntry{o: Origin{Kind: NamedOrigin, Name: name, OffUnknown: true}, ok: false}
			}
			return
		case o.Kind != NamedOrigin && !(o.Kind == ArgOrigin && o.SlotParam < 0):
			// A parameter or nothing known: only its function names it.
			s.bound[name] = boundEntry{}
			return
		}
		switch {
		case !seen:
			s.bound[name] = boundEntry{o: o, ok: true}
		case !prev.ok && prev.o.Kind == NamedOrigin && prev.o.Name == name:
			// Only self-moves so far: this is its memory, moved.
			o.OffUnknown = true
			s.bound[name] = boundEntry{o: o, ok: true}
		case prev.ok && prev.o.Same(o):
			if prev.o != o {
				prev.o.OffUnknown = true
				prev.o.Region = commonRegion(prev.o.Region, o.Region)
			}
			s.bound[name] = prev
		default:
			s.bound[name] = boundEntry{}
		}
	}
	for _, ff := range s.funcFiles {
		f := ff.file
		if f == nil || f.Tree == nil {
			continue
		}
		for _, n := range f.Tree.OfKind("call_expression") {
			c, ok := AsCall(n)
			if !ok {
				continue
			}
			if c.Name == "SetGlobalBuffer" && c.Receiver != nil && len(c.Args) > 0 {
				if name := s.memberName(c.Receiver); name != "" {
					add(name, c.Args[0])
				}
				continue
			}
			s.unbindByRef(c)
		}
		for _, n := range f.Tree.OfKind("assignment_expression") {
			if op := n.ChildByField("operator"); op == nil || op.Text() != "=" {
				if name := s.memberName(n.ChildByField("left")); name != "" {
					// `p += k`: the same memory, moved.
					add(name, n.ChildByField("left"))
				}
				continue
			}
			if name := s.memberName(n.ChildByField("left")); name != "" {
				add(name, n.ChildByField("right"))
			}
		}
		for _, n := range f.Tree.OfKind("pointer_expression") {
			// `&name`: whatever takes the address may rebind it.
			if operatorText(n) == "&" {
				if name := s.memberName(n.ChildByField("argument")); name != "" {
					s.bound[name] = boundEntry{}
				}
			}
		}
		for _, n := range f.Tree.OfKind("field_initializer") {
			kids := n.NamedChildren()
			if len(kids) < 2 || kids[0].Kind() != "field_identifier" {
				continue
			}
			add(kids[0].Text(), kids[len(kids)-1])
		}
	}
	return s.bound
}

// unbindByRef marks a member or global a call hands a function of the unit
// by a reference it may rebind (`InitTensor(xGm_, p)` taking
// `GlobalTensor<T> &t`) as bound to no one memory.
func (s *Summaries) unbindByRef(c Call) {
	for i, a := range c.Args {
		name := s.memberName(a)
		if name == "" {
			continue
		}
		for _, d := range s.funcs.Callees(c) {
			if ps := s.paramsOf(d.Node); i < len(ps) && ps[i].Node != nil && MutableRefParam(ps[i].Node) {
				s.bound[name] = boundEntry{}
			}
		}
	}
}

// MutableRefParam reports whether parameter declaration p takes its
// argument by a reference the callee may write through (`T &x`, not
// `const T &x`).
func MutableRefParam(p *grammar.Node) bool {
	if p == nil {
		return false
	}
	d := p.ChildByField("declarator")
	if d == nil || d.Kind() != "reference_declarator" {
		return false
	}
	for _, k := range p.Children() {
		if k.Kind() == "type_qualifier" && k.Text() == "const" {
			return false
		}
	}
	return true
}

// memberName is the member or global name e binds (`name`, `this->name`),
// "" for a local, a parameter or anything else.
func (s *Summaries) memberName(e *grammar.Node) string {
	e = Unparen(e)
	if e == nil {
		return ""
	}
	switch e.Kind() {
	case "field_expression":
		if a := Unparen(e.ChildByField("argument")); a != nil && a.Kind() == "this" {
			if f := e.ChildByField("field"); f != nil {
				return f.Text()
			}
		}
	case "identifier":
		if s.lookupName(e.Text(), e) != nil {
			return ""
		}
		if fn := EnclosingFunction(e); fn != nil && fn.Kind() == "function_definition" {
			for _, p := range s.paramsOf(fn) {
				if p.Name == e.Text() {
					return ""
				}
			}
		}
		return e.Text()
	}
	return ""
}

// commonRegion is the region both a and b lie in: the longer's prefix
// the shorter is, else none (the whole buffer).
func commonRegion(a, b string) string {
	switch {
	case a == b:
		return a
	case strings.Contains(a, "|") || strings.Contains(b, "|"):
		return ""
	case regionsMeet(a, b) && a != "" && b != "":
		if len(a) < len(b) {
			return a
		}
		return b
	}
	return ""
}
