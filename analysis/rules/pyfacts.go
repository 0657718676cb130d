package rules

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis"
	"github.com/extern-lsp/extern-lsp/analysis/abi"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// Python call-site facts for EXT104: which calls of a .py file call an
// extern, and the `with pl.spmd(...)` around them.

// externCall is a call of an extern stub.
type externCall struct {
	call *grammar.Node // the call
	fn   *grammar.Node // its function expression
	stub *abi.Stub
}

func pyDotted(n *grammar.Node) string {
	switch n.Kind() {
	case "identifier":
		return n.Text()
	case "attribute":
		obj, attr := n.ChildByField("object"), n.ChildByField("attribute")
		if obj != nil && attr != nil {
			if o := pyDotted(obj); o != "" {
				return o + "." + attr.Text()
			}
		}
	}
	return ""
}

// externCalls finds the calls of a Python file that call an extern: one the
// file defines, one it imports by name (`from .ops import fused as f`), or
// one reached as an attribute of an imported module (`ops.fused(...)`).
func externCalls(pass *analysis.Pass) []externCall {
	var all []*abi.Stub
	if pass.WS != nil {
		all = pass.WS.Stubs()
	}
	return externCallsIn(all, pyStubs(pass), pass.File)
}

// externCallsIn is externCalls of any Python file f: all are the
// workspace's stubs, local the ones f defines.
func externCallsIn(all, local []*abi.Stub, f *grammar.File) []externCall {
	byLocal := map[string]*abi.Stub{}
	for _, s := range local {
		byLocal[s.Name] = s
	}
	byName := map[string][]*abi.Stub{}
	for _, s := range all {
		byName[s.Name] = append(byName[s.Name], s)
	}
	imported := map[string]string{} // local name -> stub name
	modules := map[string]bool{}
	for _, kind := range []string{"import_from_statement", "import_statement"} {
		for _, st := range f.Tree.OfKind(kind) {
			for _, n := range st.ChildrenByField("name") {
				name, alias := n, n
				if n.Kind() == "aliased_import" {
					name, alias = n.ChildByField("name"), n.ChildByField("alias")
				}
				if name == nil || alias == nil {
					continue
				}
				if st.Kind() == "import_from_statement" {
					imported[alias.Text()] = name.Text()
				}
				modules[alias.Text()] = true
			}
		}
	}
	var out []externCall
	for _, c := range f.Tree.OfKind("call") {
		fn := c.ChildByField("function")
		if fn == nil {
			continue
		}
		var s *abi.Stub
		switch fn.Kind() {
		case "identifier":
			if ls := byLocal[fn.Text()]; ls != nil {
				s = ls
			} else if real, ok := imported[fn.Text()]; ok && len(byName[real]) == 1 {
				s = byName[real][0]
			}
		case "attribute":
			obj, attr := fn.ChildByField("object"), fn.ChildByField("attribute")
			if obj == nil || attr == nil {
				continue
			}
			root := pyDotted(obj)
			if i := strings.IndexByte(root, '.'); i >= 0 {
				root = root[:i]
			}
			if modules[root] && len(byName[attr.Text()]) == 1 {
				s = byName[attr.Text()][0]
			}
		}
		if s != nil {
			out = append(out, externCall{call: c, fn: fn, stub: s})
		}
	}
	return out
}

// enclosingSpmd returns the `pl.spmd(...)` call of the innermost `with`
// around n, or nil.
func enclosingSpmd(n *grammar.Node) *grammar.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "function_definition" || p.Kind() == "class_definition" {
			return nil
		}
		if p.Kind() != "with_statement" {
			continue
		}
		ds := p.Descendants()
		for i := range ds {
			d := &ds[i]
			if d.Kind() != "with_item" {
				continue
			}
			v := d.ChildByField("value")
			if v != nil && v.Kind() == "as_pattern" {
				if c := firstNamed(v); c != nil {
					v = c
				}
			}
			if v == nil || v.Kind() != "call" {
				continue
			}
			name := pyDotted(v.ChildByField("function"))
			if name == "spmd" || strings.HasSuffix(name, ".spmd") {
				return v
			}
		}
	}
	return nil
}

func firstNamed(n *grammar.Node) *grammar.Node {
	for _, c := range n.NamedChildren() {
		if c.Kind() != "comment" {
			return c
		}
	}
	return nil
}

// kwarg returns a call's keyword argument value by name, and the call's
// argument list.
func kwarg(call *grammar.Node, name string) (val, args *grammar.Node) {
	args = call.ChildByField("arguments")
	if args == nil {
		return nil, nil
	}
	for _, a := range args.NamedChildren() {
		if a.Kind() == "keyword_argument" {
			if nm := a.ChildByField("name"); nm != nil && nm.Text() == name {
				return a.ChildByField("value"), args
			}
		}
	}
	return nil, args
}

// addKwargEdit inserts `name=True` into a call's argument list, after its
// last argument.
func addKwargEdit(args *grammar.Node, kw string) analysis.TextEdit {
	var last *grammar.Node
	for _, a := range args.NamedChildren() {
		if a.Kind() != "comment" {
			last = a
		}
	}
	if last == nil {
		return analysis.TextEdit{Start: args.Start + 1, End: args.Start + 1, NewText: kw}
	}
	return analysis.TextEdit{Start: last.End, End: last.End, NewText: ", " + kw}
}
