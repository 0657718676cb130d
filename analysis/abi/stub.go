// Package abi is the args[] ABI of pypto externs: the `@pl.jit.extern` Python
// stubs (found with the tree-sitter Python grammar, never executed), their
// packing table (tensors first, then scalars, each in signature order), the
// return binding, the C++ side's args accesses, and the generated
// orchestration that shows the true order (guide §2, §7).
package abi

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/extern-lsp/extern-lsp/grammar"
)

// ParamKind is how pypto packs a parameter.
type ParamKind int

const (
	Tensor ParamKind = iota // a descriptor pointer in args[0..T)
	Scalar                  // the value's bits in args[T..T+S)
)

func (k ParamKind) String() string {
	if k == Scalar {
		return "scalar"
	}
	return "tensor"
}

// Direction of a tensor parameter (scalars are In).
type Direction int

const (
	In Direction = iota
	Out
	InOut
)

func (d Direction) String() string {
	switch d {
	case Out:
		return "out"
	case InOut:
		return "inout"
	}
	return "in"
}

// OutputLike reports pl.Out and pl.InOut.
func (d Direction) OutputLike() bool { return d == Out || d == InOut }

// Param is one parameter of a stub.
type Param struct {
	Name  string
	Kind  ParamKind
	Dir   Direction
	DType string // "BF16", "INDEX", ... ("" when not written)
	Pos   int    // signature position (0-based)
	Slot  int    // args[] index
	File  string
	// Start, End span the whole parameter in the .py; NameStart, NameEnd
	// its name.
	Start, End         uint32
	NameStart, NameEnd uint32
	// Type is the annotation as written.
	Type string
}

// Source is one of the stub's source=, aic_source=, aiv_source= arguments.
type Source struct {
	Keyword string // "source", "aic_source", "aiv_source", "include_dirs"
	Expr    string // the expression as written
	// Path is the statically resolved absolute path, "" if unresolved.
	Path string
	// Reason says why Path is empty.
	Reason     string
	Start, End uint32 // the argument's value expression
}

// Problem is something about a stub extern-lsp could not read statically.
type Problem struct {
	Start, End uint32
	Message    string
}

// Stub is one `@pl.jit.extern` function.
type Stub struct {
	Name, File string
	Start, End uint32 // the function name
	// DefStart, DefEnd span the whole decorated definition.
	DefStart, DefEnd uint32
	CoreType         string // "aiv" (default), "aic", "mixed"
	CoreTypeSet      bool   // core_type was written
	DualAIVDispatch  bool
	// Decorator is the decorator expression; ArgsEnd is where a new keyword
	// argument goes (before the closing parenthesis), 0 for a bare
	// decorator.
	DecoStart, DecoEnd uint32
	ArgsEnd            uint32
	HasArgs            bool
	// LastArgEnd is the end of the decorator's last argument (0 when it
	// has none): where `, kw=...` goes.
	LastArgEnd uint32
	// DualArg spans the dual_aiv_dispatch= value when written.
	DualArg      *Span
	Params       []Param // signature order
	Sources      []Source
	IncludeDirs  []Source
	Tensors      int
	Scalars      int
	Return       *Param // the first output-like parameter
	ReturnType   string // the return annotation as written
	MultiReturn  bool   // returns a tuple
	NoReturn     bool   // `-> None`
	ReturnsNamed string // the parameter a `# returns: x` comment or a string annotation names
	ReturnsAt    Span   // where that name was written
	ParamsStart  uint32 // the parameter list, parentheses included
	ParamsEnd    uint32
	Problems     []Problem
	Node         *grammar.Node // the function_definition
	SyntaxErrors bool
	ParamsByName map[string]*Param
}

// Span is a byte range.
type Span struct{ Start, End uint32 }

// BySlot returns the parameter packed at args[i].
func (s *Stub) BySlot(i int) (*Param, bool) {
	for k := range s.Params {
		if s.Params[k].Slot == i {
			return &s.Params[k], true
		}
	}
	return nil, false
}

// Param returns the parameter with the given name.
func (s *Stub) Param(name string) (*Param, bool) {
	for k := range s.Params {
		if s.Params[k].Name == name {
			return &s.Params[k], true
		}
	}
	return nil, false
}

