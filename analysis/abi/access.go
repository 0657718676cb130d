package abi

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/extern-lsp/extern-lsp/analysis/cxx"
	"github.com/extern-lsp/extern-lsp/grammar"
)

// UseKind is how C++ code treats an args[] slot.
type UseKind int

const (
	UseUnknown UseKind = iota
	UseTensor          // reinterpret_cast to a pointer, passed to a tensor helper
	UseScalar          // cast to an integer or float, arithmetic, assigned to a number
)

func (u UseKind) String() string {
	switch u {
	case UseTensor:
		return "tensor"
	case UseScalar:
		return "scalar"
	}
	return "unknown"
}

// Cond is an enclosing branch on a template flag: the access only runs when
// the flag Name (a template parameter of Scope) equals Value.
type Cond struct {
	Scope string // the function or class template owning the parameter
	Name  string
	Value bool
	// Start, End span the conditional (ternary or if); accesses in the
	// other branch of the same conditional share it.
	Start, End uint32
}

// Access is one read of an args[] slot.
type Access struct {
	// Start, End span the index expression: `17` in args[17], `6` in
	// tensor_data<T>(args, 6), or a constant's name (Via "constant").
	Start, End uint32
	Node       *grammar.Node // args[...], the helper call, or the constant's declaration
	Index      *grammar.Node
	Slots      []int64 // candidate indices (two for `c ? a : b` with unknown c)
	Use        UseKind
	Via        string // "args[]", the helper's name, or "constant"
	File       string
	Func       string // the enclosing function
	Conds      []Cond
	// Cast is the C++ type the slot's value is converted to ("int32_t",
	// "float", "Tensor*", ...), "" when none is visible. Implicit is set
	// when the conversion is a declaration or arithmetic rather than a
	// written cast. CastNode is the cast expression or the declaration.
	Cast     string
	Implicit bool
	CastNode *grammar.Node
	// Value is the expression converted by CastNode (the access itself or
	// a variable holding it).
	Value *grammar.Node
	// Var is the variable that receives the slot's value, if any.
	Var string
	// MacroGuarded is set when the access sits in a preprocessor branch on
	// a macro extern-lsp cannot evaluate (`#ifdef WITH_ROPE`): an entry may
	// define it, so the access may belong to only some of the file's
	// externs.
	MacroGuarded bool
	// Computed is set when the helper computes the slot from the index
	// it is handed (Helper.IndexVia): no index written at the call can be
	// derived from a slot.
	Computed bool
}

// Helper is a function whose parameters carry the args pointer and an index
// that reaches args[index] (tensor_data<T>(args, i), arg_tensor(args, i)).
type Helper struct {
	Name              string
	ArgsPos, IndexPos int
	Offset            int64
	// IndexVia, when set, is the helper's expression computing the slot
	// from its index parameter IndexName (`args[SlotOf<A>()]`,
	// `args[static_cast<int>(s)]`, `args[kBase + 2 * i]`): a call's slot
	// is that expression with the parameter bound to the call's value,
	// plus Offset.
	IndexVia  *grammar.Node
	IndexName string
	// IndexMore are IndexVia's other index parameters (`args[nTensors +
	// pos]`: pos beside nTensors), each bound to the call's value at its
	// position.
	IndexMore []IndexParam
	Use       UseKind
	Cast      string
	// Spec is the conversion per type argument where Cast is a template
	// parameter the helper hands to a decoder with explicit
	// specialisations (`ScalarDecode<float>` bit-casts).
	Spec map[string]string
	// Returns is set when the helper hands back the raw slot value: the use
	// is decided at each call site.
	Returns bool
	File    string
	Node    *grammar.Node
	// ArgsName is, for a function-like macro reading the args pointer
	// by name (`#define ARG_I32(i) static_cast<int32_t>(args[(i)])`;
	// ArgsPos -1), the name its body reads: the caller's args pointer
	// must be called so.
	ArgsName string
}

// IndexParam is a helper's index parameter: its name and its position
// (tArgBase+k: the k-th template argument).
type IndexParam struct {
	Name string
	Pos  int
}

// castAt is the type the helper converts the slot to at call: its Cast,
// or, when that is a template parameter of the helper (`template
// <typename T> T scalar(args, k) { return static_cast<T>(args[k]); }`),
// the call's template argument in its place (`scalar<float>(args, 5)`:
// float); "" when the call does not say.
func (h *Helper) castAt(call cxx.Call) string {
	arg, param := h.typeArg(call, h.Cast)
	if !param {
		return h.Cast
	}
	if arg == nil {
		return ""
	}
	t, _ := typeOf(arg)
	if c, ok := h.Spec[t]; ok {
		return c
	}
	return t
}

// typeArg is the type argument call gives the helper's template
// parameter name: the call's own (`scalar<float>(args, 5)`) for a
// function template's, the scope's (`ScalarArg<float>::Read(args, 5)`)
// for a class template's member. param reports whether name is a
// template parameter of the helper at all.
func (h *Helper) typeArg(call cxx.Call, name string) (arg *grammar.Node, param bool) {
	if h.Node == nil || h.Node.Kind() != "function_definition" {
		return nil, false
	}
	all := cxx.TemplateParamNames(h.Node)
	var class []string
	if cls := cxx.ClassNode(h.Node); cls != nil {
		class = cxx.TemplateParamNames(cls)
	}
	own := all[:len(all)-len(class)]
	if i := slices.Index(own, name); i >= 0 {
		if i < len(call.TArgs) {
			return call.TArgs[i], true
		}
		return nil, true
	}
	if i := slices.Index(class, name); i >= 0 {
		if targs := scopeTArgs(call); i < len(targs) {
			return targs[i], true
		}
		return nil, true
	}
	return nil, false
}

// forwardedCast is the helper's Cast as a forwarder making call (in
// function fwd) hands it on: the type argument the call gives the
// helper's template parameter, which is a parameter of fwd's in turn
// (`ScalarArg<T>::Read(...)` in `GetScalar<T>`) or a type; the Cast
// itself when the call does not say.
func (h *Helper) forwardedCast(call cxx.Call, fwd *grammar.Node) string {
	arg, param := h.typeArg(call, h.Cast)
	if !param || arg == nil {
		return h.Cast
	}
	if t := strings.TrimSpace(arg.Text()); slices.Contains(cxx.TemplateParamNames(fwd), t) {
		return t
	}
	return h.castAt(call)
}

// scopeTArgs are the template arguments of a call's class scope
// (`ScalarArg<float>::Read(...)`: float).
func scopeTArgs(call cxx.Call) []*grammar.Node {
	fn := call.Node.ChildByField("function")
	if fn == nil || fn.Kind() != "qualified_identifier" {
		return nil
	}
	if sc := fn.ChildByField("scope"); sc != nil && sc.Kind() == "template_type" {
		if args := sc.ChildByField("arguments"); args != nil {
			return cxx.NamedNonComments(args)
		}
	}
	return nil
}

// Helpers maps helper names to their shape.
type Helpers map[string]*Helper

// FileHelpers is one file's share of FindHelpers, a function of the file
// alone (a caller may keep it per parse): the helpers that index args
// themselves, and the calls that may forward to a helper.
type FileHelpers struct {
	f *grammar.File
	// own are the helpers reading args[i] directly, the first definition
	// of each name.
	own []*Helper
	// fwd are the calls in functions taking an args pointer, in source
	// order: each forwards when it passes that pointer to a helper.
	fwd []fwdCall
	// argsFns: some function of the file takes an args pointer.
	argsFns bool
}

