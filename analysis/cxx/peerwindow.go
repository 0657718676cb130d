package cxx

import "github.com/extern-lsp/extern-lsp/grammar"

// windowFields are the fields of the runtime's communication context that
// hold the base addresses of the ranks' comm windows (CommContext).
var windowFields = map[string]bool{"windowsIn": true, "windowsOut": true}

// PeerWindow reports whether the address expression e (a pointer, or a
// pto::comm::Signal built on one) is computed from a rank's comm window
// base (`ctx->windowsIn[peer] + offset`), directly, through locals and
// casts, or returned by a function of the unit (CommRemotePtr): memory of
// the rank a notify through it wakes.
func (s *Summaries) PeerWindow(e *grammar.Node) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peerWindow(e, 0)
}

func (s *Summaries) peerWindow(e *grammar.Node, depth int) bool {
	e = Unparen(e)
	if e == nil || depth > maxExpand {
		return false
	}
	switch e.Kind() {
	case "identifier":
		return s.peerWindowName(e.Text(), e, depth)
	case "cast_expression":
		return s.peerWindow(e.ChildByField("value"), depth+1)
	case "binary_expression":
		return s.peerWindow(e.ChildByField("left"), depth+1) || s.peerWindow(e.ChildByField("right"), depth+1)
	case "subscript_expression":
		return s.peerWindow(e.ChildByField("argument"), depth+1)
	case "field_expression":
		if f := e.ChildByField("field"); f != nil && windowFields[f.Text()] {
			return true
		}
		return false
	case "call_expression":
		if castType(e) != nil {
			if a := e.ChildByField("arguments").NamedChildren(); len(a) > 0 {
				return s.peerWindow(a[0], depth+1)
			}
			return false
		}
		c, ok := AsCall(e)
		if !ok {
			return false
		}
		return s.returnsPeerWindow(s.funcs.Callees(c), e, depth)
	}
	return false
}

// returnsPeerWindow reports whether the first of defs with a body (not
// the one e is in) returns a peer window address on every return.
func (s *Summaries) returnsPeerWindow(defs []FuncDef, e *grammar.Node, depth int) bool {
	for _, d := range defs {
		body := d.Body()
		if body == nil || d.Node.Contains(e) && d.Node.Tree() == e.Tree() {
			continue
		}
		ds := body.Descendants()
		found := false
		for i := range ds {
			n := &ds[i]
			if n.Kind() != "return_statement" || EnclosingFunction(n) != d.Node {
				continue
			}
			r := n.NamedChildren()
			if len(r) == 0 || !s.peerWindow(r[0], depth+1) {
				return false
			}
			found = true
		}
		return found
	}
	return false
}

// peerWindowName follows the local variable name visible at node at to
// what it was declared from.
func (s *Summaries) peerWindowName(name string, at *grammar.Node, depth int) bool {
	d := s.lookupName(name, at)
	if d == nil {
		return false
	}
	if d.Kind() == "function_declarator" {
		// `Signal sig(remote);` parses as a function declaration whose
		// parameter type names the variable.
		if pl := d.ChildByField("parameters"); pl != nil {
			if ps := pl.NamedChildren(); len(ps) == 1 {
				t := ps[0].ChildByField("type")
				if t == nil || t.Kind() != "type_identifier" {
					return false
				}
				switch decl := ps[0].ChildByField("declarator"); {
				case decl == nil:
					return s.peerWindowName(t.Text(), d, depth+1)
				case decl.Kind() == "abstract_function_declarator":
					// `Signal sig(remote_of(ctx, p, peer));`: a call
					// parsed as a parameter whose type is the callee.
					return s.returnsPeerWindow(s.funcs.Lookup(t.Text()), d, depth+1)
				}
			}
		}
		return false
	}
	init, _ := declInit(d)
	return init != nil && s.peerWindow(init, depth+1)
}