// Count is the number of args[] slots.
func (s *Stub) Count() int { return s.Tensors + s.Scalars }

// Mixed reports core_type="mixed".
func (s *Stub) Mixed() bool { return s.CoreType == "mixed" || s.CoreType == "mix" }

// SlotText describes a slot for messages: "tensor 3 of 17" or "scalar 1 of
// 2; tensors occupy args[0..16]".
func (s *Stub) SlotText(p *Param) string {
	if p.Kind == Tensor {
		return fmt.Sprintf("tensor %d of %d", p.Slot+1, s.Tensors)
	}
	t := "no tensors"
	if s.Tensors > 0 {
		t = fmt.Sprintf("tensors occupy args[0..%d]", s.Tensors-1)
	}
	return fmt.Sprintf("scalar %d of %d; %s", p.Slot-s.Tensors+1, s.Scalars, t)
}

// OutputLike returns the pl.Out / pl.InOut parameters in signature order.
func (s *Stub) OutputLike() []*Param {
	var out []*Param
	for i := range s.Params {
		if s.Params[i].Kind == Tensor && s.Params[i].Dir.OutputLike() {
			out = append(out, &s.Params[i])
		}
	}
	return out
}

// Pack assigns args[] slots: tensors first in signature order, then scalars
// in signature order, and finds the return binding.
func Pack(params []Param) (tensors, scalars int, ret *Param) {
	for i := range params {
		if params[i].Kind == Tensor {
			params[i].Slot = tensors
			tensors++
		}
	}
	for i := range params {
		if params[i].Kind == Scalar {
			params[i].Slot = tensors + scalars
			scalars++
		}
	}
	for i := range params {
		if params[i].Kind == Tensor && params[i].Dir.OutputLike() {
			ret = &params[i]
			break
		}
	}
	return tensors, scalars, ret
}

// externPath is the canonical dotted name of the decorator.
const externPath = "pypto.language.jit.extern"

// aliases maps a module-level name to the dotted pypto path it stands for.
func aliases(f *grammar.File) map[string]string {
	al := map[string]string{"pl": "pypto.language"}
	root := f.Tree.Root()
	for _, st := range root.NamedChildren() {
		switch st.Kind() {
		case "import_statement":
			for _, n := range st.ChildrenByField("name") {
				switch n.Kind() {
				case "aliased_import":
					if nm, a := n.ChildByField("name"), n.ChildByField("alias"); nm != nil && a != nil {
						al[a.Text()] = nm.Text()
					}
				case "dotted_name":
					first := n.Text()
					if i := strings.IndexByte(first, '.'); i >= 0 {
						first = first[:i]
					}
					al[first] = first
				}
			}
		case "import_from_statement":
			mod := st.ChildByField("module_name")
			if mod == nil {
				continue
			}
			for _, n := range st.ChildrenByField("name") {
				switch n.Kind() {
				case "aliased_import":
					if nm, a := n.ChildByField("name"), n.ChildByField("alias"); nm != nil && a != nil {
						al[a.Text()] = mod.Text() + "." + nm.Text()
					}
				case "dotted_name":
					al[n.Text()] = mod.Text() + "." + n.Text()
				}
			}
		}
	}
	return al
}

// dotted returns the dotted text of an attribute chain (a.b.c), "" for
// anything else.
func dotted(n *grammar.Node) string {
	switch n.Kind() {
	case "identifier":
		return n.Text()
	case "attribute":
		obj, attr := n.ChildByField("object"), n.ChildByField("attribute")
		if obj == nil || attr == nil {
			return ""
		}
		if o := dotted(obj); o != "" {
			return o + "." + attr.Text()
		}
	}
	return ""
}

func canonical(al map[string]string, d string) string {
	first, rest := d, ""
	if i := strings.IndexByte(d, '.'); i >= 0 {
		first, rest = d[:i], d[i:]
	}
	if full, ok := al[first]; ok {
		return full + rest
	}
	return d
}

// isExternDecorator reports whether a decorator expression names
// pl.jit.extern (through any import alias).
func isExternDecorator(al map[string]string, n *grammar.Node) bool {
	d := dotted(n)
	if d == "" {
		return false
	}
	c := canonical(al, d)
	return c == externPath || strings.HasSuffix(c, ".language.jit.extern")
}