// ArgsFunctions reports whether some function of the file takes an args
// pointer. Every access Accesses reports sits in such a function, so a file
// without one (most vendored headers) has none, whatever its unit.
func (h *FileHelpers) ArgsFunctions() bool { return h.argsFns }

type fwdCall struct {
	n    *grammar.Node
	call cxx.Call
	fn   *grammar.Node
	name string
	fp   fnParams
}

// ScanHelpers scans one file for FindHelpers.
func ScanHelpers(f *grammar.File) *FileHelpers {
	out := &FileHelpers{f: f}
	if f == nil || f.Lang != grammar.CPP || f.Tree == nil {
		return out
	}
	pcache := map[*grammar.Node]fnParams{}
	params := func(fn *grammar.Node) fnParams {
		if p, ok := pcache[fn]; ok {
			return p
		}
		p := readFnParams(f, fn)
		pcache[fn] = p
		return p
	}
	out.own = append(out.own, macroHelpers(f)...)
	// Helpers are functions taking the args pointer: a file without one
	// (most headers) has none and forwards none (and caches no parameters).
	for _, fn := range f.Tree.OfKind("function_definition") {
		if readFnParams(f, fn).args != "" {
			out.argsFns = true
			break
		}
	}
	if !out.argsFns {
		return out
	}
	seen := map[string]bool{}
	for _, n := range f.Tree.OfKind("subscript_expression") {
		fn := n.Ancestor("function_definition")
		if fn == nil {
			continue
		}
		fp := params(fn)
		if fp.args == "" || len(fp.ints) == 0 {
			continue
		}
		arg := n.ChildByField("argument")
		idx := indexOf(n)
		if arg == nil || idx == nil || arg.Text() != fp.args {
			continue
		}
		pos, off, ok := fp.indexParam(idx)
		var via *grammar.Node
		var viaName string
		var more []IndexParam
		if !ok {
			if viaName, pos, more, ok = fp.indexVia(idx); !ok {
				continue
			}
			via = idx
		}
		name := cxx.FunctionName(fn)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		u := classify(f, n, nil)
		if u.kind == UseScalar && integerTypes[u.cast] && intoUnion(u.castNode) {
			// `bits.u = static_cast<uint32_t>(args[i]); return bits.f;`:
			// the helper bit-casts through a union.
			u.cast = "bitcast(union)"
		}
		var spec map[string]string
		if tp := copiedInto(fn); u.kind == UseScalar && Is64(u.cast) && tp != "" {
			// `uint64_t raw = args[i]; T v; memcpy(&v, &low, sizeof(T));
			// return v;`: the helper copies the slot's bits into its type
			// argument, a bit-cast for a float and the low word for a
			// 32-bit integer.
			u.cast, spec = tp, map[string]string{}
			for t := range floatTypes {
				spec[t] = "bitcast<" + t + ">"
			}
		}
		if u.kind == UseScalar && spec == nil {
			// `template <typename T> struct ScalarArg { T Read(args, k)
			// { return static_cast<T>(args[k]); } }` with explicit
			// specialisations of ScalarArg reading the slot their own
			// way: each one's conversion for its type.
			spec = specialisedReads(f, fn, u.cast)
		}
		if u.kind == UseUnknown && !u.returned {
			// `return ScalarDecode<T>::From(args[i]);`: the decoder's
			// conversion, per type argument.
			if c, sp, ok := decodedCast(f, n, fn); ok {
				u.kind, u.cast, spec = UseScalar, c, sp
			}
		}
		out.own = append(out.own, &Helper{Name: name, ArgsPos: fp.argsPos, IndexPos: pos, Offset: off, IndexVia: via, IndexName: viaName, IndexMore: more,
			Use: u.kind, Cast: u.cast, Spec: spec, Returns: u.returned, File: f.Path, Node: fn})
	}
	for _, n := range f.Tree.OfKind("call_expression") {
		fn := n.Ancestor("function_definition")
		if fn == nil {
			continue
		}
		fp := params(fn)
		if fp.args == "" {
			continue
		}
		name := cxx.FunctionName(fn)
		if name == "" {
			continue
		}
		if call, ok := cxx.AsCall(n); ok {
			out.fwd = append(out.fwd, fwdCall{n: n, call: call, fn: fn, name: name, fp: fp})
		}
	}
	return out
}

// specialisedReads returns, for fn, a member of a class template whose
// conversion of the slot is to the class's parameter cast, the
// conversion of the same member in each explicit specialisation of the
// class, by its type argument; nil when there is none.
func specialisedReads(f *grammar.File, fn *grammar.Node, cast string) map[string]string {
	cls := cxx.ClassNode(fn)
	if cls == nil || !slices.Contains(cxx.TemplateParamNames(cls), cast) {
		return nil
	}
	name := cls.ChildByField("name")
	if name == nil || name.Kind() != "type_identifier" {
		return nil
	}
	var spec map[string]string
	for _, d := range decoderDefs(f, name.Text(), cxx.FunctionName(fn)) {
		if d.specialFor == "" {
			continue
		}
		fp := readFnParams(f, d.fn)
		if fp.args == "" {
			continue
		}
		for _, n := range d.fn.Inside(f.Tree.OfKind("subscript_expression")) {
			if a := n.ChildByField("argument"); a == nil || a.Text() != fp.args {
				continue
			}
			u := classify(f, n, nil)
			if u.kind != UseScalar || u.cast == "" {
				break
			}
			if integerTypes[u.cast] && intoUnion(u.castNode) {
				u.cast = "bitcast(union)"
			}
			if spec == nil {
				spec = map[string]string{}
			}
			spec[d.specialFor] = u.cast
			break
		}
	}
	return spec
}

// macroSlotRead finds `args[(i)]` in a macro body: the args name and
// the index parameter.
var macroSlotRead = regexp.MustCompile(`\b(args|arg)\s*\[\s*\(?\s*(\w+)\s*\)?\s*\]`)

// macroCast finds the conversion a macro body applies to the slot.
var macroCast = regexp.MustCompile(`\b(static_cast|reinterpret_cast)\s*<([^<>]*(?:<[^<>]*>)?[^<>]*)>\s*\(\s*(?:args|arg)\s*\[`)

// macroHelpers returns the function-like macros of f that read the args
// pointer at one of their parameters (`#define ARG_I32(i)
// static_cast<int32_t>(args[(i)])`, `#define ARG_TENSOR(T, i)
// (reinterpret_cast<__gm__ T *>(reinterpret_cast<__gm__ Tensor
// *>(args[(i)])->buffer.addr) + ...)`): helpers whose args pointer is the
// caller's by name. The use is the body's cast of the slot (a pointer
// cast or a descriptor's fields: a tensor; a number: a scalar), else the
// use site's.
func macroHelpers(f *grammar.File) []*Helper {
	if !bytes.Contains(f.Src, []byte("#define")) {
		return nil
	}
	var out []*Helper
	for _, d := range f.Tree.OfKind("preproc_function_def") {
		name, params, value := d.ChildByField("name"), d.ChildByField("parameters"), d.ChildByField("value")
		if name == nil || params == nil || value == nil {
			continue
		}
		body := value.Text()
		m := macroSlotRead.FindStringSubmatch(body)
		if m == nil {
			continue
		}
		pos := -1
		for k, p := range params.NamedChildren() {
			if p.Text() == m[2] {
				pos = k
			}
		}
		if pos < 0 {
			continue
		}
		h := &Helper{Name: name.Text(), ArgsPos: -1, ArgsName: m[1], IndexPos: pos, File: f.Path, Node: d}
		switch c := macroCast.FindStringSubmatch(body); {
		case c != nil && strings.Contains(c[2], "*"), strings.Contains(body, "->buffer") || strings.Contains(body, "->start_offset"):
			h.Use = UseTensor
		case c != nil && c[1] == "static_cast":
			h.Use, h.Cast = UseScalar, strings.TrimSpace(c[2])
		default:
			h.Returns = true
		}
		out = append(out, h)
	}
	return out
}

