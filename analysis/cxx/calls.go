package cxx

import (
	"iter"
	"slices"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// Call is a call expression taken apart.
type Call struct {
	Node      *grammar.Node
	Name      string          // the called name without scope or template args: "SyncAll"
	Qualified string          // the callee as written without template args: "AscendC::SyncAll"
	Receiver  *grammar.Node   // for obj.f() / p->f(): the object expression
	TArgs     []*grammar.Node // template arguments
	HasTArgs  bool            // written with <...> (even when empty)
	Args      []*grammar.Node // call arguments
	NameNode  *grammar.Node   // the identifier of the called name
}

// AsCall decodes a call_expression; ok is false for other nodes.
func AsCall(n *grammar.Node) (Call, bool) {
	if n == nil || n.Kind() != "call_expression" {
		return Call{}, false
	}
	c := Call{Node: n}
	fn := n.ChildByField("function")
	if fn == nil {
		return c, false
	}
	if args := n.ChildByField("arguments"); args != nil {
		c.Args = namedNonComments(args)
	}
	if !c.decodeCallee(fn) {
		return c, false
	}
	return c, true
}

// decodeCallee fills the callee fields of c (Name, Qualified, TArgs,
// HasTArgs, Receiver, NameNode) from fn, a call's function expression or
// a callee passed as a macro argument (`CALL(AscendC::SyncAll<false>)`);
// false for a callee it cannot name (a parenthesized expression).
func (c *Call) decodeCallee(fn *grammar.Node) bool {
	var scope []string
	for fn != nil {
		switch fn.Kind() {
		case "qualified_identifier":
			if s := fn.ChildByField("scope"); s != nil {
				scope = append(scope, s.Text())
			}
			fn = fn.ChildByField("name")
			continue
		case "template_function", "template_method":
			if ta := fn.ChildByField("arguments"); ta != nil {
				c.HasTArgs = true
				c.TArgs = namedNonComments(ta)
			}
			fn = fn.ChildByField("name")
			continue
		case "field_expression":
			c.Receiver = fn.ChildByField("argument")
			fn = fn.ChildByField("field")
			continue
		case "parenthesized_expression":
			return false
		}
		c.NameNode = fn
		c.Name = fn.Text()
		break
	}
	c.Qualified = c.Name
	if len(scope) > 0 {
		c.Qualified = strings.Join(append(scope, c.Name), "::")
	}
	return true
}

// callNameNode finds the node AsCall takes the called name from (nil, ok
// when it finds none: the name is ""), allocating nothing: indexes compare
// and sort calls by the name's bytes.
func callNameNode(n *grammar.Node) (name *grammar.Node, ok bool) {
	if n == nil || n.Kind() != "call_expression" {
		return nil, false
	}
	fn := n.ChildByField("function")
	if fn == nil {
		return nil, false
	}
	for fn != nil {
		switch fn.Kind() {
		case "qualified_identifier", "template_function", "template_method":
			fn = fn.ChildByField("name")
			continue
		case "field_expression":
			fn = fn.ChildByField("field")
			continue
		case "parenthesized_expression":
			return nil, false
		}
		return fn, true
	}
	return nil, true
}

// callNameBytes is the called name callNameNode finds, in the source.
func callNameBytes(n *grammar.Node) []byte {
	if nn, _ := callNameNode(n); nn != nil {
		return nn.Bytes()
	}
	return nil
}

// NamedNonComments lists n's named children but comments (nil for none).
func NamedNonComments(n *grammar.Node) []*grammar.Node { return namedNonComments(n) }

// namedNonComments lists n's named children but comments (nil for none).
func namedNonComments(n *grammar.Node) []*grammar.Node {
	// One walk of the children into a buffer on the stack (most lists are
	// short), copied out at its size.
	var buf [16]*grammar.Node
	kids := buf[:0]
	for a := n.FirstChild(); a != nil; a = a.NextSibling() {
		if a.IsNamed() && a.Kind() != "comment" {
			kids = append(kids, a)
		}
	}
	if len(kids) == 0 {
		return nil
	}
	out := make([]*grammar.Node, len(kids))
	copy(out, kids)
	return out
}

// IsNamespace reports whether the call's scope is empty or one of ns.
func (c Call) InNamespace(ns ...string) bool {
	q := c.Qualified
	if q == c.Name {
		return true
	}
	for _, n := range ns {
		if q == n+"::"+c.Name || strings.TrimPrefix(q, "::") == n+"::"+c.Name {
			return true
		}
	}
	return false
}

// Unparen strips parentheses around an expression.
func Unparen(n *grammar.Node) *grammar.Node {
	for n != nil && n.Kind() == "parenthesized_expression" {
		c := n.NamedChildren()
		if len(c) != 1 {
			return n
		}
		n = c[0]
	}
	return n
}

// EnclosingFunction returns the function_definition containing n, or nil.
func EnclosingFunction(n *grammar.Node) *grammar.Node {
	return n.EnclosingFunction()
}

// EnclosingDefinition returns the nearest proper ancestor that is a
// function definition (lambdas skipped): Ancestor("function_definition")
// through the tree's index of functions, without the walk up, which costs
// the node's depth (thousands in an else-if chain) per question.
func EnclosingDefinition(n *grammar.Node) *grammar.Node {
	for f := n.EnclosingFunction(); f != nil; f = f.EnclosingFunction() {
		if f.Kind() == "function_definition" {
			return f
		}
	}
	return nil
}

// FunctionName returns a function definition's name (without scope).
func FunctionName(fn *grammar.Node) string {
	d := FunctionDeclarator(fn)
	if d == nil {
		return ""
	}
	name := d.ChildByField("declarator")
	if name == nil {
		return ""
	}
	if name.Kind() == "qualified_identifier" {
		for name.Kind() == "qualified_identifier" && name.ChildByField("name") != nil {
			name = name.ChildByField("name")
		}
	}
	if name.Kind() == "template_function" {
		name = name.ChildByField("name")
	}
	if name == nil {
		return ""
	}
	return name.Text()
}

// FunctionDeclarator finds the function_declarator of a definition through
// pointer/reference declarators.
func FunctionDeclarator(fn *grammar.Node) *grammar.Node {
	d := fn.ChildByField("declarator")
	for d != nil && d.Kind() != "function_declarator" {
		d = d.ChildByField("declarator")
	}
	return d
}

// Param is one function parameter.
type Param struct {
	Node     *grammar.Node
	Name     string
	TypeText string // the type as written (without qualifiers that were masked)
	// Index is 32 bits, beside Pointer: summaries keep the parameters of
	// every function of a unit, 48 bytes each rather than 56.
	Index   int32
	Pointer bool
}

// Params returns a function definition's parameters.
func Params(fn *grammar.Node) []Param {
	n := 0
	for range paramDecls(fn) {
		n++
	}
	if n == 0 {
		return nil
	}
	// At its size: summaries keep the parameters of every function.
	out := make([]Param, 0, n)
	for p := range paramDecls(fn) {
		prm := Param{Node: p, Index: int32(len(out))}
		if t := p.ChildByField("type"); t != nil {
			prm.TypeText = t.Text()
		}
		id, pointer := paramDeclarator(p)
		prm.Pointer = pointer
		if id != nil {
			prm.Name = id.Text()
		}
		out = append(out, prm)
	}
	return out
}

// paramDecls yields a function definition's parameter declarations in
// order: what Params lists and numbers.
func paramDecls(fn *grammar.Node) iter.Seq[*grammar.Node] {
	return func(yield func(*grammar.Node) bool) {
		d := FunctionDeclarator(fn)
		if d == nil {
			return
		}
		pl := d.ChildByField("parameters")
		if pl == nil {
			return
		}
		for p := pl.FirstChild(); p != nil; p = p.NextSibling() {
			if p.IsNamed() && (p.Kind() == "parameter_declaration" || p.Kind() == "optional_parameter_declaration") && !yield(p) {
				return
			}
		}
	}
}

// Takes reports whether fn can be called with n arguments: between its
// required and all its parameters (defaults counted), or any number past
// the required ones when it is variadic (`...`, a parameter pack, a
// macro shadow's `__VA_ARGS__`).
func Takes(fn *grammar.Node, n int) bool {
	req, all := 0, 0
	for p := range paramDecls(fn) {
		all++
		if p.Kind() == "parameter_declaration" {
			req++
			if id, _ := paramDeclarator(p); id != nil && id.Text() == "__VA_ARGS__" {
				return n >= req-1
			}
		}
	}
	if d := FunctionDeclarator(fn); d != nil {
		if pl := d.ChildByField("parameters"); pl != nil {
			for p := pl.FirstChild(); p != nil; p = p.NextSibling() {
				if p.Kind() == "..." || p.Kind() == "variadic_parameter_declaration" {
					return n >= req
				}
			}
		}
	}
	return n >= req && n <= all
}

// paramDeclarator unwraps a parameter's declarator to its name: the
// identifier (nil for an unnamed parameter or one Params does not name),
// and whether a pointer declarator was on the way.
func paramDeclarator(p *grammar.Node) (id *grammar.Node, pointer bool) {
	decl := p.ChildByField("declarator")
	for decl != nil {
		switch decl.Kind() {
		case "pointer_declarator":
			pointer = true
			decl = decl.ChildByField("declarator")
			continue
		case "reference_declarator":
			if c := decl.NamedChildren(); len(c) > 0 {
				decl = c[len(c)-1]
				continue
			}
		case "identifier":
			return decl, pointer
		}
		break
	}
	return nil, pointer
}

// IsArgsParam reports whether a parameter is the extern args pointer:
// `__gm__ int64_t *args` (any name; the __gm__ qualifier is required).
func IsArgsParam(f *grammar.File, p Param) bool {
	if !p.Pointer {
		return false
	}
	t := strings.TrimSpace(p.TypeText)
	t = strings.TrimPrefix(t, "const ")
	if t != "int64_t" && t != "uint64_t" && t != "int64" {
		return false
	}
	return f.NodeHasQualifier(p.Node, "__gm__")
}

// ArgsPlaced reports whether an int64 GM pointer parameter of fn stands
// where the args pointer does: named so, in the C entry, or in a
// `get_*(args)` style accessor. Elsewhere (a helper's `__gm__ int64_t *p`)
// it is int64 data, a flag word or an address.
func ArgsPlaced(fn *grammar.Node, name string) bool {
	return strings.Contains(strings.ToLower(name), "args") || fn.Kind() == "function_definition" && (IsExternC(fn) || strings.HasPrefix(FunctionName(fn), "get_"))
}

// ArgsParam returns the extern args parameter of a function, if it has one.
func ArgsParam(f *grammar.File, fn *grammar.Node) (Param, bool) {
	for _, p := range Params(fn) {
		if IsArgsParam(f, p) {
			return p, true
		}
	}
	return Param{}, false
}

// IsExternC reports whether a function definition has C linkage.
func IsExternC(fn *grammar.Node) bool {
	p := fn.Parent()
	if p != nil && p.Kind() == "declaration_list" {
		p = p.Parent()
	}
	return p != nil && p.Kind() == "linkage_specification"
}

// Functions returns every function definition in the file.
func Functions(f *grammar.File) []*grammar.Node {
	return slices.Clone(f.Tree.OfKind("function_definition"))
}

// Entries returns the functions that take the extern args pointer, C-linkage
// entries first.
func Entries(f *grammar.File) (entries, helpers []*grammar.Node) {
	for _, fn := range Functions(f) {
		if _, ok := ArgsParam(f, fn); !ok {
			continue
		}
		if IsExternC(fn) {
			entries = append(entries, fn)
		} else {
			helpers = append(helpers, fn)
		}
	}
	return entries, helpers
}

// intrinsicPrefixes start the lower-case names of the CCE device intrinsics,
// the asc C API (`asc_`) and C library calls a kernel uses without a
// definition in the workspace. `dcci` and `dsb` are whole names:
// `dcci_cachelines(p, n)` is a project's flush helper.
var intrinsicPrefixes = []string{"set_", "wait_", "get_", "copy_", "pipe_barrier", "ffts_", "load_", "mad", "mmad",
	"img2col", "scatter_", "create_", "sync_", "asc_", "printf", "assert", "trap", "memset", "memcpy", "min", "max", "abs", "std"}

// MaybeProjectCall reports whether a call with no definition in the unit
// looks like project code (a lower_snake_case free function, `pipe_sync()`)
// rather than the toolkit's API: AscendC calls are CamelCase or qualified,
// pto-isa ops and macros are upper case, and CCE intrinsics have known
// prefixes or are short `v...` vector ops. Such a call can do anything the
// analysis did not see.
func MaybeProjectCall(c Call) bool {
	if c.Receiver != nil || c.Name == "" || c.Qualified != c.Name {
		return false
	}
	switch c.Name {
	case "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast", "bit_cast", "sizeof", "alignof", "decltype", "dcci", "dsb":
		// A cast or operator converts, it calls nothing; an intrinsic.
		return false
	}
	first := c.Name[0]
	if !(first >= 'a' && first <= 'z') {
		return false
	}
	if first == 'v' && len(c.Name) <= 12 {
		return false
	}
	for _, p := range intrinsicPrefixes {
		if strings.HasPrefix(c.Name, p) {
			return false
		}
	}
	return true
}