// ParseStubs finds every `@pl.jit.extern` stub of a Python file. It never
// fails: what cannot be read statically is recorded in Stub.Problems.
func ParseStubs(f *grammar.File) []*Stub {
	if f == nil || f.Lang != grammar.Python || f.Tree == nil {
		return nil
	}
	env := newEnv(f)
	al := env.al
	var out []*Stub
	// What is read of a decorated definition once for all its decorators
	// (10,000 stacked externs read it 10,000 times: quadratic).
	var def decorated
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() != "decorator" {
			continue
		}
		expr := firstNamed(n)
		if expr == nil {
			continue
		}
		call := (*grammar.Node)(nil)
		target := expr
		if expr.Kind() == "call" {
			call = expr
			target = expr.ChildByField("function")
		}
		if target == nil || !isExternDecorator(al, target) {
			continue
		}
		dd := n.Parent()
		if dd != nil && dd.IsError() {
			out = append(out, brokenStub(f, env, dd, n, expr, call))
			continue
		}
		if dd == nil || dd.Kind() != "decorated_definition" {
			continue
		}
		if def.dd != dd {
			def = decorated{dd: dd, fn: dd.ChildByField("definition")}
			if def.fn == nil || def.fn.Kind() != "function_definition" {
				def.fn = nil
				continue
			}
			if defReadHook != nil {
				defReadHook(len(dd.Descendants()))
			}
			def.errs = hasError(dd)
			for c := dd.FirstChild(); c != nil && c != def.fn; c = c.NextSibling() {
				def.before = c
			}
		}
		if def.fn != nil {
			out = append(out, parseStub(f, env, &def, expr, call))
		}
	}
	return out
}

// brokenStub records a stub whose definition did not parse: its name and
// decorator arguments are kept, its table is marked unreliable.
func brokenStub(f *grammar.File, env *env, errNode, deco, expr, call *grammar.Node) *Stub {
	s := &Stub{File: f.Path, CoreType: "aiv", DefStart: errNode.Start, DefEnd: errNode.End,
		DecoStart: expr.Start, DecoEnd: expr.End, ParamsByName: map[string]*Param{}, SyntaxErrors: true}
	s.Start, s.End = expr.Start, expr.End
	for c := deco.NextSibling(); c != nil; c = c.NextSibling() {
		if c.Kind() == "identifier" {
			s.Name, s.Start, s.End = c.Text(), c.Start, c.End
			break
		}
		if c.Kind() == "decorator" {
			break
		}
	}
	if call != nil {
		s.HasArgs = true
		if al := call.ChildByField("arguments"); al != nil {
			s.ArgsEnd = al.End - 1
			s.readArgs(env, al)
		}
	}
	s.Problems = append(s.Problems, Problem{s.Start, s.End, fmt.Sprintf("extern `%s` has syntax errors; its args[] table may be incomplete and is not checked", s.Name)})
	return s
}

func firstNamed(n *grammar.Node) *grammar.Node {
	for _, c := range n.NamedChildren() {
		if c.Kind() != "comment" {
			return c
		}
	}
	return nil
}

var externKeywords = []string{"core_type", "source", "aic_source", "aiv_source", "dual_aiv_dispatch", "include_dirs"}

// defReadHook, when set (tests), hears the nodes of each decorated
// definition read whole.
var defReadHook func(nodes int)

// decorated is a decorated definition of stubs: whether it has syntax
// errors, and the node just before the def (a comment, a decorator).
type decorated struct {
	dd, fn, before *grammar.Node
	errs           bool
}