// argsOf reports whether call hands helper h the args pointer of a
// function whose args parameter is named args: in its place, or, for a
// macro, by the name its body reads.
func (h *Helper) argsOf(call cxx.Call, args string) bool {
	if h.ArgsPos < 0 {
		return h.ArgsName == args
	}
	return h.ArgsPos < len(call.Args) && call.Args[h.ArgsPos].Text() == args
}

// JoinHelpers is FindHelpers over the files whose shares parts are, in
// order: the first definition of a name wins.
func JoinHelpers(parts ...*FileHelpers) Helpers {
	hs := Helpers{}
	for _, p := range parts {
		for _, h := range p.own {
			if hs[h.Name] == nil {
				hs[h.Name] = h
			}
		}
	}
	// Forwarding helpers: arg_tensor(args, i) { return tensor_data<T>(args, i); }
	for round := 0; round < 4; round++ {
		added := false
		for _, p := range parts {
			for _, c := range p.fwd {
				call := c.call
				h := hs[call.Name]
				if h == nil || h.indexArg(call) == nil || hs[c.name] != nil || !h.argsOf(call, c.fp.args) {
					continue
				}
				pos, off, ok := c.fp.indexParam(h.indexArg(call))
				via, viaName, more := h.IndexVia, h.IndexName, h.IndexMore
				switch {
				case ok && via != nil && (off != 0 || len(more) > 0):
					// `helper(args, i + 1)` of a helper computing its
					// slot from its parameter, or from several: not one
					// expression.
					continue
				case !ok && via == nil:
					// `tensor_at(args, SlotOf<A>())`, `read(args, nT +
					// pos)`: the forwarder computes the slot it hands on.
					if viaName, pos, more, ok = c.fp.indexVia(h.indexArg(call)); !ok {
						continue
					}
					via = h.indexArg(call)
				case !ok:
					continue
				}
				nh := &Helper{Name: c.name, ArgsPos: c.fp.argsPos, IndexPos: pos, Offset: off + h.Offset, IndexVia: via, IndexName: viaName, IndexMore: more,
					Use: h.Use, Cast: h.forwardedCast(call, c.fn), Spec: h.Spec, File: p.f.Path, Node: c.fn}
				if h.Returns || h.Use == UseUnknown {
					u := classify(p.f, c.n, nil)
					if u.kind != UseUnknown || u.returned {
						nh.Use, nh.Cast, nh.Returns = u.kind, u.cast, u.returned
					}
				}
				hs[c.name] = nh
				added = true
			}
		}
		if !added {
			break
		}
	}
	return hs
}

type fnParams struct {
	args    string
	argsPos int
	ints    map[string]int
}

func readFnParams(f *grammar.File, fn *grammar.Node) fnParams {
	fp := fnParams{ints: map[string]int{}}
	for _, p := range cxx.Params(fn) {
		if fp.args == "" && isArgsPointer(f, p) {
			fp.args, fp.argsPos = p.Name, int(p.Index)
			continue
		}
		// An index parameter: an integer, or an enum of slot names
		// (`ArgSlot s` for `args[s]`); only its uses as an index of
		// args count.
		if t := strings.TrimPrefix(strings.TrimSpace(p.TypeText), "const "); !p.Pointer && p.Name != "" && !floatTypes[t] && !strings.ContainsAny(t, "&<") {
			fp.ints[p.Name] = int(p.Index)
		}
	}
	// A template parameter as the index (`template <uint32_t S> ...
	// args[S]`): each call's template argument at its place.
	for _, name := range cxx.TemplateParamNames(fn) {
		if pos, _ := cxx.TemplateParam(fn, name); pos >= 0 {
			if _, taken := fp.ints[name]; !taken {
				fp.ints[name] = tArgBase + pos
			}
		}
	}
	return fp
}

// tArgBase marks an index position as a template argument's: IndexPos
// tArgBase+k is the call's k-th template argument.
const tArgBase = 1 << 20

// indexArg is what a call hands a helper as the index: the argument at
// IndexPos, or the template argument it names; nil when the call has
// none there.
func (h *Helper) indexArg(c cxx.Call) *grammar.Node { return argAt(c, h.IndexPos) }

// argAt is a call's argument at an index position: the pos-th, or the
// template argument tArgBase+k names; nil when the call has none there.
func argAt(c cxx.Call, pos int) *grammar.Node {
	if pos >= tArgBase {
		if k := pos - tArgBase; k < len(c.TArgs) {
			return c.TArgs[k]
		}
		return nil
	}
	if pos >= 0 && pos < len(c.Args) {
		return c.Args[pos]
	}
	return nil
}

// isArgsPointer accepts the extern args pointer (`__gm__ int64_t *args`)
// and, in helpers, a plain int64 pointer named like one.
func isArgsPointer(f *grammar.File, p cxx.Param) bool {
	if cxx.IsArgsParam(f, p) {
		return true
	}
	t := strings.TrimPrefix(strings.TrimSpace(p.TypeText), "const ")
	return p.Pointer && (t == "int64_t" || t == "uint64_t") && (p.Name == "args" || p.Name == "arg")
}

// indexParam matches an index expression `i`, `i + k` or `k + i` against
// the function's integer parameters.
func (fp fnParams) indexParam(n *grammar.Node) (pos int, off int64, ok bool) {
	n = cxx.Unparen(n)
	if n == nil {
		return 0, 0, false
	}
	if n.Kind() == "identifier" {
		p, ok := fp.ints[n.Text()]
		return p, 0, ok
	}
	if n.Kind() == "binary_expression" {
		op := n.ChildByField("operator")
		l, r := cxx.Unparen(n.ChildByField("left")), cxx.Unparen(n.ChildByField("right"))
		if op == nil || l == nil || r == nil {
			return 0, 0, false
		}
		if op.Text() == "+" || op.Text() == "-" {
			if l.Kind() == "identifier" && r.Kind() == "number_literal" {
				if p, ok := fp.ints[l.Text()]; ok {
					if k, ok := cxx.ParseInt(r.Text()); ok {
						if op.Text() == "-" {
							k = -k
						}
						return p, k, true
					}
				}
			}
			if op.Text() == "+" && r.Kind() == "identifier" && l.Kind() == "number_literal" {
				if p, ok := fp.ints[r.Text()]; ok {
					if k, ok := cxx.ParseInt(l.Text()); ok {
						return p, k, true
					}
				}
			}
		}
	}
	return 0, 0, false
}

// forwards reports whether index expression n is computed from the
// function's index parameters: the function is a helper, its reads are
// accounted at its call sites.
func (fp fnParams) forwards(n *grammar.Node) bool {
	if _, _, ok := fp.indexParam(n); ok {
		return true
	}
	_, _, _, ok := fp.indexVia(n)
	return ok
}

