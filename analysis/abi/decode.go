package abi

import (
	"strings"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// decodedCast follows a slot a template helper hands to a decoder of its
// own file, `return ScalarDecode<T>::From(args[i]);` (a static method of a
// class template) or `return decode<T>(args[i]);` (a function template),
// passing its template parameter T on. The decoder's primary definition
// converts its parameter in terms of its own template parameter, which
// becomes T; an explicit specialisation (`template <> struct
// ScalarDecode<float>`) decides its own type's conversion, in spec. cast
// is the helper's parameter name (castAt puts the call's type argument in
// its place); ok is false for any other shape.
func decodedCast(f *grammar.File, sub, helper *grammar.Node) (cast string, spec map[string]string, ok bool) {
	cur := sub
	p := cur.Parent()
	for p != nil && p.Kind() == "parenthesized_expression" {
		cur, p = p, p.Parent()
	}
	if p == nil || p.Kind() != "argument_list" {
		return "", nil, false
	}
	call := p.Parent()
	if call == nil || call.Kind() != "call_expression" || call.Parent() == nil || call.Parent().Kind() != "return_statement" {
		return "", nil, false
	}
	pos := -1
	for i, a := range cxx.NamedNonComments(p) {
		if a == cur {
			pos = i
		}
	}
	name, method, targ := decoderCallee(call.ChildByField("function"))
	if pos < 0 || name == "" || targ == nil {
		return "", nil, false
	}
	tparam := strings.TrimSpace(targ.Text())
	isParam := false
	for _, n := range cxx.TemplateParamNames(helper) {
		isParam = isParam || n == tparam
	}
	if !isParam {
		return "", nil, false
	}
	primary := false
	for _, d := range decoderDefs(f, name, method) {
		c, ok := decoderConversion(f, d.fn, pos)
		if !ok {
			continue
		}
		if d.specialFor == "" {
			if d.param == "" || c != d.param {
				// The primary converts to a fixed type: the helper's
				// argument does not choose it.
				return "", nil, false
			}
			primary = true
			continue
		}
		if spec == nil {
			spec = map[string]string{}
		}
		spec[d.specialFor] = c
	}
	if !primary {
		return "", nil, false
	}
	return tparam, spec, true
}

// decoderCallee names the decoder a call's function expression calls:
// `Q<T>::M` gives Q, M and T; `d<T>` gives d, "" and T.
func decoderCallee(fn *grammar.Node) (name, method string, targ *grammar.Node) {
	if fn == nil {
		return "", "", nil
	}
	switch fn.Kind() {
	case "qualified_identifier":
		scope, m := fn.ChildByField("scope"), fn.ChildByField("name")
		if scope == nil || m == nil || scope.Kind() != "template_type" || m.Kind() != "identifier" {
			return "", "", nil
		}
		n, args := scope.ChildByField("name"), scope.ChildByField("arguments")
		if n == nil || args == nil || len(cxx.NamedNonComments(args)) != 1 {
			return "", "", nil
		}
		return n.Text(), m.Text(), cxx.NamedNonComments(args)[0]
	case "template_function":
		n, args := fn.ChildByField("name"), fn.ChildByField("arguments")
		if n == nil || args == nil || len(cxx.NamedNonComments(args)) != 1 {
			return "", "", nil
		}
		return n.Text(), "", cxx.NamedNonComments(args)[0]
	}
	return "", "", nil
}

// decoderDef is one definition of a decoder: the primary template's (param
// is its template parameter's name) or an explicit specialisation's for a
// type (specialFor).
type decoderDef struct {
	fn         *grammar.Node
	param      string
	specialFor string
}

// decoderDefs finds the definitions of a decoder in the file: method of
// the class templates named name (primary and explicit specialisations),
// or the function templates named name when method is "".
func decoderDefs(f *grammar.File, name, method string) []decoderDef {
	var out []decoderDef
	for _, td := range f.Tree.OfKind("template_declaration") {
		var body *grammar.Node
		for _, c := range td.NamedChildren() {
			switch c.Kind() {
			case "struct_specifier", "class_specifier":
				if method != "" {
					body = c
				}
			case "function_definition":
				if method == "" {
					body = c
				}
			}
		}
		if body == nil {
			continue
		}
		params := cxx.TemplateParamNames(body)
		var fn *grammar.Node
		var nameNode *grammar.Node
		if method == "" {
			fn = body
			if d := cxx.FunctionDeclarator(fn); d != nil {
				nameNode = d.ChildByField("declarator")
			}
		} else {
			nameNode = body.ChildByField("name")
			if list := body.ChildByField("body"); list != nil {
				for _, m := range list.NamedChildren() {
					if m.Kind() == "function_definition" && cxx.FunctionName(m) == method {
						fn = m
					}
				}
			}
		}
		if fn == nil || nameNode == nil {
			continue
		}
		switch {
		case nameNode.Kind() == "identifier" || nameNode.Kind() == "type_identifier":
			if nameNode.Text() == name && len(params) == 1 {
				out = append(out, decoderDef{fn: fn, param: params[0]})
			}
		case nameNode.Kind() == "template_type" || nameNode.Kind() == "template_function":
			n, args := nameNode.ChildByField("name"), nameNode.ChildByField("arguments")
			if n != nil && n.Text() == name && args != nil && len(params) == 0 && len(cxx.NamedNonComments(args)) == 1 {
				if t, ptr := typeOf(cxx.NamedNonComments(args)[0]); t != "" && !ptr {
					out = append(out, decoderDef{fn: fn, specialFor: t})
				}
			}
		}
	}
	return out
}

// decoderConversion is what a decoder does with its parameter at pos, the
// raw slot: the type its first use converts it to (`static_cast<T>(raw)`:
// "T"), or, for an integer cast that keeps the bits in a function
// returning a floating type with no value conversion after it (a union's
// integer member read back as its float), a bit-cast to that type.
func decoderConversion(f *grammar.File, fn *grammar.Node, pos int) (string, bool) {
	ps := cxx.Params(fn)
	if pos >= len(ps) || ps[pos].Name == "" {
		return "", false
	}
	body := fn.ChildByField("body")
	if body == nil {
		return "", false
	}
	var first *grammar.Node
	for _, id := range body.Inside(f.Tree.OfKind("identifier")) {
		if id.Text() == ps[pos].Name {
			first = id
			break
		}
	}
	if first == nil {
		return "", false
	}
	u := classify(f, first, nil)
	if u.kind != UseScalar || u.cast == "" {
		return "", false
	}
	ret := ""
	if t := fn.ChildByField("type"); t != nil {
		ret = strings.TrimSpace(t.Text())
	}
	if integerTypes[u.cast] && floatTypes[ret] && u.castNode != nil && FloatAfter(f, u.castNode) == nil {
		return "bitcast<" + ret + ">", true
	}
	return u.cast, true
}