func parseStub(f *grammar.File, env *env, def *decorated, deco, call *grammar.Node) *Stub {
	dd, fn := def.dd, def.fn
	s := &Stub{File: f.Path, CoreType: "aiv", Node: fn, DefStart: dd.Start, DefEnd: dd.End,
		DecoStart: deco.Start, DecoEnd: deco.End, ParamsByName: map[string]*Param{}}
	if name := fn.ChildByField("name"); name != nil {
		s.Name, s.Start, s.End = name.Text(), name.Start, name.End
	}
	if def.errs {
		s.SyntaxErrors = true
		s.Problems = append(s.Problems, Problem{s.Start, s.End, fmt.Sprintf("extern `%s` has syntax errors; its args[] table may be incomplete and is not checked", s.Name)})
	}
	if call != nil {
		s.HasArgs = true
		if al := call.ChildByField("arguments"); al != nil {
			s.ArgsEnd = al.End - 1
			s.readArgs(env, al)
		}
	}
	s.readParams(f, fn)
	s.readReturn(fn, def.before)
	s.Tensors, s.Scalars, s.Return = Pack(s.Params)
	for i := range s.Params {
		s.ParamsByName[s.Params[i].Name] = &s.Params[i]
	}
	if s.Tensors > 32 {
		s.Problems = append(s.Problems, Problem{s.Start, s.End, fmt.Sprintf("extern `%s` has %d tensor parameters; pypto packs at most 32", s.Name, s.Tensors)})
	}
	if s.Scalars > 16 {
		s.Problems = append(s.Problems, Problem{s.Start, s.End, fmt.Sprintf("extern `%s` has %d scalar parameters; pypto packs at most 16", s.Name, s.Scalars)})
	}
	return s
}

func hasError(n *grammar.Node) bool {
	ds := n.Descendants()
	for i := range ds {
		d := &ds[i]
		if d.IsError() || d.IsMissing() {
			return true
		}
	}
	return false
}

func (s *Stub) readArgs(env *env, al *grammar.Node) {
	pos := 0
	for _, a := range al.NamedChildren() {
		if a.Kind() == "comment" {
			continue
		}
		s.LastArgEnd = a.End
		kw, val := "", a
		switch a.Kind() {
		case "keyword_argument":
			if nm := a.ChildByField("name"); nm != nil {
				kw = nm.Text()
			}
			val = a.ChildByField("value")
		case "list_splat", "dictionary_splat":
			s.Problems = append(s.Problems, Problem{a.Start, a.End, "`*`/`**` arguments to pl.jit.extern cannot be read statically; the stub's sources and core type are unknown"})
			continue
		default:
			if pos < len(externKeywords) {
				kw = externKeywords[pos]
			}
			pos++
		}
		if val == nil {
			continue
		}
		switch kw {
		case "core_type":
			if v, ok := env.str(val); ok {
				s.CoreType, s.CoreTypeSet = v.s, true
				switch v.s {
				case "aiv", "aic", "mixed", "mix", "vector", "vec", "cube":
				default:
					s.Problems = append(s.Problems, Problem{val.Start, val.End, fmt.Sprintf("core_type=%q is not \"aiv\", \"aic\" or \"mixed\"; the kernel kind falls back to the C++ heuristic", v.s)})
				}
			} else {
				s.CoreTypeSet = true
				s.CoreType = ""
				s.Problems = append(s.Problems, Problem{val.Start, val.End, fmt.Sprintf("core_type=%s cannot be evaluated statically (%s); the kernel kind falls back to the C++ heuristic", val.Text(), v.why)})
			}
		case "source", "aic_source", "aiv_source":
			if val.Kind() == "none" {
				continue
			}
			src := Source{Keyword: kw, Expr: val.Text(), Start: val.Start, End: val.End}
			if v, ok := env.path(val); ok {
				src.Path = v
			} else {
				src.Reason = v
			}
			s.Sources = append(s.Sources, src)
		case "dual_aiv_dispatch":
			s.DualArg = &Span{val.Start, val.End}
			if b, ok := env.boolean(val); ok {
				s.DualAIVDispatch = b
			} else {
				s.Problems = append(s.Problems, Problem{val.Start, val.End, "dual_aiv_dispatch=" + val.Text() + " cannot be evaluated statically"})
			}
		case "include_dirs":
			if val.Kind() == "none" {
				continue
			}
			for _, it := range env.paths(val) {
				// An entry written in the argument is placed there; one
				// that comes from a constant or a helper is placed on the
				// argument and named by its own expression.
				n := it.node
				if n == nil || n.Start < val.Start || n.End > val.End {
					n = val
				}
				src := Source{Keyword: kw, Expr: clip(it.node.Text()), Path: it.val, Reason: string(it.why), Start: n.Start, End: n.End}
				if it.why != "" {
					src.Path = ""
				}
				s.IncludeDirs = append(s.IncludeDirs, src)
			}
		}
	}
	// One problem per argument span and reason: a helper listing twenty
	// folders under one environment variable is one thing not known.
	type group struct {
		first Source
		n     int
	}
	var order []string
	groups := map[string]*group{}
	for _, d := range s.IncludeDirs {
		if d.Path != "" {
			continue
		}
		key := fmt.Sprint(d.Start, d.End, d.Reason)
		if g := groups[key]; g != nil {
			g.n++
			continue
		}
		groups[key] = &group{first: d, n: 1}
		order = append(order, key)
	}
	for _, key := range order {
		g := groups[key]
		d := g.first
		what := "entry " + d.Expr
		if g.n > 1 {
			what = fmt.Sprintf("entries %s and %d more", d.Expr, g.n-1)
		}
		s.Problems = append(s.Problems, Problem{d.Start, d.End, fmt.Sprintf("include_dirs %s cannot be resolved statically (%s); headers only found through them are not linked to `%s`", what, d.Reason, s.Name)})
	}
	for _, src := range s.Sources {
		if src.Path == "" {
			s.Problems = append(s.Problems, Problem{src.Start, src.End, fmt.Sprintf("%s=%s cannot be resolved statically (%s); extern-lsp links `%s` to its C++ entry by file name instead", src.Keyword, src.Expr, src.Reason, s.Name)})
		}
	}
}