// indexVia matches an index computed from the function's index
// parameters by a constant expression (`SlotOf<A>()`,
// `static_cast<int>(s)`, `kBase + 2 * i`, `nTensors + pos`): the first
// parameter's name and position, and the others'.
func (fp fnParams) indexVia(n *grammar.Node) (name string, pos int, more []IndexParam, ok bool) {
	n = cxx.Unparen(n)
	if n == nil || len(fp.ints) == 0 {
		return "", 0, nil, false
	}
	check := func(c *grammar.Node) bool {
		switch c.Kind() {
		case "identifier", "type_identifier":
		case "conditional_expression":
			// `WithRope ? kRopeRow : kAttnRow`: a template flag picking
			// named slots, judged per unit by its bindings (Conds).
			return false
		default:
			return true
		}
		if p, is := fp.ints[c.Text()]; is {
			switch {
			case name == "":
				name, pos = c.Text(), p
			case name != c.Text() && !slices.ContainsFunc(more, func(q IndexParam) bool { return q.Name == c.Text() }):
				more = append(more, IndexParam{c.Text(), p})
			}
		}
		return true
	}
	if !check(n) {
		return "", 0, nil, false
	}
	ds := n.Descendants()
	for i := range ds {
		if !check(&ds[i]) {
			return "", 0, nil, false
		}
	}
	return name, pos, more, name != ""
}

func indexOf(sub *grammar.Node) *grammar.Node {
	idx := sub.ChildByField("indices")
	if idx == nil {
		idx = sub.ChildByField("index")
	}
	if idx != nil && idx.Kind() == "subscript_argument_list" {
		for _, c := range idx.NamedChildren() {
			if c.Kind() != "comment" {
				return c
			}
		}
		return nil
	}
	return idx
}

var integerTypes = map[string]bool{
	"int": true, "int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true, "uint8_t": true, "uint16_t": true,
	"uint32_t": true, "uint64_t": true, "long": true, "long long": true, "unsigned": true, "unsigned int": true,
	"unsigned long": true, "unsigned long long": true, "size_t": true, "ssize_t": true, "short": true, "char": true,
	"int64": true, "uint64": true, "int32": true, "uint32": true, "uintptr_t": true, "intptr_t": true, "bool": true,
	"signed": true, "ptrdiff_t": true,
}

var floatTypes = map[string]bool{"float": true, "double": true, "half": true, "bfloat16_t": true, "float16_t": true, "__fp16": true, "bf16": true}

// Is64 reports a 64-bit integer type.
func Is64(t string) bool {
	switch t {
	case "int64_t", "uint64_t", "long", "long long", "unsigned long", "unsigned long long", "size_t", "ssize_t", "int64", "uint64", "uintptr_t", "intptr_t", "ptrdiff_t":
		return true
	}
	return false
}

// IsFloat reports a floating-point type.
func IsFloat(t string) bool { return floatTypes[t] }

// IsInteger reports an integer type.
func IsInteger(t string) bool { return integerTypes[t] }

// FloatAfter returns, for an explicit integer cast of a slot read (n:
// `static_cast<uint32_t>(args[k])`), the conversion of its value to a
// floating type that follows: an outer cast (`static_cast<float>(...)`,
// `(float)...`) or a floating variable it initialises (`float x =
// ...;`); nil when the integer goes elsewhere (a variable of its own, a
// union member: a later bit-cast).
func FloatAfter(f *grammar.File, n *grammar.Node) *grammar.Node {
	u := classify(f, n, nil)
	if u.kind != UseScalar || !floatTypes[u.cast] {
		return nil
	}
	return u.castNode
}

type use struct {
	kind     UseKind
	cast     string
	implicit bool
	castNode *grammar.Node
	value    *grammar.Node
	varName  string
	returned bool
}

// typeOf reads a type_descriptor (or a declaration's type and declarator)
// into a type text and whether it is a pointer.
func typeOf(td *grammar.Node) (string, bool) {
	if td == nil {
		return "", false
	}
	t := td.ChildByField("type")
	if t == nil {
		return strings.TrimSpace(td.Text()), strings.Contains(td.Text(), "*")
	}
	ptr := false
	for d := td.ChildByField("declarator"); d != nil; d = d.ChildByField("declarator") {
		if strings.Contains(d.Kind(), "pointer") {
			ptr = true
		}
	}
	name := strings.TrimSpace(t.Text())
	if ptr {
		return name + "*", true
	}
	return name, false
}

// idIndex maps identifier texts to their nodes, built once per file.
type idIndex map[string][]*grammar.Node

func buildIDIndex(f *grammar.File) idIndex {
	ix := idIndex{}
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		if n.Kind() == "identifier" {
			ix[n.Text()] = append(ix[n.Text()], n)
		}
	}
	return ix
}

// classify decides how the value of expression n (an args[] read or a
// helper call returning one) is used. ids, when non-nil, lets it follow a
// variable that receives the value to its uses.
func classify(f *grammar.File, n *grammar.Node, ids idIndex) use {
	cur := n
	p := cur.Parent()
	for p != nil {
		if p.Kind() == "parenthesized_expression" || p.Kind() == "conditional_expression" && (cur.Field() == "consequence" || cur.Field() == "alternative") {
			cur, p = p, p.Parent()
			continue
		}
		break
	}
	if p == nil {
		return use{}
	}
	switch p.Kind() {
	case "argument_list":
		call, ok := cxx.AsCall(p.Parent())
		if !ok {
			return use{}
		}
		switch call.Name {
		case "reinterpret_cast", "static_cast", "const_cast":
			if len(call.TArgs) == 0 {
				return use{}
			}
			t, ptr := typeOf(call.TArgs[0])
			if ptr {
				return use{kind: UseTensor, cast: t, castNode: call.Node, value: cur}
			}
			return use{kind: UseScalar, cast: t, castNode: call.Node, value: cur}
		case "from_u64", "bit_cast", "BitCast", "bitcast", "as_float", "u64_to_float", "AsFloat":
			t := "bitcast"
			if len(call.TArgs) > 0 {
				t, _ = typeOf(call.TArgs[0])
				t = "bitcast<" + t + ">"
			}
			return use{kind: UseScalar, cast: t, castNode: call.Node, value: cur}
		}
		if integerTypes[call.Name] || floatTypes[call.Name] {
			return use{kind: UseScalar, cast: call.Name, castNode: call.Node, value: cur}
		}
		return use{}
	case "cast_expression":
		t, ptr := typeOf(p.ChildByField("type"))
		if ptr {
			return use{kind: UseTensor, cast: t, castNode: p, value: cur}
		}
		return use{kind: UseScalar, cast: t, castNode: p, value: cur}
	case "init_declarator":
		if cur.Field() != "value" {
			return use{}
		}
		decl := p.Parent()
		name := p.ChildByField("declarator")
		if decl == nil || name == nil {
			return use{}
		}
		ptr := false
		for name != nil && name.Kind() != "identifier" {
			if strings.Contains(name.Kind(), "pointer") {
				ptr = true
			}
			name = name.ChildByField("declarator")
		}
		base := use{castNode: p, value: cur, implicit: true}
		if name != nil {
			base.varName = name.Text()
		}
		t := ""
		if tn := decl.ChildByField("type"); tn != nil {
			t = strings.TrimSpace(tn.Text())
		}
		switch {
		case ptr:
			base.kind, base.cast = UseTensor, t+"*"
		case integerTypes[t] || floatTypes[t]:
			base.kind, base.cast = UseScalar, t
		}
		if ids != nil && name != nil && base.kind != UseTensor {
			// A raw slot stashed in a variable and cast to a pointer later
			// is a tensor use; an untyped (auto) variable takes its uses.
			fu := flow(f, name, ids)
			if fu.kind == UseTensor || base.kind == UseUnknown && fu.kind != UseUnknown {
				fu.varName = base.varName
				return fu
			}
		}
		return base
	case "assignment_expression":
		if cur.Field() != "right" {
			return use{}
		}
		op := p.ChildByField("operator")
		left := p.ChildByField("left")
		if op != nil && op.Text() != "=" {
			return use{kind: UseScalar, value: cur, castNode: p, implicit: true, cast: "int64_t"}
		}
		u := use{}
		if unionMember(left) {
			// `bits.u = static_cast<uint32_t>(args[k]); return bits.f;`:
			// the bits stored for a read through another member.
			return use{kind: UseScalar, cast: "bitcast(union)", castNode: p, value: cur}
		}
		if left != nil && left.Kind() == "identifier" {
			u.varName = left.Text()
			if ids != nil {
				if fu := flow(f, left, ids); fu.kind != UseUnknown {
					fu.varName = u.varName
					return fu
				}
			}
		}
		return u
	case "binary_expression":
		op := p.ChildByField("operator")
		if op == nil {
			return use{}
		}
		switch op.Text() {
		case "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=":
			return use{kind: UseScalar, cast: "int64_t", implicit: true, castNode: p, value: cur}
		}
		return use{}
	case "unary_expression":
		if op := p.ChildByField("operator"); op != nil && (op.Text() == "-" || op.Text() == "~") {
			return use{kind: UseScalar, cast: "int64_t", implicit: true, castNode: p, value: cur}
		}
	case "subscript_argument_list":
		// Used as an index into another array.
		if sub := p.Parent(); sub != nil && sub.ChildByField("argument") != nil {
			return use{kind: UseScalar, cast: "int64_t", implicit: true, castNode: sub, value: cur}
		}
	case "update_expression":
		return use{kind: UseScalar, cast: "int64_t", implicit: true, castNode: p, value: cur}
	case "return_statement":
		return use{returned: true}
	}
	return use{}
}

// copiedInto returns the template parameter a helper returns (`template
// <typename T> T ScalarArg(...)`) when its body copies bytes with memcpy:
// its value is the slot's bits in T. "" otherwise.
func copiedInto(fn *grammar.Node) string {
	t := fn.ChildByField("type")
	if t == nil || fn.Parent() == nil || fn.Parent().Kind() != "template_declaration" {
		return ""
	}
	ret := strings.TrimSpace(t.Text())
	if !slices.Contains(cxx.TemplateParamNames(fn), ret) {
		return ""
	}
	for _, c := range fn.Inside(fn.Tree().OfKind("call_expression")) {
		switch cxx.CallName(c) {
		case "memcpy", "__builtin_memcpy", "memcpy_s":
			return ret
		}
	}
	return ""
}

// intoUnion reports whether the integer value of cast n (through further
// integer casts) is stored into a member of a local union.
func intoUnion(n *grammar.Node) bool {
	for cur := n; cur != nil; {
		p := cur.Parent()
		for p != nil && (p.Kind() == "parenthesized_expression" || p.Kind() == "argument_list") {
			cur, p = p, p.Parent()
		}
		if p == nil {
			return false
		}
		switch p.Kind() {
		case "assignment_expression":
			return cur.Field() == "right" && unionMember(p.ChildByField("left"))
		case "cast_expression":
			cur = p
		case "call_expression":
			if c, ok := cxx.AsCall(p); !ok || c.Name != "static_cast" && !integerTypes[c.Name] {
				return false
			}
			cur = p
		default:
			return false
		}
	}
	return false
}

// unionMember reports whether e is a member of a local union (`bits.u`
// where the function declares `union { uint32_t u; float f; } bits;`).
func unionMember(e *grammar.Node) bool {
	if e == nil || e.Kind() != "field_expression" {
		return false
	}
	obj := e.ChildByField("argument")
	fn := e.Ancestor("function_definition")
	if obj == nil || obj.Kind() != "identifier" || fn == nil {
		return false
	}
	for _, d := range fn.Inside(fn.Tree().OfKind("declaration")) {
		t := d.ChildByField("type")
		if t == nil || t.Kind() != "union_specifier" {
			continue
		}
		for _, dl := range d.ChildrenByField("declarator") {
			if cxx.DeclaredName(dl) == obj.Text() {
				return true
			}
		}
	}
	return false
}

// flow follows a variable to its later uses in the same function: a tensor
// use anywhere wins, else the first scalar use.
func flow(f *grammar.File, decl *grammar.Node, ids idIndex) use {
	fn := decl.Ancestor("function_definition")
	if fn == nil {
		return use{}
	}
	var scalar use
	for _, id := range ids[decl.Text()] {
		if id.Start <= decl.Start || id.Start >= fn.End || id.Start < fn.Start {
			continue
		}
		u := classify(f, id, nil)
		if u.kind == UseTensor {
			return u
		}
		if u.kind == UseScalar && scalar.kind == UseUnknown {
			scalar = u
		}
	}
	return scalar
}

// Accesses finds the args[] reads of a C++ file: `args[N]` on the extern
// args parameter of the enclosing function, and calls of helpers at their
// index argument. consts resolves named indices; helpers come from
// FindHelpers over the file and what its compile includes.
func Accesses(f *grammar.File, consts *cxx.Resolver, helpers Helpers) []Access {
	if f == nil || f.Lang != grammar.CPP || f.Tree == nil {
		return nil
	}
	if consts == nil {
		consts = cxx.NewResolver(f)
	}
	ids := buildIDIndex(f)
	guards := abiMacroGuards(f)
	pcache := map[*grammar.Node]fnParams{}
	params := func(fn *grammar.Node) fnParams {
		if p, ok := pcache[fn]; ok {
			return p
		}
		p := readFnParams(f, fn)
		pcache[fn] = p
		return p
	}
	var out []Access
	for i := range f.Tree.Nodes {
		n := &f.Tree.Nodes[i]
		switch n.Kind() {
		case "subscript_expression":
			arg := n.ChildByField("argument")
			if arg == nil || arg.Kind() != "identifier" {
				continue
			}
			fn := n.Ancestor("function_definition")
			if fn == nil {
				continue
			}
			fp := params(fn)
			if fp.args == "" || arg.Text() != fp.args {
				continue
			}
			idx := indexOf(n)
			if idx == nil {
				continue
			}
			if fp.forwards(idx) {
				// The helper's own args[i]: accounted at its call sites.
				continue
			}
			a := Access{Start: idx.Start, End: idx.End, Node: n, Index: idx, Slots: evalIndex(consts, idx), Via: "args[]", File: f.Path, Func: cxx.FunctionName(fn)}
			u := classify(f, n, ids)
			a.setUse(u)
			a.Conds = conds(n, fn, consts)
			a.MacroGuarded = inRanges(guards, n.Start)
			out = append(out, a)
		case "call_expression":
			if len(helpers) == 0 {
				continue
			}
			call, ok := cxx.AsCall(n)
			if !ok {
				continue
			}
			h := helpers[call.Name]
			if h == nil || h.indexArg(call) == nil {
				continue
			}
			fn := n.Ancestor("function_definition")
			if fn == nil {
				continue
			}
			fp := params(fn)
			if fp.args == "" || !h.argsOf(call, fp.args) {
				continue
			}
			idx := h.indexArg(call)
			if fp.forwards(idx) {
				continue
			}
			slots := evalIndex(consts, idx)
			if h.IndexVia != nil {
				bound := map[string][]int64{h.IndexName: slots}
				for _, q := range h.IndexMore {
					if a := argAt(call, q.Pos); a != nil {
						bound[q.Name] = evalIndex(consts, a)
					}
				}
				slots = consts.Bind(bound).EvalAll(h.IndexVia)
			}
			if h.Offset != 0 {
				for k := range slots {
					slots[k] += h.Offset
				}
			}
			a := Access{Start: idx.Start, End: idx.End, Node: n, Index: idx, Slots: slots, Via: call.Name, File: f.Path, Func: cxx.FunctionName(fn), Computed: h.IndexVia != nil}
			if h.Returns || h.Use == UseUnknown {
				a.setUse(classify(f, n, ids))
			} else {
				a.Use, a.Cast = h.Use, h.castAt(call)
				u := classify(f, n, ids)
				a.Var = u.varName
				if h.Use == UseScalar && u.kind == UseScalar && u.castNode != nil && !u.implicit && !strings.HasPrefix(a.Cast, "bitcast") {
					// A cast written at the call site decides the width:
					// static_cast<int32_t>(scalar_arg(args, k)). Not of a
					// helper that bit-casts the slot: its result is a value.
					a.Cast, a.CastNode, a.Value = u.cast, u.castNode, u.value
				}
			}
			a.Conds = conds(n, fn, consts)
			a.MacroGuarded = inRanges(guards, n.Start)
			out = append(out, a)
		}
	}
	return out
}