var dtypeRE = regexp.MustCompile(`^(?:INDEX|BOOL|U?INT(?:4|8|16|32|64)|FP(?:8|16|32|64)|BF16|HF(?:8|16|32)|FLOAT(?:16|32|64)?|BFLOAT16|DOUBLE|HALF)$`)

func (s *Stub) readParams(f *grammar.File, fn *grammar.Node) {
	ps := fn.ChildByField("parameters")
	if ps == nil {
		return
	}
	s.ParamsStart, s.ParamsEnd = ps.Start, ps.End
	for _, p := range ps.NamedChildren() {
		var name, typ *grammar.Node
		switch p.Kind() {
		case "identifier":
			name = p
		case "typed_parameter":
			for _, c := range p.NamedChildren() {
				if c.Field() == "" && c.Kind() == "identifier" && name == nil {
					name = c
				}
			}
			typ = p.ChildByField("type")
		case "typed_default_parameter", "default_parameter":
			name, typ = p.ChildByField("name"), p.ChildByField("type")
		case "list_splat_pattern", "dictionary_splat_pattern":
			s.Problems = append(s.Problems, Problem{p.Start, p.End, "`*args`/`**kwargs` in an extern signature cannot be packed statically"})
			continue
		case "comment", "keyword_separator", "positional_separator":
			continue
		default:
			continue
		}
		if name == nil {
			continue
		}
		prm := Param{Name: name.Text(), Pos: len(s.Params), File: f.Path, Start: p.Start, End: p.End,
			NameStart: name.Start, NameEnd: name.End}
		if typ == nil {
			s.Problems = append(s.Problems, Problem{name.Start, name.End, fmt.Sprintf("parameter `%s` has no pl type annotation; extern-lsp assumes a tensor", prm.Name)})
		} else {
			prm.Type = typ.Text()
			if !classifyType(unwrapType(typ), &prm) {
				s.Problems = append(s.Problems, Problem{typ.Start, typ.End, fmt.Sprintf("annotation `%s` of `%s` is not a pl tensor or scalar type; extern-lsp assumes a tensor", typ.Text(), prm.Name)})
			}
		}
		s.Params = append(s.Params, prm)
	}
}

func unwrapType(n *grammar.Node) *grammar.Node {
	for n != nil && n.Kind() == "type" {
		c := firstNamed(n)
		if c == nil {
			return n
		}
		n = c
	}
	return n
}

// lastName is the last component of a dotted name or the name itself.
func lastName(n *grammar.Node) string {
	switch n.Kind() {
	case "identifier":
		return n.Text()
	case "attribute":
		if a := n.ChildByField("attribute"); a != nil {
			return a.Text()
		}
	case "string":
		t := strings.Trim(n.Text(), `"'`)
		if i := strings.LastIndexByte(t, '.'); i >= 0 {
			t = t[i+1:]
		}
		return t
	}
	return ""
}