// evalIndex evaluates an index; tree-sitter reads `-1` as one number
// literal, which the resolver's unsigned parse rejects.
func evalIndex(consts *cxx.Resolver, idx *grammar.Node) []int64 {
	vs := consts.EvalAll(idx)
	if len(vs) == 0 && idx.Kind() == "number_literal" && strings.HasPrefix(idx.Text(), "-") {
		if v, ok := cxx.ParseInt(strings.TrimSpace(idx.Text()[1:])); ok {
			return []int64{-v}
		}
	}
	return vs
}

func (a *Access) setUse(u use) {
	a.Use, a.Cast, a.Implicit, a.CastNode, a.Value, a.Var = u.kind, u.cast, u.implicit, u.castNode, u.value, u.varName
}

// templateParams returns the non-type template parameter names of the
// template declaring fn (or fn's class), with the scope name they belong to.
func templateParams(fn *grammar.Node) map[string]string {
	out := map[string]string{}
	add := func(td *grammar.Node, scope string) {
		if td == nil || td.Kind() != "template_declaration" {
			return
		}
		ps := td.ChildByField("parameters")
		if ps == nil {
			return
		}
		for _, p := range ps.NamedChildren() {
			if p.Kind() != "parameter_declaration" && p.Kind() != "optional_parameter_declaration" {
				continue
			}
			if d := p.ChildByField("declarator"); d != nil && d.Kind() == "identifier" {
				if _, ok := out[d.Text()]; !ok {
					out[d.Text()] = scope
				}
			}
		}
	}
	add(fn.Parent(), cxx.FunctionName(fn))
	if cls := fn.Ancestor("class_specifier", "struct_specifier"); cls != nil {
		if nm := cls.ChildByField("name"); nm != nil {
			add(cls.Parent(), nm.Text())
		}
	}
	return out
}

// conds lists the template-flag branches enclosing n inside fn.
func conds(n, fn *grammar.Node, consts *cxx.Resolver) []Cond {
	var tps map[string]string
	var out []Cond
	child := n
	for p := n.Parent(); p != nil && p != fn; child, p = p, p.Parent() {
		var cond *grammar.Node
		var val bool
		switch p.Kind() {
		case "conditional_expression":
			switch child.Field() {
			case "consequence":
				val = true
			case "alternative":
				val = false
			default:
				continue
			}
			cond = p.ChildByField("condition")
		case "if_statement":
			switch {
			case child.Field() == "consequence":
				val = true
			case child.Field() == "alternative" || child.Kind() == "else_clause":
				val = false
			default:
				continue
			}
			cond = p.ChildByField("condition")
			if cond != nil && cond.Kind() == "condition_clause" {
				if v := cond.ChildByField("value"); v != nil {
					cond = v
				} else if c := firstNamed(cond); c != nil {
					cond = c
				}
			}
		default:
			continue
		}
		cond = cxx.Unparen(cond)
		neg := false
		for cond != nil && cond.Kind() == "unary_expression" {
			op := cond.ChildByField("operator")
			if op == nil || op.Text() != "!" {
				break
			}
			neg = !neg
			cond = cxx.Unparen(cond.ChildByField("argument"))
		}
		if cond == nil || cond.Kind() != "identifier" {
			continue
		}
		if tps == nil {
			tps = templateParams(fn)
		}
		scope, ok := tps[cond.Text()]
		if !ok {
			continue
		}
		out = append(out, Cond{Scope: scope, Name: cond.Text(), Value: val != neg, Start: p.Start, End: p.End})
	}
	return out
}

// Bindings is what one extern unit (an entry and what it includes)
// instantiates: the values of template flags and which functions the entry
// reaches.
type Bindings struct {
	// Values maps a template (function or class name) to the values its
	// non-type parameters take; a parameter seen with two values, or never
	// instantiated, is absent.
	Values map[string]map[string]int64
	// Live holds the functions reachable from the entry through calls that
	// are not in a discarded `if constexpr` / ternary branch; nil when the
	// call graph could not be followed (everything counts as live).
	Live map[string]bool
}

// Value returns a template parameter's binding.
func (b *Bindings) Value(scope, name string) (int64, bool) {
	if b == nil {
		return 0, false
	}
	v, ok := b.Values[scope][name]
	return v, ok
}

// IsLive reports whether the unit can run function fn.
func (b *Bindings) IsLive(fn string) bool {
	if b == nil || b.Live == nil || fn == "" {
		return true
	}
	return b.Live[fn]
}

// Compiled reports whether an access runs in the unit: its function is
// reachable and no enclosing template-flag branch is bound the other way.
func (b *Bindings) Compiled(a *Access) bool {
	if !b.IsLive(a.Func) {
		return false
	}
	for _, c := range a.Conds {
		if v, ok := b.Value(c.Scope, c.Name); ok && (v != 0) != c.Value {
			return false
		}
	}
	return true
}

type fnDef struct {
	node  *grammar.Node
	scope string // the name template parameters are recorded under
	tmpl  tmplParams
}

// tmplParams are a template's positional parameters: names ("" for type
// parameters) and default arguments (nil where there is none).
type tmplParams struct {
	names    []string
	defaults []*grammar.Node
}

func templateParamList(td *grammar.Node) tmplParams {
	var tp tmplParams
	if td == nil || td.Kind() != "template_declaration" {
		return tp
	}
	if ps := td.ChildByField("parameters"); ps != nil {
		for _, p := range ps.NamedChildren() {
			switch p.Kind() {
			case "comment":
				continue
			case "parameter_declaration", "optional_parameter_declaration":
				nm := ""
				if d := p.ChildByField("declarator"); d != nil && d.Kind() == "identifier" {
					nm = d.Text()
				}
				tp.names = append(tp.names, nm)
			default:
				tp.names = append(tp.names, "")
			}
			var def *grammar.Node
			if p.Kind() == "optional_parameter_declaration" {
				def = p.ChildByField("default_value")
			}
			tp.defaults = append(tp.defaults, def)
		}
	}
	return tp
}

// FileDefs are the function and class definitions of one file, indexed
// from the file alone for BindDefs.
type FileDefs struct {
	fns     map[string][]fnDef
	classes []fileClass
	tree    *grammar.Tree
	// bound memoizes bindingOf per function of the file: kept with the
	// parse, so an edit elsewhere in the unit walks no body of this file.
	mu    sync.Mutex
	bound map[*grammar.Node]*fnBinding
}

// fnBinding is what BindDefs reads of a function: its template parameters
// (templateParams) and its sites.
type fnBinding struct {
	tps   map[string]string
	sites []bindSite
}

// bindSite is a call, a template type or a class object's declaration in
// a function body: what can bind template parameters or run a class's
// methods, with the name it calls or instantiates.
type bindSite struct {
	node *grammar.Node
	name string
	call bool
}

// bindingOf reads fn's template parameters, and its calls and named
// template types in preorder.
func bindingOf(fn *grammar.Node) *fnBinding {
	b := &fnBinding{tps: templateParams(fn)}
	if len(b.tps) == 0 {
		b.tps = nil // kept with the parse: most functions have none
	}
	body := fn.ChildByField("body")
	if body == nil {
		return b
	}
	var out []bindSite
	ds := body.Descendants()
	for k := range ds {
		n := &ds[k]
		switch n.Kind() {
		case "call_expression":
			if call, ok := cxx.AsCall(n); ok {
				out = append(out, bindSite{n, call.Name, true})
			}
		case "template_type":
			if nm := n.ChildByField("name"); nm != nil {
				out = append(out, bindSite{n, nm.Text(), false})
			}
		case "declaration":
			// An object of a plain class (`gq::Op op(args);`, which may
			// parse as a function declaration): its constructor and
			// methods run.
			if t := n.ChildByField("type"); t != nil && (t.Kind() == "type_identifier" || t.Kind() == "qualified_identifier") {
				if nm := cxx.BaseName(t.Text()); nm != "" {
					out = append(out, bindSite{n, nm, false})
				}
			}
		}
	}
	b.sites = out
	return b
}