// classifyType reads a pl type annotation into kind, direction and dtype.
func classifyType(n *grammar.Node, p *Param) bool {
	if n == nil {
		return false
	}
	switch n.Kind() {
	case "identifier", "attribute", "string":
		name := lastName(n)
		switch {
		case name == "Tensor":
			p.Kind = Tensor
			return true
		case name == "Scalar":
			p.Kind = Scalar
			return true
		case dtypeRE.MatchString(name):
			p.Kind, p.DType = Scalar, name
			return true
		case name == "int" || name == "float" || name == "bool":
			p.Kind, p.DType = Scalar, name
			return true
		}
	case "subscript", "generic_type":
		var head *grammar.Node
		var subs []*grammar.Node
		if n.Kind() == "subscript" {
			head = n.ChildByField("value")
			subs = n.ChildrenByField("subscript")
		} else {
			cs := n.NamedChildren()
			if len(cs) > 0 {
				head = cs[0]
				if len(cs) > 1 {
					for _, c := range cs[1].NamedChildren() {
						subs = append(subs, unwrapType(c))
					}
				}
			}
		}
		if head == nil {
			return false
		}
		switch lastName(head) {
		case "Out", "InOut":
			p.Kind = Tensor
			p.Dir = Out
			if lastName(head) == "InOut" {
				p.Dir = InOut
			}
			if len(subs) > 0 {
				var inner Param
				if classifyType(unwrapType(subs[0]), &inner) {
					p.DType = inner.DType
				}
			}
			return true
		case "Tensor":
			p.Kind = Tensor
			for _, sub := range subs {
				if d := lastName(sub); dtypeRE.MatchString(d) {
					p.DType = d
				}
			}
			return true
		case "Scalar":
			p.Kind = Scalar
			if len(subs) > 0 {
				if d := lastName(unwrapType(subs[0])); d != "" {
					p.DType = d
				}
			}
			return true
		}
	}
	return false
}

var returnsRE = regexp.MustCompile(`#\s*returns?\s*:?\s*([A-Za-z_]\w*)`)

func (s *Stub) readReturn(fn, before *grammar.Node) {
	if rt := fn.ChildByField("return_type"); rt != nil {
		s.ReturnType = rt.Text()
		t := unwrapType(rt)
		switch t.Kind() {
		case "none":
			s.NoReturn = true
		case "generic_type", "subscript":
			var head *grammar.Node
			if t.Kind() == "subscript" {
				head = t.ChildByField("value")
			} else if cs := t.NamedChildren(); len(cs) > 0 {
				head = cs[0]
			}
			if head != nil {
				switch lastName(head) {
				case "tuple", "Tuple":
					s.MultiReturn = true
				}
			}
		case "tuple":
			s.MultiReturn = true
		case "string":
			if nm := strings.Trim(t.Text(), `"'`); isIdent(nm) {
				s.ReturnsNamed, s.ReturnsAt = nm, Span{t.Start, t.End}
			}
		}
		if s.ReturnType == "None" {
			s.NoReturn = true
		}
	}
	// A `# returns: name` comment on the def line, in the signature or the
	// first lines of the body names the intended return buffer.
	body := fn.ChildByField("body")
	limit := fn.End
	if body != nil {
		limit = body.Start
		if cs := body.NamedChildren(); len(cs) > 0 {
			limit = cs[0].End
		}
	}
	ds := fn.Descendants()
	for i := range ds {
		d := &ds[i]
		if d.Start > limit {
			break
		}
		if d.Kind() != "comment" {
			continue
		}
		if m := returnsRE.FindStringSubmatchIndex(d.Text()); m != nil {
			s.ReturnsNamed = d.Text()[m[2]:m[3]]
			s.ReturnsAt = Span{d.Start + uint32(m[2]), d.Start + uint32(m[3])}
			break
		}
	}
	// Comments between the decorator and the def sit outside fn.
	if s.ReturnsNamed == "" {
		if p := before; p != nil && p.Kind() == "comment" {
			if m := returnsRE.FindStringSubmatchIndex(p.Text()); m != nil {
				s.ReturnsNamed = p.Text()[m[2]:m[3]]
				s.ReturnsAt = Span{p.Start + uint32(m[2]), p.Start + uint32(m[3])}
			}
		}
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}