// bindingIn is bindingOf(fn), once per function of d's parse (nil: fn is
// in none of the files).
func bindingIn(d *FileDefs, fn *grammar.Node) *fnBinding {
	if d == nil {
		return bindingOf(fn)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	b := d.bound[fn]
	if b == nil {
		b = bindingOf(fn)
		if d.bound == nil {
			d.bound = map[*grammar.Node]*fnBinding{}
		}
		d.bound[fn] = b
	}
	return b
}

// fileClass is one class or struct definition of a file.
type fileClass struct {
	name    string
	tmpl    tmplParams
	methods []*grammar.Node
}

// IndexDefs indexes the definitions of f.
func IndexDefs(f *grammar.File) *FileDefs {
	d := &FileDefs{fns: map[string][]fnDef{}}
	if f == nil || f.Tree == nil || f.Lang != grammar.CPP {
		return d
	}
	d.tree = f.Tree
	for _, n := range f.Tree.OfKind("function_definition") {
		if name := cxx.FunctionName(n); name != "" {
			d.fns[name] = append(d.fns[name], fnDef{node: n, scope: name, tmpl: templateParamList(n.Parent())})
		}
	}
	// Classes and structs in source order.
	types := append(slices.Clone(f.Tree.OfKind("class_specifier")), f.Tree.OfKind("struct_specifier")...)
	slices.SortFunc(types, func(a, b *grammar.Node) int { return a.Index() - b.Index() })
	for _, n := range types {
		nm, body := n.ChildByField("name"), n.ChildByField("body")
		if nm == nil || body == nil {
			continue
		}
		c := fileClass{name: nm.Text(), tmpl: templateParamList(n.Parent())}
		for _, m := range body.NamedChildren() {
			if m.Kind() == "template_declaration" {
				if c := m.ChildOfKind("function_definition"); c != nil {
					m = c
				}
			}
			if m.Kind() == "function_definition" {
				c.methods = append(c.methods, m)
			}
		}
		d.classes = append(d.classes, c)
	}
	return d
}

// Defs are the definitions of a list of files by name, in file order
// (JoinDefs).
type Defs struct {
	fns     map[string][]fnDef
	classes map[string]*classDef
	byTree  map[*grammar.Tree]*FileDefs
}

type classDef struct {
	tmpl    tmplParams
	methods []*grammar.Node
}

// JoinDefs joins the definitions of files, each file once: the entries
// of a header list share the join of their headers.
func JoinDefs(files []*FileDefs) *Defs {
	j := &Defs{fns: map[string][]fnDef{}, classes: map[string]*classDef{}, byTree: make(map[*grammar.Tree]*FileDefs, len(files))}
	for _, d := range files {
		j.add(d)
	}
	return j
}

func (j *Defs) add(d *FileDefs) {
	if d.tree != nil {
		j.byTree[d.tree] = d
	}
	for name, ds := range d.fns {
		j.fns[name] = append(j.fns[name], ds...)
	}
	for _, c := range d.classes {
		cd := j.classes[c.name]
		if cd == nil {
			cd = &classDef{tmpl: c.tmpl}
			j.classes[c.name] = cd
		}
		cd.methods = append(cd.methods, c.methods...)
	}
}

// BindDefs is Bind over the definitions of the entry file, own, and
// those of the other files of its closure, rest (JoinDefs; read, not
// changed).
func BindDefs(entry *grammar.File, own *FileDefs, rest *Defs, consts *cxx.Resolver) *Bindings {
	if entry == nil || entry.Tree == nil {
		return nil
	}
	// The entry's names first: a join of its file and rest for the names
	// it defines, rest's own lists for the others.
	first := JoinDefs([]*FileDefs{own})
	for name := range first.fns {
		first.fns[name] = append(first.fns[name], rest.fns[name]...)
	}
	for name, cd := range first.classes {
		if r := rest.classes[name]; r != nil {
			cd.methods = append(cd.methods, r.methods...)
		}
	}
	fnsNamed := func(name string) []fnDef {
		if ds, ok := first.fns[name]; ok {
			return ds
		}
		return rest.fns[name]
	}
	classNamed := func(name string) *classDef {
		if cd := first.classes[name]; cd != nil {
			return cd
		}
		return rest.classes[name]
	}
	defsOf := func(t *grammar.Tree) *FileDefs {
		if d := first.byTree[t]; d != nil {
			return d
		}
		return rest.byTree[t]
	}
	vals := map[string]map[string]map[int64]bool{}
	lookup := func(scope, name string) (int64, bool) {
		vs := vals[scope][name]
		if len(vs) != 1 {
			return 0, false
		}
		for v := range vs {
			return v, true
		}
		return 0, false
	}
	changed := false
	// record binds a template's parameters from an instantiation's
	// arguments; the parameters it leaves out take their default arguments
	// (evaluated in the template's own scope: `bool B = !A` reads A).
	record := func(scope string, tp tmplParams, args []*grammar.Node, eval func(*grammar.Node) []int64) {
		for i, nm := range tp.names {
			if nm == "" {
				continue
			}
			var vs []int64
			switch {
			case i < len(args):
				vs = eval(args[i])
			case tp.defaults[i] != nil:
				// A default argument is evaluated in the template's own
				// scope: an earlier parameter takes its bound value.
				vs = evalBound(tp.defaults[i], func(name string) (string, bool) { return scope, slices.Contains(tp.names[:i], name) }, lookup, consts)
			}
			if len(vs) != 1 {
				continue
			}
			if vals[scope] == nil {
				vals[scope] = map[string]map[int64]bool{}
			}
			if vals[scope][nm] == nil {
				vals[scope][nm] = map[int64]bool{}
			}
			if !vals[scope][nm][vs[0]] {
				vals[scope][nm][vs[0]] = true
				changed = true
			}
		}
	}
	live := map[*grammar.Node]bool{}
	liveNames := map[string]bool{}
	var order []*grammar.Node
	markLive := func(fn *grammar.Node) {
		if !live[fn] {
			live[fn] = true
			liveNames[cxx.FunctionName(fn)] = true
			order = append(order, fn)
			changed = true
		}
	}
	roots, helpers := cxx.Entries(entry)
	if len(roots) == 0 {
		roots = helpers
	}
	if len(roots) == 0 {
		roots = cxx.Functions(entry)
	}
	for _, r := range roots {
		markLive(r)
	}
	nRoots := len(order)
	resolved := false
	targs := func(n *grammar.Node) []*grammar.Node {
		var out []*grammar.Node
		if al := n.ChildByField("arguments"); al != nil {
			for _, a := range al.NamedChildren() {
				if a.Kind() != "comment" {
					out = append(out, a)
				}
			}
		}
		return out
	}
	for round := 0; round < 8; round++ {
		changed = false
		for i := 0; i < len(order); i++ {
			fn := order[i]
			fb := bindingIn(defsOf(fn.Tree()), fn)
			tps := fb.tps
			eval := func(n *grammar.Node) []int64 {
				return evalBound(n, func(name string) (string, bool) { s, ok := tps[name]; return s, ok }, lookup, consts)
			}
			dead := func(n *grammar.Node) bool {
				for _, c := range conds(n, fn, nil) {
					if v, ok := lookup(c.Scope, c.Name); ok && (v != 0) != c.Value {
						return true
					}
				}
				return false
			}
			for _, st := range fb.sites {
				n := st.node
				if st.call {
					ds := fnsNamed(st.name)
					if len(ds) == 0 || dead(n) {
						continue
					}
					call, _ := cxx.AsCall(n)
					resolved = true
					for _, d := range ds {
						markLive(d.node)
						if len(d.tmpl.names) > 0 {
							record(d.scope, d.tmpl, call.TArgs, eval)
						}
					}
					continue
				}
				cd := classNamed(st.name)
				if cd == nil || dead(n) {
					continue
				}
				resolved = true
				record(st.name, cd.tmpl, targs(n), eval)
				for _, m := range cd.methods {
					markLive(m)
				}
			}
		}
		if !changed {
			break
		}
	}
	b := &Bindings{Values: map[string]map[string]int64{}}
	for scope := range vals {
		for p := range vals[scope] {
			if v, ok := lookup(scope, p); ok {
				if b.Values[scope] == nil {
					b.Values[scope] = map[string]int64{}
				}
				b.Values[scope][p] = v
			}
		}
	}
	if resolved || len(order) > nRoots {
		b.Live = liveNames
	}
	return b
}

// evalBound evaluates a template argument: a name (possibly negated) that
// scopeOf places in a template takes the value bound there, anything else
// is a constant expression.
func evalBound(n *grammar.Node, scopeOf func(name string) (string, bool), lookup func(scope, name string) (int64, bool), consts *cxx.Resolver) []int64 {
	m := cxx.Unparen(n)
	if m != nil && m.Kind() == "type_descriptor" {
		if c := firstNamed(m); c != nil {
			m = c
		}
	}
	neg := false
	if m != nil && m.Kind() == "unary_expression" {
		if op := m.ChildByField("operator"); op != nil && op.Text() == "!" {
			neg, m = true, cxx.Unparen(m.ChildByField("argument"))
		}
	}
	if m != nil && (m.Kind() == "identifier" || m.Kind() == "type_identifier") {
		if scope, ok := scopeOf(m.Text()); ok {
			v, ok := lookup(scope, m.Text())
			if !ok {
				return nil
			}
			if neg {
				v = boolInt(v == 0)
			}
			return []int64{v}
		}
	}
	return consts.EvalAll(n)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// IndexConstants returns, for the named constants defined in f that some
// access in uses indexes with (`args[kOutArg]`, `tensor_data<T>(args,
// ARG_Q)`), an Access with Via "constant" spanning the constant's name, so
// hover on its definition maps it to parameters.
func IndexConstants(f *grammar.File, consts *cxx.Resolver, uses []Access) []Access {
	if f == nil || consts == nil {
		return nil
	}
	type agg struct {
		a    Access
		uses map[UseKind]bool
	}
	byDecl := map[*grammar.Node]*agg{}
	var order []*grammar.Node
	for _, u := range uses {
		if u.Index == nil || u.Via == "constant" || u.Computed || !slices.Equal(evalIndex(consts, u.Index), u.Slots) {
			// A helper that adds to its index or computes the slot from
			// it (`args[kTensorCount + scalarIdx]`): the constants it is
			// handed are not slots.
			continue
		}
		for _, id := range identifiersIn(u.Index) {
			for _, d := range consts.Lookup(id) {
				if d.File != f || d.Decl == nil {
					continue
				}
				name := declName(d.Decl)
				if name == nil {
					continue
				}
				g := byDecl[d.Decl]
				if g == nil {
					g = &agg{a: Access{Start: name.Start, End: name.End, Node: d.Decl, Index: name, Via: "constant", File: f.Path, Slots: consts.EvalAll(name)}, uses: map[UseKind]bool{}}
					byDecl[d.Decl] = g
					order = append(order, d.Decl)
				}
				g.uses[u.Use] = true
			}
		}
	}
	var out []Access
	for _, d := range order {
		g := byDecl[d]
		if len(g.uses) == 1 {
			for k := range g.uses {
				g.a.Use = k
			}
		}
		out = append(out, g.a)
	}
	return out
}

func identifiersIn(n *grammar.Node) []string {
	n = cxx.Unparen(n)
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "identifier", "qualified_identifier":
		t := n.Text()
		if i := strings.LastIndex(t, "::"); i >= 0 {
			t = t[i+2:]
		}
		return []string{t}
	}
	var out []string
	ds := n.Descendants()
	for i := range ds {
		d := &ds[i]
		if d.Kind() == "identifier" {
			out = append(out, d.Text())
		}
	}
	return out
}

func declName(decl *grammar.Node) *grammar.Node {
	switch decl.Kind() {
	case "enumerator", "preproc_def":
		return decl.ChildByField("name")
	case "init_declarator":
		d := decl.ChildByField("declarator")
		for d != nil && d.Kind() != "identifier" && d.Kind() != "field_identifier" {
			d = d.ChildByField("declarator")
		}
		return d
	case "field_declaration":
		d := decl.ChildByField("declarator")
		for d != nil && d.Kind() != "field_identifier" && d.Kind() != "identifier" {
			d = d.ChildByField("declarator")
		}
		return d
	}
	if n := decl.ChildByField("name"); n != nil {
		return n
	}
	return nil
}

// Range is where a finding on the access is reported: the whole
// `args[N]`, or the index argument of a helper call.
func (a *Access) Range() (uint32, uint32) {
	if a.Via == "args[]" && a.Node != nil {
		return a.Node.Start, a.Node.End
	}
	return a.Start, a.End
}

// SiteAt describes a place in C++ code the way an access there would be
// described (its function and the template-flag branches around it), so
// CompiledIn tells which externs run it: completion at `args[` offers the
// slots of those externs only. ok is false outside any function.
func SiteAt(n *grammar.Node) (site Access, ok bool) {
	if n == nil {
		return Access{}, false
	}
	fn := n.Ancestor("function_definition")
	if fn == nil {
		return Access{}, false
	}
	return Access{Func: cxx.FunctionName(fn), Conds: conds(n, fn, nil)}, true
}
